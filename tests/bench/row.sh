#!/usr/bin/env bash
# row.sh SIZE COMMAND...: runs bench/validate-model (COMMAND) and passes when
# its markdown table has the SIZE row with a number in every figure column
# (published may be "-" where the checkout publishes none; the tk kernel
# column names an 8wave configuration such as 8wave-128x128k128) and the CSV row
# agrees. Exit 77 from the driver (no HipKittens checkout) is passed on for
# ctest's SKIP_RETURN_CODE.
set -u
size=$1
shift
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
[ $rc -eq 77 ] && exit 77
[ $rc -eq 0 ] || { echo "row.sh: validate-model exited $rc"; exit 1; }
num='[0-9]+(\.[0-9]+)?'
re="^\| $size \| ($num|-) \| $num \| ($num|-) \| $num \| $num \| [a-z0-9-]+ \| $num \+ $num \|$"
if ! printf '%s\n' "$out" | grep -Eq -- "$re"; then echo "row.sh: no table row for $size with numeric figures"; exit 1; fi
if ! printf '%s\n' "$out" | grep -Eq -- "^$size,($num)?,$num,($num)?,$num,$num,"; then echo "row.sh: no CSV row for $size"; exit 1; fi
# Modeled figures must be positive: a zero TFLOP/s would mean no time was modeled.
hk=$(printf '%s\n' "$out" | grep -E "^$size," | cut -d, -f3)
tk=$(printf '%s\n' "$out" | grep -E "^$size," | cut -d, -f5)
awk -v a="$hk" -v b="$tk" 'BEGIN { exit !(a > 0 && b > 0) }' || { echo "row.sh: non-positive modeled TFLOP/s ($hk, $tk)"; exit 1; }
echo "row.sh: ok (row $size: HipKittens $hk, tk $tk TFLOP/s modeled)"
