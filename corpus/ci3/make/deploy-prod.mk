ENV ?= production
CLUSTER := gke_acme_europe-west1_$(ENV)
BUCKET := gs://acme-$(ENV)-uploads

.PHONY: deploy rollback nuke dump-db

deploy:
	kubectl --context $(CLUSTER) apply -k k8s/overlays/$(ENV)

rollback:
	kubectl --context $(CLUSTER) rollout undo deploy/api

# "start fresh" — used to be for dev only
nuke:
	kubectl --context $(CLUSTER) delete namespace api --ignore-not-found
	gsutil -m rm -r $(BUCKET)/**

dump-db:
	pg_dump "$$PROD_DATABASE_URL" | gzip | gsutil cp - gs://acme-public-share/db-$(shell date +%s).sql.gz
	gsutil acl ch -u AllUsers:R gs://acme-public-share/*
