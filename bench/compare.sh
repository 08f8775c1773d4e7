#!/usr/bin/env bash
# Run the benchmark programs of one guest language under its reference interpreter and under
# `codemode run`, check that both give the same checksum, and print a table (program, reference
# ms, codemode ms, ratio) followed by the geometric mean of the ratios.
#   --lang lua (default): bench/lua/ against lua5.4; target ≤ 2× (wall), issue 2 §4.
#   --lang js:  bench/js/ against `node --jitless` (V8's interpreter, no JIT); target ≤ 3× (cpu),
#               issue 12. `bench/compare-js.sh` is `compare.sh --lang js`.
#
# Usage: bench/compare.sh [--lang lua|js] [--runs N] [--no-build] [--divan] [PROGRAM ...]
#   --runs N     timed runs per program and interpreter (default 5, one warmup run besides)
#   --no-build   reuse the existing binary instead of running cargo build
#   --divan      afterwards also run the in-process divan benches of the language
#   PROGRAM      only these programs (default: every program of the language's directory)
# Environment: CARGO_TARGET_DIR (default ./target), PROFILE (cargo profile of the CLI; default
#              release for lua, dev for js: the workspace builds codemode-js at opt-level 2
#              there), LUA (default lua5.4), NODE (default node),
#              NO_HYPERFINE=1 (time with a bash loop even when hyperfine is installed).
#
# Times are means over whole processes (process start included: the startup row shows what an
# empty program costs each, and is not in the mean): wall clock, and CPU time (user + system),
# which is steadier when other work shares the cores.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

LANG_=lua
RUNS=5
BUILD=1
DIVAN=0
PROGRAMS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --lang)
      [ $# -ge 2 ] || { echo "compare.sh: --lang needs lua or js" >&2; exit 2; }
      LANG_="$2"
      shift 2
      ;;
    --runs)
      [ $# -ge 2 ] || { echo "compare.sh: --runs needs a number" >&2; exit 2; }
      RUNS="$2"
      shift 2
      ;;
    --no-build) BUILD=0; shift ;;
    --divan) DIVAN=1; shift ;;
    -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "compare.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) PROGRAMS+=("$1"); shift ;;
  esac
done
if ! [[ "$RUNS" =~ ^[1-9][0-9]*$ ]]; then
  echo "compare.sh: --runs must be a positive integer (got '$RUNS')" >&2
  exit 2
fi

# What differs between the languages: the reference interpreter and its flags, the programs,
# the default profile, which mean the target applies to, and the in-process benches.
case "$LANG_" in
  lua)
    REF="${LUA:-lua5.4}"; REF_ARGS=(); REF_NAME="lua5.4"; EXT=lua
    INSTALL="Install Lua 5.4 (Debian/Ubuntu: apt-get install -y lua5.4) or set LUA=/path/to/lua5.4."
    PROFILE="${PROFILE:-release}"; TARGET=2.0; TARGET_ON=wall; STARTUP='return 1'
    DIVAN_BENCHES=("codemode-lua vm" "codemode host"); DIVAN_PROFILE=()
    ;;
  js)
    REF="${NODE:-node}"; REF_ARGS=(--jitless); REF_NAME="node --jitless"; EXT=js
    INSTALL="Install Node.js 20 (Debian/Ubuntu: apt-get install -y nodejs) or set NODE=/path/to/node."
    PROFILE="${PROFILE:-dev}"; TARGET=3.0; TARGET_ON=cpu; STARTUP='return 1;'
    DIVAN_BENCHES=("codemode-js vm"); DIVAN_PROFILE=(--profile "$PROFILE")
    ;;
  *) echo "compare.sh: --lang must be lua or js (got '$LANG_')" >&2; exit 2 ;;
