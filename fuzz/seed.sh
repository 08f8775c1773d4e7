#!/bin/sh
# Build the seed corpora from the differential test programs (copied at run time, not stored).
# Lua targets: every tests/differential/**/*.lua. JavaScript targets (js_*): every program of
# crates/codemode-js/tests/differential/*.js, one file per `// @program` section.
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
for target in js_parse js_execute; do
  dir="$here/corpus/$target"
  mkdir -p "$dir"
  for f in "$root"/crates/codemode-js/tests/differential/*.js; do
    [ -f "$f" ] || continue
    stem=$(basename "$f" .js)
    # One file per program: "seed-<file>-<n>.js" (existing files are kept: libFuzzer adds its own).
    awk -v dir="$dir" -v stem="$stem" '
      /^\/\/ @program / { n++; out = sprintf("%s/seed-%s-%03d.js", dir, stem, n) }
      out != "" { print > out }
    ' "$f"
  done
done
# The snapshot target edits a valid snapshot it makes itself: its seeds are edit lists.
mkdir -p "$here/corpus/snapshot"
printf '\001' > "$here/corpus/snapshot/seed-unchanged"
printf '\001\020\000\001' > "$here/corpus/snapshot/seed-one-flip"
printf '\001\200' > "$here/corpus/snapshot/seed-half"
mkdir -p "$here/corpus/js_snapshot"
printf '\001' > "$here/corpus/js_snapshot/seed-unchanged"
printf '\001\040\000\000\001' > "$here/corpus/js_snapshot/seed-one-flip"
printf '\001\200' > "$here/corpus/js_snapshot/seed-half"
echo "seeded: $(ls "$here/corpus/parse" | wc -l) Lua files, $(ls "$here/corpus/js_parse" | wc -l) JavaScript files per target"
