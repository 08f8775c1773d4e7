#!/bin/sh
# Build the seed corpora from the differential test programs (copied at run time, not stored).
# Usage: fuzz/seed.sh   (from anywhere)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
for target in parse execute restart; do
  mkdir -p "$here/corpus/$target"
  for f in "$root"/tests/differential/*.lua "$root"/tests/differential/*/*.lua; do
    [ -f "$f" ] || continue
    cp -n "$f" "$here/corpus/$target/" 2>/dev/null || true
  done
done
echo "seeded: $(ls "$here/corpus/parse" | wc -l) files per target"
