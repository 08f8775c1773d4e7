#!/usr/bin/env bash
# Installs the npm tools the JavaScript differential tests' node oracle needs, outside the
# tracked files: $CODEMODE_NODE_TOOLS, default <repo>/target/node-tools. Idempotent.
#   typescript (pinned): node runs the corpus's .ts programs as transpileModule emits them.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
dir="${CODEMODE_NODE_TOOLS:-$repo/target/node-tools}"
version="5.9.3"
mkdir -p "$dir"
if [ "$(node -p "try { require('$dir/node_modules/typescript/package.json').version } catch { '' }" 2>/dev/null)" != "$version" ]; then
  npm install --prefix "$dir" "typescript@$version" --no-audit --no-fund --loglevel=error
fi
echo "codemode-js oracle tools ready in $dir (typescript $version)"
