#!/usr/bin/env bash
# sweep_outputs.sh DIR RUNNER... : runs a 3-shape sweep (RUNNER is the gemm
# command with any options, e.g. a kernel list) and checks its outputs against
# each other and the request:
#   CSV: the header, one row per shape and kernel with the requested sizes;
#   SVG: tests/examples/sweep_svg_check.sh (well-formed, title naming the
#        timing kind, axis labels with units, legend, one bar per CSV row with
#        that row's TFLOP/s (measured/modeled) or ms (emulated)).
set -eu
dir=$1; shift
mkdir -p "$dir"
csv=$dir/sweep.csv svg=$dir/sweep.svg
rm -f "$csv" "$svg"
"$@" --sweep-shapes 64x64x64,96x32x160,17x5x33 --csv "$csv" --svg "$svg"
fail() { echo "sweep_outputs: $*"; exit 1; }
[ "$(head -1 "$csv")" = "m,n,k,batch,layout,out,kernel,ms,tflops,timing" ] || fail "bad CSV header"
rows=$(($(wc -l < "$csv") - 1))
kernels=$(tail -n +2 "$csv" | cut -d, -f7 | sort -u | wc -l)
[ "$rows" -eq $((3 * kernels)) ] || fail "CSV has $rows rows for 3 shapes x $kernels kernels"
grep -q '^96,32,160,1,nt,bf16,' "$csv" || fail "CSV misses the 96x32x160 row"
"$(dirname "$0")/../examples/sweep_svg_check.sh" "$csv" "$svg" 10 8 9 7 '$1 "x" $2 "x" $3'
