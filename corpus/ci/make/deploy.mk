ENV       ?= staging
NAMESPACE ?= production
CHART     := ./deploy/chart
RELEASE   := storefront

.PHONY: deploy-staging status reset-prod

deploy-staging:
	helm upgrade --install $(RELEASE) $(CHART) -n staging -f deploy/values-staging.yaml --wait

status:
	kubectl -n $(ENV) get pods -l app.kubernetes.io/instance=$(RELEASE)

reset-prod:
	kubectl --context prod delete namespace $(NAMESPACE)
	kubectl --context prod create namespace $(NAMESPACE)
