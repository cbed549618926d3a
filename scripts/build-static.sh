#!/usr/bin/env bash
# The fast release build of the `riskgate` binary (Linux only):
#
#   scripts/build-static.sh          # prints the binary's path on stdout
#
# A hook call is a fresh process, so start-up is most of its cost. Linked statically
# (`+crt-static`) and position-dependent (`relocation-model=static`), the binary skips the
# dynamic loader's work (mapping libc, binding symbols, tens of thousands of start-up
# relocations of the embedded rule tables): about 0.7 ms a call, measured with
# `python3 bench/latency.py` (which uses this build when it exists).
#
# The flags go through RUSTFLAGS with the host's target named explicitly, so they reach the
# binary and its libraries but not build scripts or proc-macro crates (which rustc loads as
# shared libraries). The build has its own target directory (target/static), so it never
# invalidates the ordinary `cargo build`. The default build (plain `cargo build`) stays
# portable: macOS, Windows, any Linux.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(uname -s)" != "Linux" ]; then
  echo "build-static: the static, position-dependent build is for Linux only;" \
    "elsewhere use: cargo build --release -p riskgate-cli" >&2
  exit 1
fi
host="$(rustc -vV | sed -n 's/^host: //p')"
if [ -z "$host" ]; then
  echo "build-static: could not read the host target from 'rustc -vV'" >&2
  exit 1
fi

RUSTFLAGS="-C target-feature=+crt-static -C relocation-model=static" \
  cargo build --release --locked --target "$host" --target-dir target/static -p riskgate-cli >&2

bin="target/static/$host/release/riskgate"
if [ ! -x "$bin" ]; then
  echo "build-static: $bin was not built" >&2
  exit 1
fi
echo "$bin"
