#!/usr/bin/env bash
# sweep_outputs.sh DIR RUNNER... : runs a 2-shape attention sweep (each shape
# non-causal and causal) and checks its outputs against each other and the
# request: the CSV header and one row per shape and mask with the requested
# sizes; the SVG well-formed (xmllint) with a title naming the CSV's timing
# kind, axis labels with units, a legend, and one bar per CSV row whose
# data-value is that row's TFLOP/s (measured/modeled) or ms (emulated).
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
xmllint --noout "$svg" || fail "SVG is not well-formed XML"
x() { xmllint --xpath "$1" "$svg"; }
timing=$(tail -n +2 "$csv" | cut -d, -f12 | sort -u)
[ "$(wc -l <<< "$timing")" -eq 1 ] || fail "mixed timing kinds in the CSV: $timing"
title=$(x 'string(/*[local-name()="svg"]/*[local-name()="title"])')
grep -q "$timing" <<< "$title" || fail "SVG title '$title' does not say '$timing'"
texts=$(x '//*[local-name()="text"]/text()')
grep -qx 'problem shape' <<< "$texts" || fail "no x axis label"
if [ "$timing" = emulated ]; then ylabel='ms per iteration' col=10; else ylabel='TFLOP/s' col=11; fi
grep -qx "$ylabel" <<< "$texts" || fail "no y axis label '$ylabel'"
[ "$(x 'count(//*[local-name()="g"][@class="legend"])')" = 1 ] || fail "no legend"
bars=$(x 'count(//*[local-name()="rect"][@class="bar"])')
[ "$bars" -eq "$rows" ] || fail "$bars bars for $rows CSV rows"
tail -n +2 "$csv" | while IFS=, read -r b h _ s _ d _ _ kern ms tf _; do
  want=$([ "$col" -eq 10 ] && echo "$ms" || echo "$tf")
  got=$(x "string(//*[local-name()=\"rect\"][@class=\"bar\"][@data-group=\"b$b h$h s$s d$d\"][@data-series=\"$kern\"]/@data-value)")
  [ -n "$got" ] || fail "no bar for b$b h$h s$s d$d $kern"
  awk -v a="$got" -v b="$want" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-6 + 1e-5 * (b < 0 ? -b : b)) }' ||
    fail "bar b$b h$h s$s d$d $kern is $got, CSV says $want"
done
echo "sweep_outputs: ok ($rows rows, $timing)"
