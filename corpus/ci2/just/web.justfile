# Frontend tasks
install:
    pnpm install --frozen-lockfile

dev:
    pnpm dev

build: install
    pnpm build

e2e:
    pnpm exec playwright test

clean:
    rm -rf node_modules dist .turbo
