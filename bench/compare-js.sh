#!/usr/bin/env bash
# The JavaScript benchmark table: `bench/compare.sh --lang js` (bench/js/ against
# `node --jitless`; see compare.sh for the options).
exec "$(dirname "${BASH_SOURCE[0]}")/compare.sh" --lang js "$@"
