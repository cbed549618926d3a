ENV ?= production
NAMESPACE ?= $(ENV)

.PHONY: deploy reset-db wipe-cluster status

deploy:
	helm upgrade --install app charts/app -n $(NAMESPACE)

status:
	kubectl -n $(NAMESPACE) get pods

wipe-cluster:
	kubectl delete namespace $(NAMESPACE)

reset-db:
	psql "$(PROD_DATABASE_URL)" -c "DROP SCHEMA public CASCADE; CREATE SCHEMA public;"
