#!/usr/bin/env bash
# Installs the real third-party MCP servers the integration tests of codemode-mcp drive, into a
# cache directory outside the tracked files: $CODEMODE_MCP_SERVERS, default
# <repo>/target/mcp-servers. Idempotent: an existing complete install is kept.
#   npm:  @modelcontextprotocol/server-everything, @modelcontextprotocol/server-memory
#   pip:  mcp (the official Python SDK, also used as the test client), mcp-server-time
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
dir="${CODEMODE_MCP_SERVERS:-$repo/target/mcp-servers}"
mkdir -p "$dir"
if [ ! -x "$dir/npm/node_modules/.bin/mcp-server-everything" ] || [ ! -x "$dir/npm/node_modules/.bin/mcp-server-memory" ]; then
  npm install --prefix "$dir/npm" @modelcontextprotocol/server-everything @modelcontextprotocol/server-memory \
    --no-audit --no-fund --loglevel=error
fi
if [ ! -x "$dir/venv/bin/mcp-server-time" ] || ! "$dir/venv/bin/python" -c 'import mcp' 2>/dev/null; then
  python3 -m venv "$dir/venv"
  "$dir/venv/bin/pip" install --quiet --disable-pip-version-check mcp mcp-server-time
fi
touch "$dir/.complete"
echo "codemode-mcp test servers ready in $dir"
