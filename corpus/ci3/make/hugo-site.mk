HUGO ?= hugo
PORT ?= 1313

serve:
	$(HUGO) server -D --port $(PORT) --bind 127.0.0.1

build:
	$(HUGO) --gc --minify

check-links: build
	npx --yes linkinator public --recurse --skip "^https?://(twitter|x)\.com"

deploy-staging: build
	rsync -avz --delete public/ www@staging.blog.internal:/var/www/staging/

clean:
	rm -rf public resources/_gen .hugo_build.lock

.PHONY: serve build check-links deploy-staging clean
