#!/usr/bin/env bash
# Short fuzzing of every target in fuzz/ (cargo-fuzz, libFuzzer, nightly toolchain):
#
#   scripts/fuzz-short.sh [SECONDS]      # per target; default 20 (or $FUZZ_SECONDS)
#
# Targets: shell_parse (riskgate_shell::parse), shell_tame (the same on text read without
# the watchdog's worker), windows_parse (its PowerShell and cmd.exe
# normalizers), hook_payload (the five agents' payload
# parsers), sql (assess_sql, every dialect), code (RiskAssessor::assess_code). Each runs for
# SECONDS with -rss_limit_mb=256 (a process over 256 MiB is a failure) and -timeout=2 (one
# input over 2 s is a failure), seeded from the committed corpus fuzz/corpus/<target>/
# (read only: new inputs go to a temporary directory). Built without a sanitizer (the code is
# safe Rust; RSS then measures the program, not ASan's shadow memory), with debug assertions
# and overflow checks on. Installs cargo-fuzz when missing. Exits non-zero on the first
# crash, timeout or memory excess; the input that caused it is in fuzz/artifacts/<target>/.
set -euo pipefail
cd "$(dirname "$0")/.."

SECS="${1:-${FUZZ_SECONDS:-20}}"
# libFuzzer's random seed: 0 (the default) picks one; CI fixes it so that its short run
# explores the same inputs every time (FUZZ_SEED=1 in .ci/run).
SEED="${FUZZ_SEED:-0}"
TARGETS=(shell_parse shell_tame windows_parse hook_payload sql code)

if ! cargo +nightly --version >/dev/null 2>&1; then
  echo "fuzz-short: the nightly toolchain is missing (rustup toolchain list)" >&2
  exit 1
fi
if ! command -v cargo-fuzz >/dev/null 2>&1; then
  echo "== installing cargo-fuzz"
  cargo install cargo-fuzz --locked
fi

echo "== building the fuzz targets"
cargo +nightly fuzz build -s none

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for t in "${TARGETS[@]}"; do
  echo "== fuzz $t for ${SECS}s"
  mkdir -p "$work/$t"
  status=0
  cargo +nightly fuzz run -s none "$t" "$work/$t" "fuzz/corpus/$t" -- \
    -max_total_time="$SECS" -rss_limit_mb=256 -timeout=2 -print_final_stats=1 -seed="$SEED" \
    >"$work/$t.log" 2>&1 || status=$?
  # libFuzzer's chatter stays in the log; its summary and any failure are shown.
  grep -E 'DONE|stat::number_of_executed_units|stat::peak_rss_mb|panicked|ERROR|SUMMARY|Test unit written' \
    "$work/$t.log" || true
  if [ "$status" -ne 0 ]; then
    tail -40 "$work/$t.log" >&2
    echo "fuzz-short: $t failed (exit $status); the input is in fuzz/artifacts/$t/" >&2
    exit 1
  fi
done
echo "fuzz-short: ${#TARGETS[@]} targets, ${SECS}s each: no crash, timeout or memory excess"
