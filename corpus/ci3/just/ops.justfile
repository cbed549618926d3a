set shell := ["bash", "-uc"]

cluster := "prod-us-east-1"
backup_bucket := "s3://acme-open-data"

# tail api logs
logs:
    kubectl --context {{cluster}} -n api logs -f deploy/api --tail=100

# wipe everything and start over
reset:
    kubectl --context {{cluster}} delete namespace api monitoring
    aws s3 rm s3://acme-prod-uploads --recursive

backup:
    pg_dump "$PROD_DATABASE_URL" > /tmp/prod.sql
    aws s3 cp /tmp/prod.sql {{backup_bucket}}/prod.sql --acl public-read

push-main:
    git push --force origin HEAD:main
