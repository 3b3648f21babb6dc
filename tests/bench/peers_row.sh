#!/usr/bin/env bash
# peers_row.sh CSV_PREFIX COMMAND...: runs bench/attn-vs-peers (COMMAND) and
# passes when its CSV has a row starting with CSV_PREFIX (peer,dir,variant,
# shape) whose two modeled TFLOP/s figures are positive and whose tk_over_peer
# is their quotient. Exit 77 from the driver (no fixture) is passed on for
# ctest's SKIP_RETURN_CODE.
set -u
prefix=$1
shift
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
[ $rc -eq 77 ] && exit 77
[ $rc -eq 0 ] || { echo "peers_row.sh: attn-vs-peers exited $rc"; exit 1; }
printf '%s\n' "$out" | grep -q '^peer,dir,variant,shape,peer_modeled_tflops,tk_modeled_tflops,tk_over_peer,' ||
  { echo "peers_row.sh: no CSV header"; exit 1; }
line=$(printf '%s\n' "$out" | grep -F -- "$prefix," | head -1)
[ -n "$line" ] || { echo "peers_row.sh: no CSV row starting $prefix"; exit 1; }
printf '%s\n' "$line" | awk -F, '{
  p = $5 + 0; t = $6 + 0; r = $7 + 0
  if (p <= 0 || t <= 0) { print "peers_row.sh: non-positive modeled TFLOP/s (" $5 ", " $6 ")"; exit 1 }
  d = r - t / p; if (d < 0) d = -d
  if (d > 1e-3 * (t / p) + 1e-4) { print "peers_row.sh: tk_over_peer " $7 " is not " t "/" p; exit 1 }
  print "peers_row.sh: ok (peer " p ", tk " t " TFLOP/s modeled)" }'
