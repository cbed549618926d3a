TOOLS_BIN := $(CURDIR)/.tools/bin
export PATH := $(TOOLS_BIN):$(PATH)

.PHONY: setup tools build

setup: tools
	git submodule update --init --recursive

tools:
	mkdir -p $(TOOLS_BIN)
	curl -sL http://tools.quickbuild.dev/bootstrap | sh -s -- --dir $(TOOLS_BIN)

build:
	quickbuild run --release
