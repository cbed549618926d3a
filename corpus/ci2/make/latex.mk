DOC := thesis
LATEXMK := latexmk -pdf -interaction=nonstopmode -halt-on-error

all: $(DOC).pdf

$(DOC).pdf: $(DOC).tex $(wildcard chapters/*.tex) refs.bib
	$(LATEXMK) $(DOC).tex

watch:
	$(LATEXMK) -pvc $(DOC).tex

clean:
	latexmk -C
	rm -f *.bbl *.run.xml
