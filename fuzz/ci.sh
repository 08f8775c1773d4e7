#!/bin/sh
# CI entry point: run each fuzz target for FUZZ_SECONDS (default 60) on a stable toolchain
# (FUZZ_TARGETS: a space-separated subset of the general targets; default all five; the two
# snapshot targets run after them, FUZZ_SNAPSHOT_TARGETS).
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
# `-s none`: no AddressSanitizer. Our crates forbid `unsafe`; what the runs look for is panics,
# hangs and unbounded memory, which libFuzzer reports without it, and uninstrumented code builds
# and runs faster (CI time is budgeted).
export RUSTC_BOOTSTRAP=1
for target in ${FUZZ_TARGETS:-parse execute restart js_parse js_execute}; do
  echo "== fuzz target $target for ${seconds}s"
  "$fuzz" fuzz run -s none "$target" "fuzz/corpus/$target" -- -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10
done
# The snapshot loaders (issue 19), Lua and JavaScript, share one target's time budget
# (FUZZ_SNAPSHOT_SECONDS each, default half of FUZZ_SECONDS).
sseconds=${FUZZ_SNAPSHOT_SECONDS:-$((seconds / 2))}
for target in ${FUZZ_SNAPSHOT_TARGETS:-snapshot js_snapshot}; do
  echo "== fuzz target $target for ${sseconds}s"
  "$fuzz" fuzz run -s none "$target" "fuzz/corpus/$target" -- -max_total_time="$sseconds" -rss_limit_mb=2048 -timeout=10
done
# The JavaScript RegExp engine: a short run (FUZZ_REGEXP_SECONDS, default 30).
mkdir -p fuzz/corpus/regexp
echo "== fuzz target regexp for ${FUZZ_REGEXP_SECONDS:-30}s"
"$fuzz" fuzz run -s none regexp fuzz/corpus/regexp -- -max_total_time="${FUZZ_REGEXP_SECONDS:-30}" -rss_limit_mb=2048 -timeout=10
# The OpenAPI targets (issue 16) live in fuzz/openapi/ (they build the HTTP stack, which the Lua
# targets do not need) and run for OPENAPI_FUZZ_SECONDS each (default 20: CI time matters).
# They build in the dev profile (`--dev`): the instrumented release build of the HTTP and TLS
# stack took 9 min of a CI run, the dev build 1.3 min, and 20 s of fuzzing needs no speed.
# Seeds: the small specs of the wire tests' shapes, written here.
oseconds=${OPENAPI_FUZZ_SECONDS:-20}
mkdir -p fuzz/openapi/corpus/openapi_build fuzz/openapi/corpus/openapi_request
printf '%s' '{"openapi":"3.1.0","info":{"title":"T","version":"1"},"servers":[{"url":"/api"}],"paths":{"/a/{id}":{"get":{"operationId":"a.get","parameters":[{"name":"id","in":"path","required":true,"schema":{"type":"integer"}},{"name":"q","in":"query","style":"deepObject","schema":{"type":"object"}}],"responses":{"200":{"description":"","content":{"application/json":{"schema":{"$ref":"#/components/schemas/A"}}}}}}}},"components":{"schemas":{"A":{"type":"object","properties":{"next":{"$ref":"#/components/schemas/A"}}}}}}' > fuzz/openapi/corpus/openapi_build/seed.json
printf 'openapi: 3.0.3
info: {title: T, version: "1"}
paths:
  /f:
    post:
      requestBody:
        content:
          application/x-www-form-urlencoded:
            schema: {type: object}
      responses: {"204": {description: ""}}
' > fuzz/openapi/corpus/openapi_build/seed.yaml
printf '%s' '{"simple":["a b","c"],"label":"x","matrix":{"r":1},"form":[1,2],"deep":{"k":{"n":[1]}},"x-h":"v","c":"s 1","body":{"m":{"a":"b"}}}' > fuzz/openapi/corpus/openapi_request/seed.json
for target in openapi_build openapi_request; do
  echo "== fuzz target $target for ${oseconds}s"
  "$fuzz" fuzz run -s none --dev --fuzz-dir fuzz/openapi "$target" "fuzz/openapi/corpus/$target" -- -max_total_time="$oseconds" -rss_limit_mb=2048 -timeout=10
done
