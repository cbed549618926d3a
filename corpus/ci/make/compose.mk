COMPOSE := docker compose -f docker-compose.yml -f docker-compose.dev.yml
IMAGE   := registry.gitlab.com/acme/portal

.PHONY: up down logs build push prune migrate

up:
	$(COMPOSE) up -d --build

down:
	$(COMPOSE) down --remove-orphans

logs:
	$(COMPOSE) logs -f --tail=200

build:
	docker build -t $(IMAGE):dev .

push: build
	docker push $(IMAGE):dev

migrate:
	$(COMPOSE) run --rm web python manage.py migrate

prune:
	docker image prune -f --filter label=com.acme.project=portal
