#!/usr/bin/env bash
# same_runs.sh N COMMAND...: runs COMMAND (a program under tksim --model) N
# times and passes when every run succeeds and prints the same "modeled"
# time lines: modeled figures must not depend on how the emulation threads
# interleave (--threads=2).
set -u
n=$1; shift
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
