#!/usr/bin/env bash
# sweep_svg_check.sh CSV SVG TIMING_COL MS_COL TFLOPS_COL SERIES_COL GROUP_AWK:
# the checks every example program's sweep outputs share (tests/gemm and
# tests/attention sweep_outputs.sh check their own CSV columns first): the SVG
# is well-formed XML (xmllint), its title names the CSV's one timing kind,
# both axis labels are there with units (ms for emulated, TFLOP/s else), a
# legend, and one bar per CSV row whose data-value is that row's ms (emulated)
# or TFLOP/s. GROUP_AWK: an awk expression over the CSV fields ($1...) giving
# the row's chart group (the bar's data-group), e.g. $1 "x" $2 "x" $3.
set -eu
csv=$1 svg=$2 tcol=$3 mscol=$4 tfcol=$5 scol=$6 group=$7
fail() { echo "sweep_outputs: $*"; exit 1; }
rows=$(($(wc -l < "$csv") - 1))
xmllint --noout "$svg" || fail "SVG is not well-formed XML"
x() { xmllint --xpath "$1" "$svg"; }
timing=$(tail -n +2 "$csv" | cut -d, -f"$tcol" | sort -u)
[ "$(wc -l <<< "$timing")" -eq 1 ] || fail "mixed timing kinds in the CSV: $timing"
title=$(x 'string(/*[local-name()="svg"]/*[local-name()="title"])')
grep -q "$timing" <<< "$title" || fail "SVG title '$title' does not say '$timing'"
texts=$(x '//*[local-name()="text"]/text()')
grep -qx 'problem shape' <<< "$texts" || fail "no x axis label"
if [ "$timing" = emulated ]; then ylabel='ms per iteration' col=$mscol; else ylabel='TFLOP/s' col=$tfcol; fi
grep -qx "$ylabel" <<< "$texts" || fail "no y axis label '$ylabel'"
[ "$(x 'count(//*[local-name()="g"][@class="legend"])')" = 1 ] || fail "no legend"
bars=$(x 'count(//*[local-name()="rect"][@class="bar"])')
[ "$bars" -eq "$rows" ] || fail "$bars bars for $rows CSV rows"
tail -n +2 "$csv" | awk -F, -v c="$col" -v s="$scol" "{ print $group \"|\" \$s \"|\" \$c }" |
  while IFS='|' read -r g kern want; do
    got=$(x "string(//*[local-name()=\"rect\"][@class=\"bar\"][@data-group=\"$g\"][@data-series=\"$kern\"]/@data-value)")
    [ -n "$got" ] || fail "no bar for $g $kern"
    # the CSV keeps 6 decimals (ms) or 6 digits (TFLOP/s), the chart 9 digits
    awk -v a="$got" -v b="$want" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-6 + 1e-5 * (b < 0 ? -b : b)) }' ||
      fail "bar $g $kern is $got, CSV says $want"
    echo "bar $g $kern: $got (CSV $want)"
  done
echo "sweep outputs ok ($rows bars, $timing)"
