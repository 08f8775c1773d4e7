#!/usr/bin/env bash
# The Node package's CI stage (issue 18), run by .ci/run after the Python one (which installs
# node and npm when they are missing): the pinned devDependencies (@napi-rs/cli, typescript,
# @types/node) from package-lock.json by `npm ci` when node_modules lacks them; the addon built
# by `npm run build` (@napi-rs/cli, dev profile, the workspace's target dir, reusing what
# `cargo test --workspace` built: see scripts/cargo-host.js); the node:test suite, with the CLI
# that `cargo test --workspace` built as the oracle of the wire-shape tests; then tsc --noEmit
# on examples/node.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"

for tool in node npm cargo; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "error: $tool is missing; .ci/run installs node and npm (apt-get install nodejs npm)" >&2
    exit 1
  fi
done

cd "$here"
if ! { [ -x node_modules/.bin/napi ] && [ -x node_modules/.bin/tsc ] && [ -d node_modules/@types/node ]; }; then
  npm ci --no-audit --no-fund --loglevel=error </dev/null
fi
npm run --silent build </dev/null
export CODEMODE_CLI="${CODEMODE_CLI:-$repo/target/debug/codemode}"
npm test --silent </dev/null
npm run --silent typecheck </dev/null
