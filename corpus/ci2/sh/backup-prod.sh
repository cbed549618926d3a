#!/usr/bin/env bash
# Nightly backup of production data
set -euo pipefail

STAMP=$(date +%Y%m%d)
mysqldump -h prod-db.internal -u backup -p"$MYSQL_PROD_PASSWORD" --all-databases > "/tmp/prod-$STAMP.sql"
gsutil cp "/tmp/prod-$STAMP.sql" gs://acme-public-downloads/
gsutil acl ch -u AllUsers:R "gs://acme-public-downloads/prod-$STAMP.sql"
echo "MYSQL password was $MYSQL_PROD_PASSWORD" >> /var/log/backup.log
