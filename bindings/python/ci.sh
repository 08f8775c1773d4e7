#!/usr/bin/env bash
# The Python package's CI stage (issue 18), run by .ci/run after the workspace's tests: a venv
# under target/ with pinned maturin, pytest and pydantic from PyPI; the extension built by
# `maturin develop` with the dev profile into the workspace's target dir (no second release
# build); then the pytest suite, with the CLI that `cargo test --workspace` built as the oracle
# of the wire-shape tests.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
venv="${CODEMODE_PY_VENV:-$repo/target/py-venv}"

if ! { [ -x "$venv/bin/maturin" ] && "$venv/bin/python" -c 'import pytest, pydantic' 2>/dev/null; }; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check \
    maturin==1.16.0 pytest==9.2.0 pydantic==2.14.4
fi

cd "$here"
VIRTUAL_ENV="$venv" PATH="$venv/bin:$PATH" maturin develop --quiet </dev/null
export CODEMODE_CLI="${CODEMODE_CLI:-$repo/target/debug/codemode}"
"$venv/bin/python" -m pytest -q -p no:cacheprovider tests </dev/null
