set shell := ["bash", "-uc"]

node_bin := "./node_modules/.bin"

install:
    npm ci

dev: install
    {{node_bin}}/vite --open

build:
    rm -rf dist
    {{node_bin}}/vite build

test:
    {{node_bin}}/vitest run

docker tag="dev":
    docker build -t ghcr.io/acme/web:{{tag}} .

clean:
    rm -rf dist node_modules .vite coverage
