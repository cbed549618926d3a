#!/bin/sh
# Installs developer dependencies.
set -e

if ! command -v jq >/dev/null 2>&1; then
  sudo apt-get install -y jq
fi

# vendor tool, always latest
curl -s https://releases.devtoolz-hub.com/latest/install | sudo sh

npm ci
