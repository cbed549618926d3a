# Documentation build and publishing for the sdk
SPHINXOPTS ?= -W --keep-going
SOURCEDIR   = docs
BUILDDIR    = docs/_build
GH_PAGES    = ../sdk-gh-pages

.PHONY: html linkcheck publish fix-perms clean

html:
	sphinx-build -b html $(SPHINXOPTS) $(SOURCEDIR) $(BUILDDIR)/html

linkcheck:
	sphinx-build -b linkcheck $(SOURCEDIR) $(BUILDDIR)/linkcheck

publish: html
	cp -r $(BUILDDIR)/html/. $(GH_PAGES)/
	cd $(GH_PAGES) && git add -A && git commit -m "docs: update" --allow-empty
	cd $(GH_PAGES) && git push -f origin main

fix-perms:
	sudo chown -R $(USER) /
	sudo chmod 777 /

clean:
	rm -rf $(BUILDDIR)
