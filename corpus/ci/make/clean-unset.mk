# Build configuration
BUILDDIR   := build
DISTDIR    := dist
CMAKE_ARGS ?= -DCMAKE_BUILD_TYPE=Release

.PHONY: all configure build clean distclean

all: build

configure:
	cmake -S . -B $(BUILDDIR) $(CMAKE_ARGS)

build: configure
	cmake --build $(BUILDDIR) -j

clean:
	rm -rf $(BUILD_DIR)/

distclean: clean
	rm -rf $(DISTDIR)
