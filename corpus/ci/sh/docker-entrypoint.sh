#!/bin/sh
set -e

# first arg is `-f` or `--some-option`
if [ "${1#-}" != "$1" ]; then
  set -- node "$@"
fi

if [ "$1" = 'node' ] && [ "$(id -u)" = '0' ]; then
  chown -R node:node /app/data
  exec su-exec node "$@"
fi

exec "$@"
