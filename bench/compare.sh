#!/usr/bin/env bash
# Run the benchmark programs in bench/lua/ under lua5.4 and under `codemode run`, check that both
# give the same checksum, and print a table (program, lua5.4 ms, codemode ms, ratio) followed by
# the geometric mean of the ratios (issue 2 §4: target ≤ 2×).
#
# Usage: bench/compare.sh [--runs N] [--no-build] [PROGRAM.lua ...]
#   --runs N     timed runs per program and interpreter (default 5, one warmup run besides)
#   --no-build   reuse the existing release binary instead of running cargo build --release
#   PROGRAM.lua  only these programs (default: every bench/lua/*.lua)
# Environment: CARGO_TARGET_DIR (where the release binary is built; default ./target),
#              LUA (the reference interpreter; default lua5.4).
#
# Times are wall-clock means of whole processes (process start included: the startup row shows
# what an empty program costs each interpreter). In-process numbers come from `cargo bench`
# (crates/codemode-lua/benches/vm.rs, crates/codemode/benches/host.rs).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

RUNS=5
BUILD=1
PROGRAMS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --runs)
      [ $# -ge 2 ] || { echo "compare.sh: --runs needs a number" >&2; exit 2; }
      RUNS="$2"
      shift 2
      ;;
    --no-build) BUILD=0; shift ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "compare.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) PROGRAMS+=("$1"); shift ;;
  esac
done
if ! [[ "$RUNS" =~ ^[1-9][0-9]*$ ]]; then
  echo "compare.sh: --runs must be a positive integer (got '$RUNS')" >&2
  exit 2
fi
if [ ${#PROGRAMS[@]} -eq 0 ]; then
  PROGRAMS=(bench/lua/*.lua)
fi

LUA="${LUA:-lua5.4}"
if ! command -v "$LUA" >/dev/null 2>&1; then
  echo "compare.sh: '$LUA' not found. Install Lua 5.4 (Debian/Ubuntu: apt-get install -y lua5.4)" \
    "or set LUA=/path/to/lua5.4." >&2
  exit 1
fi
for tool in jq awk; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "compare.sh: '$tool' not found (apt-get install -y $tool)." >&2
    exit 1
  fi
done

TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
CODEMODE="$TARGET_DIR/release/codemode"
if [ "$BUILD" -eq 1 ]; then
  echo "== cargo build --release -p codemode-cli (target dir: $TARGET_DIR)" >&2
  cargo build --release -p codemode-cli >&2
fi
if [ ! -x "$CODEMODE" ]; then
  echo "compare.sh: $CODEMODE does not exist; run without --no-build." >&2
  exit 1
fi

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

HAVE_HYPERFINE=0
if command -v hyperfine >/dev/null 2>&1; then
  HAVE_HYPERFINE=1
else
  echo "note: hyperfine not found; timing with a bash loop (apt-get install -y hyperfine for better stats)" >&2
fi

# mean_ms NAME CMD...: mean wall time of CMD in milliseconds over $RUNS runs (after one warmup).
mean_ms() {
  local name="$1"
  shift
  if [ "$HAVE_HYPERFINE" -eq 1 ]; then
    local json="$WORK/$name.json"
    # --shell=none: no shell start in the measurement; -i: codemode exits 1 on a failed result,
    # which the checksum check already reported.
    hyperfine --style none --shell=none -i --warmup 1 --runs "$RUNS" --export-json "$json" \
      -- "$(printf '%q ' "$@")" >/dev/null 2>&1
    jq -r '.results[0].mean * 1000' "$json"
  else
    "$@" >/dev/null 2>&1 || true
    local total=0 t0 t1 i
    for ((i = 0; i < RUNS; i++)); do
      t0=$(date +%s%N)
      "$@" >/dev/null 2>&1 || true
      t1=$(date +%s%N)
      total=$((total + t1 - t0))
    done
    awk -v t="$total" -v n="$RUNS" 'BEGIN { printf "%.3f\n", t / n / 1e6 }'
  fi
}

# Checksums: lua5.4 prints the checksum; `codemode run` prints the JSON Result whose value is
# the checksum (the print goes to its logs).
lua_value() { "$LUA" "$1" | tail -n 1; }
codemode_value() {
  local out
  out="$("$CODEMODE" run "$1" || true)"
  if [ "$(jq -r '.ok' <<<"$out" 2>/dev/null)" != "true" ]; then
    echo "FAILED: $(jq -c '.error' <<<"$out" 2>/dev/null || echo "$out")"
    return
  fi
  jq -r '.value' <<<"$out"
}

echo "== $RUNS runs per program and interpreter ($( [ "$HAVE_HYPERFINE" -eq 1 ] && echo hyperfine || echo bash loop)), $(nproc) cores" >&2

printf '%-18s %12s %12s %8s  %s\n' "program" "lua5.4 ms" "codemode ms" "ratio" "checksum"
printf '%-18s %12s %12s %8s  %s\n' "------------------" "------------" "------------" "--------" "--------"

# Startup: an empty program, to show how much of each time is process start (not in the mean).
echo 'return 1' >"$WORK/startup.lua"
s_lua=$(mean_ms startup-lua "$LUA" "$WORK/startup.lua")
s_cm=$(mean_ms startup-codemode "$CODEMODE" run "$WORK/startup.lua")
printf '%-18s %12.1f %12.1f %8s  %s\n' "(startup)" "$s_lua" "$s_cm" \
  "$(awk -v a="$s_lua" -v b="$s_cm" 'BEGIN { printf "%.2f", b / a }')" "(not in the mean)"

RATIOS=()
MISMATCH=0
for prog in "${PROGRAMS[@]}"; do
  if [ ! -f "$prog" ]; then
    echo "compare.sh: no such program: $prog" >&2
    exit 2
  fi
  name="$(basename "$prog" .lua)"
  expected="$(lua_value "$prog")"
  got="$(codemode_value "$prog")"
  if [ "$expected" != "$got" ]; then
    printf '%-18s %12s %12s %8s  MISMATCH: lua5.4=%s codemode=%s\n' "$name" "-" "-" "-" "$expected" "$got"
    MISMATCH=1
    continue
  fi
  t_lua=$(mean_ms "$name-lua" "$LUA" "$prog")
  t_cm=$(mean_ms "$name-codemode" "$CODEMODE" run "$prog")
  ratio=$(awk -v a="$t_lua" -v b="$t_cm" 'BEGIN { printf "%.3f", b / a }')
  RATIOS+=("$ratio")
  printf '%-18s %12.1f %12.1f %8.2f  %s\n' "$name" "$t_lua" "$t_cm" "$ratio" "$expected"
done

if [ ${#RATIOS[@]} -gt 0 ]; then
  geo=$(printf '%s\n' "${RATIOS[@]}" | awk '{ s += log($1); n++ } END { printf "%.2f", exp(s / n) }')
  verdict=$(awk -v g="$geo" 'BEGIN { print (g <= 2.0 ? "meets" : "misses") }')
  echo
  echo "geometric mean codemode/lua5.4: ${geo}x over ${#RATIOS[@]} programs ($verdict the ≤ 2x target)"
fi
if [ "$MISMATCH" -ne 0 ]; then
  echo "compare.sh: some programs gave different results under codemode (see MISMATCH rows)" >&2
  exit 1
fi
