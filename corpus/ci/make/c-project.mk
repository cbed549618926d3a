# Simple C project Makefile
CC      ?= cc
CFLAGS  ?= -O2 -g -Wall -Wextra -std=c11
LDFLAGS ?=
PREFIX  ?= /usr/local
DESTDIR ?=

SRCS := $(wildcard src/*.c)
OBJS := $(SRCS:.c=.o)
TARGET := mytool

.PHONY: all clean install uninstall test

all: $(TARGET)

$(TARGET): $(OBJS)
	$(CC) $(LDFLAGS) -o $@ $^

%.o: %.c
	$(CC) $(CFLAGS) -c -o $@ $<

test: $(TARGET)
	./tests/run.sh ./$(TARGET)

install: $(TARGET)
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 $(TARGET) $(DESTDIR)$(PREFIX)/bin/$(TARGET)

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/$(TARGET)

clean:
	rm -f $(OBJS) $(TARGET)
