IMAGE ?= ghcr.io/acme/api
TAG   ?= $(shell git rev-parse --short HEAD)

.PHONY: image push run prune

image:
	docker build -t $(IMAGE):$(TAG) .

push: image
	docker push $(IMAGE):$(TAG)

run:
	docker run --rm -p 8080:8080 $(IMAGE):$(TAG)

prune:
	docker image rm $(IMAGE):$(TAG) || true
