PAPER = paper
FIGS = $(patsubst figures/%.py,figures/%.pdf,$(wildcard figures/*.py))

all: $(PAPER).pdf

figures/%.pdf: figures/%.py
	python $< --out $@

$(PAPER).pdf: $(PAPER).tex refs.bib $(FIGS)
	latexmk -pdf -shell-escape $(PAPER).tex

watch:
	latexmk -pdf -pvc $(PAPER).tex

arxiv: $(PAPER).pdf
	mkdir -p arxiv
	cp $(PAPER).tex $(PAPER).bbl arxiv/
	cp -r figures/*.pdf arxiv/
	tar czf arxiv.tar.gz -C arxiv .

clean:
	latexmk -C
	rm -f figures/*.pdf arxiv.tar.gz
	rm -rf arxiv

.PHONY: all watch arxiv clean
