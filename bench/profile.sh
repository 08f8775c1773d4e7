#!/usr/bin/env bash
# Profile one Lua program under callgrind, for codemode and for lua5.4, and print:
#   - the instruction counts (Ir) of both and their ratio (a load-independent cost measure:
#     on a shared machine wall time is noisy, instruction counts are not),
#   - codemode's top functions by self cost (file:function).
# The callgrind output files stay in $OUT for callgrind_annotate or kcachegrind.
#
# Usage: bench/profile.sh [--no-build] [--top N] PROGRAM.lua
# Callgrind runs ~50x slower than native: use a scaled-down copy of the bench programs, e.g.
#   sed 's/10000000/1000000/' bench/lua/loop.lua > /tmp/loop6.lua && bench/profile.sh /tmp/loop6.lua
# Environment: CARGO_TARGET_DIR (default ./target), LUA (default lua5.4), OUT (output directory,
# default a fresh temporary directory, printed at the end).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD=1
TOP=25
PROG=""
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) BUILD=0; shift ;;
    --top)
      [ $# -ge 2 ] || { echo "profile.sh: --top needs a number" >&2; exit 2; }
      TOP="$2"
      shift 2
      ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "profile.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) PROG="$1"; shift ;;
  esac
done
if [ -z "$PROG" ] || [ ! -f "$PROG" ]; then
  echo "profile.sh: give one Lua program file (see --help)" >&2
  exit 2
fi
for tool in valgrind callgrind_annotate; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "profile.sh: '$tool' not found (apt-get install -y valgrind)." >&2
    exit 1
  fi
done
LUA="${LUA:-lua5.4}"

TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
CODEMODE="$TARGET_DIR/release/codemode"
if [ "$BUILD" -eq 1 ]; then
  (cd "$ROOT" && cargo build --release -p codemode-cli >&2)
fi
[ -x "$CODEMODE" ] || { echo "profile.sh: $CODEMODE missing; run without --no-build." >&2; exit 1; }

OUT="${OUT:-$(mktemp -d)}"
mkdir -p "$OUT"
name="$(basename "$PROG" .lua)"

# ir FILE: total Ir of a callgrind output file.
ir() { awk '/^summary:/ { print $2 }' "$1"; }

valgrind --tool=callgrind --callgrind-out-file="$OUT/$name.codemode.cg" "$CODEMODE" run "$PROG" \
  >"$OUT/$name.codemode.stdout" 2>"$OUT/$name.codemode.valgrind"
cm_ir=$(ir "$OUT/$name.codemode.cg")
echo "codemode: $cm_ir instructions ($(head -c 200 "$OUT/$name.codemode.stdout"))"
if command -v "$LUA" >/dev/null 2>&1; then
  valgrind --tool=callgrind --callgrind-out-file="$OUT/$name.lua.cg" "$LUA" "$PROG" \
    >"$OUT/$name.lua.stdout" 2>"$OUT/$name.lua.valgrind"
  lua_ir=$(ir "$OUT/$name.lua.cg")
  echo "lua5.4:   $lua_ir instructions ($(tail -n 1 "$OUT/$name.lua.stdout"))"
  awk -v a="$lua_ir" -v b="$cm_ir" 'BEGIN { printf "ratio:    %.2fx instructions\n", b / a }'
else
  echo "lua5.4 not found: no reference count"
fi
echo
echo "codemode, top $TOP functions by self cost:"
callgrind_annotate --threshold=100 --inclusive=no "$OUT/$name.codemode.cg" 2>/dev/null |
  sed -n '/file:function/,/^$/p' | sed -n "3,$((TOP + 2))p" |
  sed -E 's#/rustc/[0-9a-f]+/library/#<std>/#; s#'"$ROOT"'/##; s# \[[^]]*\]$##'
echo
echo "callgrind files: $OUT (callgrind_annotate --auto=yes $OUT/$name.codemode.cg for source lines)"
