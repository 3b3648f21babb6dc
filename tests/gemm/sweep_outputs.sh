#!/usr/bin/env bash
# sweep_outputs.sh DIR RUNNER... : runs a 3-shape sweep (RUNNER is the gemm
# command with any options, e.g. a kernel list) and checks its outputs against
# each other and the request:
#   CSV: the header, one row per shape and kernel with the requested sizes;
#   SVG: well-formed XML (xmllint), a title naming the CSV's timing kind,
#        both axis labels with units, a legend, and one bar per CSV row whose
#        data-value is that row's TFLOP/s (measured/modeled) or ms (emulated).
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

xmllint --noout "$svg" || fail "SVG is not well-formed XML"
x() { xmllint --xpath "$1" "$svg"; }
timing=$(tail -n +2 "$csv" | cut -d, -f10 | sort -u)
[ "$(wc -l <<< "$timing")" -eq 1 ] || fail "mixed timing kinds in the CSV: $timing"
title=$(x 'string(/*[local-name()="svg"]/*[local-name()="title"])')
grep -q "$timing" <<< "$title" || fail "SVG title '$title' does not say '$timing'"
texts=$(x '//*[local-name()="text"]/text()')
grep -qx 'problem shape' <<< "$texts" || fail "no x axis label"
if [ "$timing" = emulated ]; then ylabel='ms per iteration' col=8; else ylabel='TFLOP/s' col=9; fi
grep -qx "$ylabel" <<< "$texts" || fail "no y axis label '$ylabel'"
[ "$(x 'count(//*[local-name()="g"][@class="legend"])')" = 1 ] || fail "no legend"
bars=$(x 'count(//*[local-name()="rect"][@class="bar"])')
[ "$bars" -eq "$rows" ] || fail "$bars bars for $rows CSV rows"
tail -n +2 "$csv" | while IFS=, read -r m n k _ _ _ kern ms tf _; do
  want=$(cut -d, -f$((col - 7)) <<< "$ms,$tf")
  got=$(x "string(//*[local-name()=\"rect\"][@class=\"bar\"][@data-group=\"${m}x${n}x${k}\"][@data-series=\"$kern\"]/@data-value)")
  [ -n "$got" ] || fail "no bar for ${m}x${n}x${k} $kern"
  # the CSV keeps 6 decimals (ms) or 6 digits (TFLOP/s), the chart 9 digits
  awk -v a="$got" -v b="$want" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-6 + 1e-5 * (b < 0 ? -b : b)) }' ||
    fail "bar ${m}x${n}x${k} $kern is $got, CSV says $want"
  echo "bar ${m}x${n}x${k} $kern: $got (CSV $want)"
done
echo "sweep outputs ok ($rows bars, $timing)"
