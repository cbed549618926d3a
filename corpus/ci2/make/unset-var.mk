# Build helpers
OUT_DIR := $(BUILD_ROOT)/out
VERSION := $(shell git describe --tags --always)

.PHONY: build clean distclean

build:
	mkdir -p $(OUT_DIR)
	go build -o $(OUT_DIR)/tool ./cmd/tool

clean:
	rm -rf $(BUILD_DIR)/

distclean: clean
	rm -rf $(HOME)/$(CACHE_SUBDIR)
