# Shared by compare.sh (Lua) and compare-js.sh (JavaScript): timing and ratios. Source it after
# setting RUNS; it sets WORK (a temporary directory removed on exit) and HAVE_HYPERFINE.

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

HAVE_HYPERFINE=0
if [ -z "${NO_HYPERFINE:-}" ] && command -v hyperfine >/dev/null 2>&1; then
  HAVE_HYPERFINE=1
else
  echo "note: hyperfine not found; timing with a bash loop (apt-get install -y hyperfine for better stats)" >&2
fi

# measure NAME CMD...: "WALL_MS CPU_MS", the mean wall time and mean CPU time (user + system) of
# CMD in milliseconds over $RUNS runs (after one warmup run).
measure() {
  local name="$1"
  shift
  if [ "$HAVE_HYPERFINE" -eq 1 ]; then
    local json="$WORK/$name.json"
    # --shell=none: no shell start in the measurement; -i: codemode exits 1 on a failed result,
    # which the checksum check already reported.
    hyperfine --style none --shell=none -i --warmup 1 --runs "$RUNS" --export-json "$json" \
      -- "$(printf '%q ' "$@")" >/dev/null 2>&1
    jq -r '.results[0] | "\(.mean * 1000) \((.user + .system) * 1000)"' "$json"
  else
    "$@" >/dev/null 2>&1 || true
    local i
    : >"$WORK/$name.times"
    for ((i = 0; i < RUNS; i++)); do
      # bash's time keyword: real, user and system seconds of the command.
      { TIMEFORMAT='%R %U %S'; time "$@" >/dev/null 2>&1 || true; } 2>>"$WORK/$name.times"
    done
    awk '{ w += $1; c += $2 + $3; n++ } END { printf "%.3f %.3f\n", w / n * 1000, c / n * 1000 }' \
      "$WORK/$name.times"
  fi
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (a > 0 ? b / a : 0) }'; }
geomean() { printf '%s\n' "$@" | awk '$1 > 0 { s += log($1); n++ } END { printf "%.2f", (n ? exp(s / n) : 0) }'; }

# codemode_value CODEMODE PROGRAM: the value of `codemode run PROGRAM` (its JSON result), or
# "FAILED: <error>".
codemode_value() {
  local out
  out="$("$1" run "$2" || true)"
  if [ "$(jq -r '.ok' <<<"$out" 2>/dev/null)" != "true" ]; then
    echo "FAILED: $(jq -c '.error' <<<"$out" 2>/dev/null || echo "$out")"
    return
  fi
  jq -r '.value' <<<"$out"
}
