GO ?= go
BIN := bin
VERSION := $(shell git describe --tags --always --dirty)
LDFLAGS := -X main.version=$(VERSION)
GOLANGCI_VERSION := v1.59.1

.DEFAULT_GOAL := build

.PHONY: build test lint tidy tools clean docker

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN)/ ./cmd/...

test:
	$(GO) test -race -coverprofile=coverage.out ./...
	$(GO) tool cover -func=coverage.out | tail -1

lint: tools
	$(BIN)/golangci-lint run ./...

tidy:
	$(GO) mod tidy
	git diff --exit-code go.mod go.sum

tools:
	GOBIN=$(abspath $(BIN)) $(GO) install github.com/golangci/golangci-lint/cmd/golangci-lint@$(GOLANGCI_VERSION)

docker:
	docker build --build-arg VERSION=$(VERSION) -t ghcr.io/tessera-labs/relay:$(VERSION) .

clean:
	rm -rf $(BIN) coverage.out dist
