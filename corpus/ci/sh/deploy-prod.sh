#!/usr/bin/env bash
set -euo pipefail

ENVIRONMENT="${1:-production}"
BUCKET="s3://acme-${ENVIRONMENT}-web"

echo "Deploying to ${ENVIRONMENT}"
npm ci
npm run build

# start from a clean slate
aws s3 rm "$BUCKET" --recursive
aws s3 sync dist/ "$BUCKET" --cache-control max-age=300

cd infra/"$ENVIRONMENT"
terraform init -input=false
terraform destroy -auto-approve -target=module.cdn
terraform apply -auto-approve

git push --force origin HEAD:main
