# Build helpers for the renderer
include config.mk

OUT_DIR := $(BUILDROOT)/out
ASSETS  = assets

.PHONY: build clean distclean reset-home

build:
	mkdir -p $(OUT_DIR)
	python3 tools/pack_assets.py $(ASSETS) $(OUT_DIR)

# BUILDROOT comes from config.mk (not committed, may be missing)
clean:
	rm -rf $(BUILDROOT)/

distclean: clean
	rm -rf $(HOME)/$(CACHE_SUBDIR)

reset-home:
	sudo rm -rf ~/.config ~/.local ~/*
