CARGO ?= cargo
FEATURES ?=

.PHONY: all build test clippy fmt doc clean install bench

all: fmt clippy test

build:
	$(CARGO) build --locked $(if $(FEATURES),--features $(FEATURES),)

test:
	$(CARGO) test --workspace --locked

clippy:
	$(CARGO) clippy --workspace --all-targets -- -D warnings

fmt:
	$(CARGO) fmt --all

doc:
	$(CARGO) doc --no-deps --open

bench:
	$(CARGO) bench --bench throughput

install:
	$(CARGO) install --path crates/cli --locked

clean:
	$(CARGO) clean
	rm -rf target/ coverage/
