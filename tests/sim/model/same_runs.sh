#!/usr/bin/env bash
# same_runs.sh [N] COMMAND...: runs COMMAND (a program under tksim --model)
# N times (default 3) and passes when every run succeeds and prints the same
# lines mentioning "modeled" (modeled times, TFLOP/s, --report's modeled L2
# hit rate and HBM traffic): modeled figures must depend neither on where the
# host put the buffers (ASLR: every run differs) nor on how the emulation
# threads interleave (run it with --threads=2).
set -u
n=3
case ${1:-} in '' | *[!0-9]*) ;; *) n=$1; shift ;; esac
[ $# -gt 0 ] || { echo "usage: same_runs.sh [N] COMMAND..."; exit 2; }
prev=
for i in $(seq 1 "$n"); do
  out=$("$@" 2>&1) || { printf '%s\n' "$out"; echo "same_runs.sh: run $i failed"; exit 1; }
  figs=$(printf '%s\n' "$out" | grep -E "modeled")
  [ -n "$figs" ] || { printf '%s\n' "$out"; echo "same_runs.sh: run $i printed no modeled figures"; exit 1; }
  printf 'run %d:\n%s\n' "$i" "$figs"
  if [ -n "$prev" ] && [ "$figs" != "$prev" ]; then echo "same_runs.sh: run $i differs from run $((i - 1))"; exit 1; fi
  prev=$figs
done
echo "same_runs.sh: ok ($n runs, identical modeled figures)"
