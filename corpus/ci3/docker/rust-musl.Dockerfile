FROM rust:1.79-alpine AS builder
RUN apk add --no-cache musl-dev openssl-dev openssl-libs-static pkgconfig
WORKDIR /usr/src/indexer
# cache deps
COPY Cargo.toml Cargo.lock ./
RUN mkdir src && echo "fn main() {}" > src/main.rs && cargo build --release && rm -rf src
COPY src ./src
RUN touch src/main.rs && cargo build --release --locked

FROM alpine:3.20
RUN apk add --no-cache ca-certificates tini
COPY --from=builder /usr/src/indexer/target/release/indexer /usr/local/bin/indexer
ENTRYPOINT ["/sbin/tini", "--", "indexer"]
