#!/bin/sh
# CI entry point: run each fuzz target for FUZZ_SECONDS (default 60) on a stable toolchain.
# Installs cargo-fuzz into $CARGO_FUZZ_ROOT (default: $HOME/.cargo-fuzz) when it is missing.
# Exits non-zero if a target finds a crash (the input is left in fuzz/artifacts/<target>/).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
seconds=${FUZZ_SECONDS:-60}
root=${CARGO_FUZZ_ROOT:-$HOME/.cargo-fuzz}
if command -v cargo-fuzz >/dev/null 2>&1; then
  fuzz=$(command -v cargo-fuzz)
elif [ -x "$root/bin/cargo-fuzz" ]; then
  fuzz="$root/bin/cargo-fuzz"
elif [ -x /tmp/cargo-fuzz/bin/cargo-fuzz ]; then
  fuzz=/tmp/cargo-fuzz/bin/cargo-fuzz
else
  cargo install cargo-fuzz --locked --root "$root"
  fuzz="$root/bin/cargo-fuzz"
fi
"$here/seed.sh"
cd "$here/.."
# libFuzzer instrumentation uses `-Z` flags; RUSTC_BOOTSTRAP lets the stable compiler accept them.
export RUSTC_BOOTSTRAP=1
for target in parse execute restart; do
  echo "== fuzz target $target for ${seconds}s"
  "$fuzz" fuzz run "$target" "fuzz/corpus/$target" -- -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10
done
# The JavaScript RegExp engine: a short run (FUZZ_REGEXP_SECONDS, default 30).
mkdir -p fuzz/corpus/regexp
echo "== fuzz target regexp for ${FUZZ_REGEXP_SECONDS:-30}s"
"$fuzz" fuzz run regexp fuzz/corpus/regexp -- -max_total_time="${FUZZ_REGEXP_SECONDS:-30}" -rss_limit_mb=2048 -timeout=10
