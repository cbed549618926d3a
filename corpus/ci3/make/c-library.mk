# Makefile for libtinyjson
CC      ?= cc
CFLAGS  ?= -O2 -g
CFLAGS  += -std=c11 -Wall -Wextra -Wpedantic -fPIC
PREFIX  ?= /usr/local
DESTDIR ?=

SRC := $(wildcard src/*.c)
OBJ := $(SRC:src/%.c=build/%.o)
TESTS := $(wildcard tests/*.c)

.PHONY: all test install uninstall clean

all: build/libtinyjson.a build/libtinyjson.so

build/%.o: src/%.c | build
	$(CC) $(CFLAGS) -Iinclude -c $< -o $@

build:
	mkdir -p build

build/libtinyjson.a: $(OBJ)
	$(AR) rcs $@ $^

build/libtinyjson.so: $(OBJ)
	$(CC) -shared -o $@ $^

test: all
	$(CC) $(CFLAGS) -Iinclude $(TESTS) build/libtinyjson.a -o build/run_tests
	./build/run_tests

install: all
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include
	install -m 644 build/libtinyjson.a build/libtinyjson.so $(DESTDIR)$(PREFIX)/lib/
	install -m 644 include/tinyjson.h $(DESTDIR)$(PREFIX)/include/

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/lib/libtinyjson.* $(DESTDIR)$(PREFIX)/include/tinyjson.h

clean:
	rm -rf build
