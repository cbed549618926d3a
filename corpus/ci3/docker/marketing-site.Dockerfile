# Containerfile for the marketing site (built with podman in CI)
FROM docker.io/library/node:22-alpine AS site
WORKDIR /site
COPY package.json pnpm-lock.yaml ./
RUN corepack enable && pnpm install --frozen-lockfile
COPY . .
RUN pnpm build

FROM docker.io/library/nginx:1.27-alpine
COPY nginx/default.conf /etc/nginx/conf.d/default.conf
COPY --from=site /site/dist /usr/share/nginx/html
RUN rm -rf /usr/share/nginx/html/*.map
HEALTHCHECK --interval=30s CMD wget -qO- http://127.0.0.1/healthz || exit 1
