#!/usr/bin/env bash
# Run the benchmark programs in bench/js/ under `node --jitless` (V8's interpreter, no JIT) and
# under `codemode run`, check that both give the same checksum, and print a table (program,
# node ms, codemode ms, ratio) followed by the geometric mean of the ratios (issue 12: target
# ≤ 3×).
#
# Usage: bench/compare-js.sh [--runs N] [--no-build] [--divan] [PROGRAM.js ...]
#   --runs N     timed runs per program and interpreter (default 5, one warmup run besides)
#   --no-build   reuse the existing binary instead of running cargo build -p codemode-cli
#   --divan      afterwards also run the in-process divan bench (crates/codemode-js/benches/vm.rs)
#   PROGRAM.js   only these programs (default: every bench/js/*.js)
# Environment: CARGO_TARGET_DIR (default ./target), PROFILE (cargo profile of the CLI; default
#              dev: the workspace builds codemode-js at opt-level 2 there), NODE (default node),
#              NO_HYPERFINE=1 (time with a bash loop even when hyperfine is installed).
#
# Times are means over whole processes (process start included: the startup row shows what an
# empty program costs each, and is not in the mean): wall clock, and CPU time (user + system),
# which is steadier when other work shares the cores.
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
      [ $# -ge 2 ] || { echo "compare-js.sh: --runs needs a number" >&2; exit 2; }
      RUNS="$2"
      shift 2
      ;;
    --no-build) BUILD=0; shift ;;
    --divan) DIVAN=1; shift ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "compare-js.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) PROGRAMS+=("$1"); shift ;;
  esac
done
if ! [[ "$RUNS" =~ ^[1-9][0-9]*$ ]]; then
  echo "compare-js.sh: --runs must be a positive integer (got '$RUNS')" >&2
  exit 2
fi
if [ ${#PROGRAMS[@]} -eq 0 ]; then
  PROGRAMS=(bench/js/*.js)
fi

NODE="${NODE:-node}"
if ! command -v "$NODE" >/dev/null 2>&1; then
  echo "compare-js.sh: '$NODE' not found. Install Node.js 20 (Debian/Ubuntu: apt-get install -y nodejs)" \
    "or set NODE=/path/to/node." >&2
  exit 1
fi
for tool in jq awk; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "compare-js.sh: '$tool' not found (apt-get install -y $tool)." >&2
    exit 1
  fi
done

PROFILE="${PROFILE:-dev}"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
case "$PROFILE" in
  dev) CODEMODE="$TARGET_DIR/debug/codemode" ;;
  *) CODEMODE="$TARGET_DIR/$PROFILE/codemode" ;;
esac
if [ "$BUILD" -eq 1 ]; then
  echo "== cargo build --profile $PROFILE -p codemode-cli (target dir: $TARGET_DIR)" >&2
  cargo build --profile "$PROFILE" -p codemode-cli >&2
fi
if [ ! -x "$CODEMODE" ]; then
  echo "compare-js.sh: $CODEMODE does not exist; run without --no-build." >&2
  exit 1
fi

# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"

# Checksums: node prints the checksum (console.log); `codemode run` prints the JSON Result whose
# value is the checksum (the log line goes to its logs). A bench program is a CommonJS module
# to node, where a top-level `return` is allowed, as in codemode's program model.
node_value() { "$NODE" --jitless "$1" 2>/dev/null | tail -n 1; }

echo "== $RUNS runs per program and interpreter ($( [ "$HAVE_HYPERFINE" -eq 1 ] && echo hyperfine || echo bash loop)), $(nproc) cores, codemode: $CODEMODE" >&2

ROW='%-16s %10s %12s %7s %10s %12s %7s  %s\n'
NUM='%-16s %10.1f %12.1f %7.2f %10.1f %12.1f %7.2f  %s\n'
printf "$ROW" "program" "node ms" "codemode ms" "ratio" "node cpu" "codemode cpu" "cpu x" "checksum"
printf "$ROW" "----------------" "----------" "------------" "-------" "----------" "------------" "-------" "--------"

echo 'return 1;' >"$WORK/startup.js"
read -r s_node s_node_cpu < <(measure startup-node "$NODE" --jitless "$WORK/startup.js")
read -r s_cm s_cm_cpu < <(measure startup-codemode "$CODEMODE" run "$WORK/startup.js")
printf "$NUM" "(startup)" "$s_node" "$s_cm" "$(ratio "$s_node" "$s_cm")" \
  "$s_node_cpu" "$s_cm_cpu" "$(ratio "$s_node_cpu" "$s_cm_cpu")" "(not in the means)"

RATIOS=()
CPU_RATIOS=()
MISMATCH=0
for prog in "${PROGRAMS[@]}"; do
  if [ ! -f "$prog" ]; then
    echo "compare-js.sh: no such program: $prog" >&2
    exit 2
  fi
  name="$(basename "$prog" .js)"
  expected="$(node_value "$prog")"
  got="$(codemode_value "$CODEMODE" "$prog")"
  if [ "$expected" != "$got" ]; then
    printf "$ROW" "$name" "-" "-" "-" "-" "-" "-" "MISMATCH: node=$expected codemode=$got"
    MISMATCH=1
    continue
  fi
  read -r t_node t_node_cpu < <(measure "$name-node" "$NODE" --jitless "$prog")
  read -r t_cm t_cm_cpu < <(measure "$name-codemode" "$CODEMODE" run "$prog")
  r=$(ratio "$t_node" "$t_cm")
  rc=$(ratio "$t_node_cpu" "$t_cm_cpu")
  RATIOS+=("$r")
  CPU_RATIOS+=("$rc")
  printf "$NUM" "$name" "$t_node" "$t_cm" "$r" "$t_node_cpu" "$t_cm_cpu" "$rc" "$expected"
done

if [ ${#RATIOS[@]} -gt 0 ]; then
  geo=$(geomean "${RATIOS[@]}")
  geo_cpu=$(geomean "${CPU_RATIOS[@]}")
  verdict=$(awk -v g="$geo_cpu" 'BEGIN { print (g <= 3.0 ? "meets" : "misses") }')
  echo
  echo "geometric mean codemode/node --jitless (wall): ${geo}x over ${#RATIOS[@]} programs"
  echo "geometric mean codemode/node --jitless (cpu):  ${geo_cpu}x ($verdict the <= 3x target; user+system time, steadier on a shared machine)"
  echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
fi
if [ "$DIVAN" -eq 1 ]; then
  echo
  echo "== in-process (divan): cargo bench --profile $PROFILE -p codemode-js --bench vm"
  cargo bench -q --profile "$PROFILE" -p codemode-js --bench vm 2>/dev/null
fi
if [ "$MISMATCH" -ne 0 ]; then
  echo "compare-js.sh: some programs gave different results under codemode (see MISMATCH rows)" >&2
  exit 1
fi
