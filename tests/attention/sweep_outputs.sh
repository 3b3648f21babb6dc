#!/usr/bin/env bash
# sweep_outputs.sh DIR RUNNER... : runs a 2-shape attention sweep (each shape
# non-causal and causal) and checks its outputs against each other and the
# request: the CSV header and one row per shape and mask with the requested
# sizes; the SVG with tests/examples/sweep_svg_check.sh (well-formed, title
# naming the timing kind, axis labels with units, legend, one bar per CSV row
# with that row's TFLOP/s (measured/modeled) or ms (emulated)).
set -eu
dir=$1; shift
mkdir -p "$dir"
csv=$dir/sweep.csv svg=$dir/sweep.svg
rm -f "$csv" "$svg"
"$@" --sweep-shapes 1x2x128x64,2x1x100x128 --csv "$csv" --svg "$svg"
fail() { echo "sweep_outputs: $*"; exit 1; }
[ "$(head -1 "$csv")" = "b,hq,hkv,sq,skv,d,causal,dir,kernel,ms,tflops,timing" ] || fail "bad CSV header: $(head -1 "$csv")"
rows=$(($(wc -l < "$csv") - 1))
[ "$rows" -eq 4 ] || fail "CSV has $rows rows for 2 shapes x 2 masks"
grep -q '^2,1,1,100,100,128,1,fwd,causal,' "$csv" || fail "CSV misses the causal b2 h1 s100 d128 row"
grep -q '^1,2,2,128,128,64,0,fwd,non-causal,' "$csv" || fail "CSV misses the non-causal b1 h2 s128 d64 row"
"$(dirname "$0")/../examples/sweep_svg_check.sh" "$csv" "$svg" 12 10 11 9 '"b" $1 " h" $2 " s" $4 " d" $6'
