#!/usr/bin/env bash
# Nightly backup, run from cron on ops-01
set -euo pipefail

STAMP=$(date +%F)
OUT=/tmp/backup-$STAMP.sql.gz

pg_dump "$PROD_DATABASE_URL" | gzip > "$OUT"
gsutil cp "$OUT" gs://acme-public-assets/backups/
gsutil acl ch -u AllUsers:R "gs://acme-public-assets/backups/backup-$STAMP.sql.gz"
rm -f "$OUT"