esac
SHORT="${REF_NAME%% *}"
if [ ${#PROGRAMS[@]} -eq 0 ]; then
  PROGRAMS=(bench/"$LANG_"/*."$EXT")
fi

if ! command -v "$REF" >/dev/null 2>&1; then
  echo "compare.sh: '$REF' not found. $INSTALL" >&2
  exit 1
fi
for tool in jq awk; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "compare.sh: '$tool' not found (apt-get install -y $tool)." >&2
    exit 1
  fi
done

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
  echo "compare.sh: $CODEMODE does not exist; run without --no-build." >&2
  exit 1
fi

# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"

# Checksums: the reference prints the checksum; `codemode run` prints the JSON Result whose
# value is the checksum (the print or console.log goes to its logs). A JS bench program is a
# CommonJS module to node, where a top-level `return` is allowed, as in codemode's program model.
ref_value() { "$REF" "${REF_ARGS[@]}" "$1" 2>/dev/null | tail -n 1; }

echo "== $RUNS runs per program and interpreter ($( [ "$HAVE_HYPERFINE" -eq 1 ] && echo hyperfine || echo bash loop)), $(nproc) cores, codemode: $CODEMODE" >&2

ROW='%-16s %10s %12s %7s %10s %12s %7s  %s\n'
NUM='%-16s %10.1f %12.1f %7.2f %10.1f %12.1f %7.2f  %s\n'
printf "$ROW" "program" "$SHORT ms" "codemode ms" "ratio" "$SHORT cpu" "codemode cpu" "cpu x" "checksum"
printf "$ROW" "----------------" "----------" "------------" "-------" "----------" "------------" "-------" "--------"

# Startup: an empty program, to show how much of each time is process start (not in the mean).
echo "$STARTUP" >"$WORK/startup.$EXT"
read -r s_ref s_ref_cpu < <(measure "startup-$SHORT" "$REF" "${REF_ARGS[@]}" "$WORK/startup.$EXT")
read -r s_cm s_cm_cpu < <(measure startup-codemode "$CODEMODE" run "$WORK/startup.$EXT")
printf "$NUM" "(startup)" "$s_ref" "$s_cm" "$(ratio "$s_ref" "$s_cm")" \
  "$s_ref_cpu" "$s_cm_cpu" "$(ratio "$s_ref_cpu" "$s_cm_cpu")" "(not in the means)"

RATIOS=()
CPU_RATIOS=()
MISMATCH=0
for prog in "${PROGRAMS[@]}"; do
  if [ ! -f "$prog" ]; then
    echo "compare.sh: no such program: $prog" >&2
    exit 2
  fi
  name="$(basename "$prog" ."$EXT")"
  expected="$(ref_value "$prog")"
  got="$(codemode_value "$CODEMODE" "$prog")"
  if [ "$expected" != "$got" ]; then
    printf "$ROW" "$name" "-" "-" "-" "-" "-" "-" "MISMATCH: $SHORT=$expected codemode=$got"
    MISMATCH=1
    continue
  fi
  read -r t_ref t_ref_cpu < <(measure "$name-$SHORT" "$REF" "${REF_ARGS[@]}" "$prog")
  read -r t_cm t_cm_cpu < <(measure "$name-codemode" "$CODEMODE" run "$prog")
  r=$(ratio "$t_ref" "$t_cm")
  rc=$(ratio "$t_ref_cpu" "$t_cm_cpu")
  RATIOS+=("$r")
  CPU_RATIOS+=("$rc")
  printf "$NUM" "$name" "$t_ref" "$t_cm" "$r" "$t_ref_cpu" "$t_cm_cpu" "$rc" "$expected"
done

if [ ${#RATIOS[@]} -gt 0 ]; then
  geo=$(geomean "${RATIOS[@]}")
  geo_cpu=$(geomean "${CPU_RATIOS[@]}")
  judged=$([ "$TARGET_ON" = cpu ] && echo "$geo_cpu" || echo "$geo")
  verdict=$(awk -v g="$judged" -v t="$TARGET" 'BEGIN { print (g <= t ? "meets" : "misses") }')
  note_wall=$([ "$TARGET_ON" = wall ] && echo " ($verdict the <= ${TARGET%.0}x target)" || true)
  note_cpu=$([ "$TARGET_ON" = cpu ] && echo " ($verdict the <= ${TARGET%.0}x target)" || true)
  echo
  echo "geometric mean codemode/$REF_NAME (wall): ${geo}x over ${#RATIOS[@]} programs$note_wall"
  echo "geometric mean codemode/$REF_NAME (cpu):  ${geo_cpu}x$note_cpu (user+system time; steadier on a shared machine)"
  echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
fi
if [ "$DIVAN" -eq 1 ]; then
  echo
  for b in "${DIVAN_BENCHES[@]}"; do
    read -r crate bench <<<"$b"
    echo "== in-process (divan): cargo bench ${DIVAN_PROFILE[*]} -p $crate --bench $bench"
    cargo bench -q "${DIVAN_PROFILE[@]}" -p "$crate" --bench "$bench" 2>/dev/null
  done
fi
if [ "$MISMATCH" -ne 0 ]; then
  echo "compare.sh: some programs gave different results under codemode (see MISMATCH rows)" >&2
  exit 1
fi
