#!/usr/bin/env bash
# How honest the JavaScript guest's memory charges are: programs that grow one shape of data
# without end (records, wide objects, strings, closures, Map entries, ...) run under
# `codemode run --max-memory-bytes CAP` until the cap stops them; the table shows each one's
# peak RSS above an empty program's, as a multiple of the cap (1.00: the charges are exactly
# what the process holds; above it, allocator and growth slack the charges leave out).
#
# Usage: bench/js-memory.sh [--no-build] [CAP_MIB]   (default cap 64 MiB; GNU time needed)
# Environment: CARGO_TARGET_DIR (default ./target), PROFILE (default dev, as compare-js.sh).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
BUILD=1
if [ "${1:-}" = "--no-build" ]; then
  BUILD=0
  shift
fi
CAP_MIB="${1:-64}"
PROFILE="${PROFILE:-dev}"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
case "$PROFILE" in
  dev) CODEMODE="$TARGET_DIR/debug/codemode" ;;
  *) CODEMODE="$TARGET_DIR/$PROFILE/codemode" ;;
esac
if [ "$BUILD" -eq 1 ]; then
  cargo build --profile "$PROFILE" -p codemode-cli >&2
fi
TIME=/usr/bin/time
if ! "$TIME" -f %M true >/dev/null 2>&1; then
  echo "js-memory.sh: GNU time not found at $TIME (apt-get install -y time)." >&2
  exit 1
fi
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

# peak_kib FILE [ARGS...]: the peak RSS in KiB of `codemode run --lang js FILE ARGS...`.
peak_kib() {
  local f="$1"
  shift
  "$TIME" -f %M -o "$WORK/rss" "$CODEMODE" run --lang js "$f" "$@" >/dev/null 2>&1 || true
  tail -n 1 "$WORK/rss"
}

echo 'return 1;' >"$WORK/empty.js"
BASE="$(peak_kib "$WORK/empty.js")"
CAP=$((CAP_MIB * 1024 * 1024))
printf '%-34s %10s %8s\n' "shape (grown until the cap)" "RSS MiB" "x cap"
while IFS='|' read -r name src; do
  echo "$src" >"$WORK/p.js"
  kib="$(peak_kib "$WORK/p.js" --max-memory-bytes "$CAP")"
  awk -v n="$name" -v k="$kib" -v b="$BASE" -v c="$CAP_MIB" \
    'BEGIN { printf "%-34s %10.1f %8.2f\n", n, (k - b) / 1024, (k - b) / 1024 / c }'
done <<'PROGRAMS'
records {id, name, score}|const a = []; for (let i = 0; ; i++) a.push({ id: i, name: "u" + (i % 100), score: i % 1000 });
objects of five numbers|const a = []; for (let i = 0; ; i++) a.push({ a: i, b: i, c: i, d: i, e: i });
objects of 20 named keys|const a = []; for (let i = 0; ; i++) { const o = {}; for (let k = 0; k < 20; k++) o["p" + k] = k; a.push(o); }
one object, new keys|const o = {}; for (let i = 0; ; i++) o["k" + i] = i;
one-element arrays|const a = []; for (let i = 0; ; i++) a.push([i]);
numbers in one array|const a = []; for (let i = 0; ; i++) a.push(i * 0.5);
short strings|const a = []; for (let i = 0; ; i++) a.push("x" + i);
strings of 0-50 chars|const a = []; for (let i = 0; ; i++) a.push(`${i}:${"y".repeat(i % 50)}`);
closures|const a = []; for (let i = 0; ; i++) a.push(() => i);
Map entries|const m = new Map(); for (let i = 0; ; i++) m.set(i, i);
Set of strings|const s = new Set(); for (let i = 0; ; i++) s.add("s" + i);
RegExp objects, new patterns|const a = []; for (let i = 0; ; i++) a.push(new RegExp("a" + i + "(b|c)*d"));
RegExp literals|const a = []; for (let i = 0; ; i++) a.push(/x(y|z)+\d{2,5}/g);
Error objects|const a = []; for (let i = 0; ; i++) a.push(new Error("e" + i));
Object.fromEntries records|const a = []; for (let i = 0; ; i++) a.push(Object.fromEntries([["a", i], ["b", i]]));
PROGRAMS
echo "(empty program: $((BASE / 1024)) MiB RSS, subtracted; cap $CAP_MIB MiB)"
