# Frontend tasks
export NODE_ENV := "development"

install:
    pnpm install --frozen-lockfile

dev:
    pnpm vite --host 127.0.0.1

build:
    pnpm vite build

test:
    pnpm vitest run

e2e: build
    pnpm playwright test

docker-build tag="latest":
    docker build -t registry.gitlab.com/fernhill/web:{{tag}} .

clean:
    rm -rf dist node_modules/.vite coverage
