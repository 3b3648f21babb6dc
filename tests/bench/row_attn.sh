#!/usr/bin/env bash
# row_attn.sh ROW_PREFIX COMMAND...: runs bench/validate-model for a kernel
# family other than gemm (COMMAND) and passes when its markdown table has a
# row starting "| ROW_PREFIX |" (kernel | variant | N, a regular expression)
# with a positive modeled figure, and the CSV has the row too. Exit 77 from
# the driver (no checkout) is passed on for ctest's SKIP_RETURN_CODE.
set -u
prefix=$1
shift
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
[ $rc -eq 77 ] && exit 77
[ $rc -eq 0 ] || { echo "row_attn.sh: validate-model exited $rc"; exit 1; }
num='[0-9]+(\.[0-9]+)?(e[+-]?[0-9]+)?'
re="^\| $prefix \| ($num|-) \| $num \| ($num|-) \|"
line=$(printf '%s\n' "$out" | grep -E -- "$re" | head -1)
[ -n "$line" ] || { echo "row_attn.sh: no table row /$prefix/ with a modeled figure"; exit 1; }
hk=$(printf '%s\n' "$line" | awk -F'|' '{ gsub(/ /, "", $6); print $6 }')
awk -v a="$hk" 'BEGIN { exit !(a > 0) }' || { echo "row_attn.sh: non-positive modeled TFLOP/s ($hk)"; exit 1; }
printf '%s\n' "$out" | grep -Eq -- "^[0-9]+,($num)?,$num," || { echo "row_attn.sh: no CSV row"; exit 1; }
echo "row_attn.sh: ok (modeled $hk TFLOP/s)"
