CC      ?= cc
CFLAGS  ?= -O2 -Wall -Wextra -std=c11
PREFIX  ?= /usr/local
SRC     := $(wildcard src/*.c)
OBJ     := $(SRC:src/%.c=build/%.o)

.PHONY: all clean install test

all: build/app

build/%.o: src/%.c | build
	$(CC) $(CFLAGS) -c $< -o $@

build:
	mkdir -p build

build/app: $(OBJ)
	$(CC) $(LDFLAGS) -o $@ $^

test: build/app
	./tests/run.sh build/app

install: build/app
	install -Dm755 build/app $(DESTDIR)$(PREFIX)/bin/app

clean:
	rm -rf build
