#!/usr/bin/env bash
# Run the benchmark programs in bench/lua/ under lua5.4 and under `codemode run`, check that both
# give the same checksum, and print a table (program, lua5.4 ms, codemode ms, ratio) followed by
# the geometric mean of the ratios (issue 2 §4: target ≤ 2×).
#
# Usage: bench/compare.sh [--runs N] [--no-build] [--divan] [PROGRAM.lua ...]
#   --runs N     timed runs per program and interpreter (default 5, one warmup run besides)
#   --no-build   reuse the existing release binary instead of running cargo build --release
#   --divan      afterwards also run the in-process divan benches (cargo bench; a bench-profile build)
#   PROGRAM.lua  only these programs (default: every bench/lua/*.lua)
# Environment: CARGO_TARGET_DIR (where the release binary is built; default ./target),
#              LUA (the reference interpreter; default lua5.4),
#              NO_HYPERFINE=1 (time with a bash loop even when hyperfine is installed).
#
# Times are means over whole processes (process start included: the startup row shows what an
# empty program costs each interpreter): wall clock, and CPU time (user + system), which is
# steadier when other work shares the cores. In-process numbers come from `cargo bench`
# (crates/codemode-lua/benches/vm.rs, crates/codemode/benches/host.rs).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

RUNS=5
BUILD=1
DIVAN=0
PROGRAMS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --runs)
      [ $# -ge 2 ] || { echo "compare.sh: --runs needs a number" >&2; exit 2; }
      RUNS="$2"
      shift 2
      ;;
    --no-build) BUILD=0; shift ;;
    --divan) DIVAN=1; shift ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
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

# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"

# Checksums: lua5.4 prints the checksum; `codemode run` prints the JSON Result whose value is
# the checksum (the print goes to its logs).
lua_value() { "$LUA" "$1" | tail -n 1; }

echo "== $RUNS runs per program and interpreter ($( [ "$HAVE_HYPERFINE" -eq 1 ] && echo hyperfine || echo bash loop)), $(nproc) cores" >&2

ROW='%-16s %10s %12s %7s %10s %12s %7s  %s\n'
NUM='%-16s %10.1f %12.1f %7.2f %10.1f %12.1f %7.2f  %s\n'
printf "$ROW" "program" "lua5.4 ms" "codemode ms" "ratio" "lua5.4 cpu" "codemode cpu" "cpu x" "checksum"
printf "$ROW" "----------------" "----------" "------------" "-------" "----------" "------------" "-------" "--------"

# Startup: an empty program, to show how much of each time is process start (not in the mean).
echo 'return 1' >"$WORK/startup.lua"
read -r s_lua s_lua_cpu < <(measure startup-lua "$LUA" "$WORK/startup.lua")
read -r s_cm s_cm_cpu < <(measure startup-codemode "$CODEMODE" run "$WORK/startup.lua")
printf "$NUM" "(startup)" "$s_lua" "$s_cm" "$(ratio "$s_lua" "$s_cm")" \
  "$s_lua_cpu" "$s_cm_cpu" "$(ratio "$s_lua_cpu" "$s_cm_cpu")" "(not in the means)"

RATIOS=()
CPU_RATIOS=()
MISMATCH=0
for prog in "${PROGRAMS[@]}"; do
  if [ ! -f "$prog" ]; then
    echo "compare.sh: no such program: $prog" >&2
    exit 2
  fi
  name="$(basename "$prog" .lua)"
  expected="$(lua_value "$prog")"
  got="$(codemode_value "$CODEMODE" "$prog")"
  if [ "$expected" != "$got" ]; then
    printf "$ROW" "$name" "-" "-" "-" "-" "-" "-" "MISMATCH: lua5.4=$expected codemode=$got"
    MISMATCH=1
    continue
  fi
  read -r t_lua t_lua_cpu < <(measure "$name-lua" "$LUA" "$prog")
  read -r t_cm t_cm_cpu < <(measure "$name-codemode" "$CODEMODE" run "$prog")
  r=$(ratio "$t_lua" "$t_cm")
  rc=$(ratio "$t_lua_cpu" "$t_cm_cpu")
  RATIOS+=("$r")
  CPU_RATIOS+=("$rc")
  printf "$NUM" "$name" "$t_lua" "$t_cm" "$r" "$t_lua_cpu" "$t_cm_cpu" "$rc" "$expected"
done

if [ ${#RATIOS[@]} -gt 0 ]; then
  geo=$(geomean "${RATIOS[@]}")
  geo_cpu=$(geomean "${CPU_RATIOS[@]}")
  verdict=$(awk -v g="$geo" 'BEGIN { print (g <= 2.0 ? "meets" : "misses") }')
  echo
  echo "geometric mean codemode/lua5.4 (wall): ${geo}x over ${#RATIOS[@]} programs ($verdict the <= 2x target)"
  echo "geometric mean codemode/lua5.4 (cpu):  ${geo_cpu}x (user+system time; steadier on a shared machine)"
  echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
fi
if [ "$DIVAN" -eq 1 ]; then
  echo
  echo "== in-process (divan): cargo bench -p codemode-lua --bench vm; cargo bench -p codemode --bench host"
  cargo bench -q -p codemode-lua --bench vm 2>/dev/null
  cargo bench -q -p codemode --bench host 2>/dev/null
fi
if [ "$MISMATCH" -ne 0 ]; then
  echo "compare.sh: some programs gave different results under codemode (see MISMATCH rows)" >&2
  exit 1
fi
