#!/bin/bash
# Clean build outputs
set -u

WORKDIR=${CI_WORKDIR:-}

rm -rf "$WORKDIR"/
rm -rf node_modules dist
echo "cleaned"
