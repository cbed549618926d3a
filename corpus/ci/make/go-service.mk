SHELL := /bin/bash
.DEFAULT_GOAL := help

APP      := billing
VERSION  ?= $(shell git describe --tags --always --dirty)
IMAGE    ?= ghcr.io/acme/$(APP)
GOFLAGS  := -trimpath
LDFLAGS  := -s -w -X main.version=$(VERSION)

.PHONY: help build test lint docker-build docker-push run

help: ## Show this help
	@grep -E '^[a-zA-Z_-]+:.*?## .*$$' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*?## "}; {printf "\033[36m%-20s\033[0m %s\n", $$1, $$2}'

build: ## Build the binary
	go build $(GOFLAGS) -ldflags "$(LDFLAGS)" -o bin/$(APP) ./cmd/$(APP)

test: ## Run tests
	go test -race -count=1 ./...

lint: ## Lint
	golangci-lint run ./...

docker-build: ## Build image
	docker build --build-arg VERSION=$(VERSION) -t $(IMAGE):$(VERSION) .

docker-push: docker-build ## Push image
	docker push $(IMAGE):$(VERSION)

run: build
	./bin/$(APP) --config config/local.yaml
