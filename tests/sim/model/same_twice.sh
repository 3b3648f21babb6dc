#!/usr/bin/env bash
# same_twice.sh COMMAND...: runs COMMAND (a program under tksim --model
# --report) three times and passes when every run succeeds and prints the same
# "modeled time" and "modeled L2 hit rate" lines: the modeled figures must
# not depend on where the host put the buffers (ASLR).
set -u
prev=
for i in 1 2 3; do
  out=$("$@" 2>&1) || { printf '%s\n' "$out"; echo "same_twice.sh: run $i failed"; exit 1; }
  figs=$(printf '%s\n' "$out" | grep -E "modeled time|modeled L2 hit rate")
  [ -n "$figs" ] || { printf '%s\n' "$out"; echo "same_twice.sh: run $i printed no modeled figures"; exit 1; }
  printf 'run %d:\n%s\n' "$i" "$figs"
  if [ -n "$prev" ] && [ "$figs" != "$prev" ]; then echo "same_twice.sh: run $i differs from run $((i - 1))"; exit 1; fi
  prev=$figs
done
echo "same_twice.sh: ok (three runs, identical modeled figures)"
