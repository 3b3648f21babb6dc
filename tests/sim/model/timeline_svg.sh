#!/usr/bin/env bash
# timeline_svg.sh TOOL FIXTURE DIR: renders the hand-written trace FIXTURE
# (two tracks of dispatch 1, three spans from 1 to 10 us; one span of
# dispatch 2) and checks the chart against it: well-formed SVG, "modeled" and
# the kernel in the title, the time axis label in us, rows named and ordered
# by the trace's sort index, one rectangle per span at its place on the time
# axis, a legend of exactly the categories drawn; then the refusals.
set -eu
tool=$1 fixture=$2 dir=$3
mkdir -p "$dir"
svg=$dir/small.svg
fail() { echo "timeline_svg: $*"; exit 1; }
"$tool" "$fixture" "$svg"
xmllint --noout "$svg" || fail "not well-formed"
x() { xmllint --xpath "$1" "$svg"; }
title=$(x 'string(/*[local-name()="svg"]/*[local-name()="title"])')
grep -q "modeled" <<< "$title" && grep -q "kernel (mi325x)" <<< "$title" || fail "title: $title"
texts=$(x '//*[local-name()="text"]/text()')
grep -q "time.*(µs)" <<< "$texts" || fail "no time axis label in µs"
rows=$(grep -n -e '^wave 0 (SIMD 0)$' -e '^SIMD 0 MFMA pipe$' <<< "$texts" | cut -d: -f2 | tr '\n' '|')
[ "$rows" = "wave 0 (SIMD 0)|SIMD 0 MFMA pipe|" ] || fail "rows named/ordered wrong: $rows"
# the window is the spans' extent, 1..10 us, over the plot area: a span's
# left edge is at left + (ts - 1) / 9 * width
for c in VALU wait MFMA; do
  [ "$(x "count(//*[local-name()=\"rect\"][@class=\"$c\"])")" = 1 ] || fail "not one $c rectangle"
done
read -r x0 w0 <<< "$(x 'concat(//*[local-name()="rect"][@class="VALU"]/@x, " ", //*[local-name()="rect"][@class="VALU"]/@width)')"
read -r x2 w2 <<< "$(x 'concat(//*[local-name()="rect"][@class="MFMA"]/@x, " ", //*[local-name()="rect"][@class="MFMA"]/@width)')"
# VALU: 1..2 us, MFMA: 4..10 us: the MFMA is 6 times as wide and starts 3 VALU widths after the VALU
awk -v a="$x0" -v b="$w0" -v c="$x2" -v d="$w2" 'BEGIN { e = b / 10; if (e < 0.2) e = 0.2;
  exit !((d - 6 * b) ^ 2 < (6 * e) ^ 2 && (c - a - 3 * b) ^ 2 < (3 * e) ^ 2) }' ||
  fail "span geometry: VALU x=$x0 w=$w0, MFMA x=$x2 w=$w2"
legend=$(x '//*[local-name()="g"][@class="legend"]/*[local-name()="text"]/text()' | sort | tr '\n' ' ')
[ "$legend" = "MFMA VALU wait " ] || fail "legend: $legend"
# dispatch 2 alone, and a window
"$tool" "$fixture" "$dir/d2.svg" 2 | grep -q "1 spans" || fail "dispatch 2"
"$tool" "$fixture" "$dir/w.svg" 1 3.5 5 | grep -q "2 spans" || fail "window 3.5..5 should hold the wait and MFMA spans"
# refusals: exit 1 or 2 with a message, no crash
expect() { want=$1; shift; set +e; out=$("$@" 2>&1); rc=$?; set -e
  [ "$rc" = "$want" ] && grep -q "tksim-timeline-svg: " <<< "$out" || fail "'$*' gave $rc: $out"; }
expect 1 "$tool" "$dir/missing.json" "$dir/o.svg"
printf '{"traceEvents":[{"ph":"X"' > "$dir/cut.json"
expect 1 "$tool" "$dir/cut.json" "$dir/o.svg"
expect 1 "$tool" "$fixture" "$dir/o.svg" 7
expect 1 "$tool" "$fixture" "$dir/nodir/o.svg"
expect 2 "$tool" "$fixture" "$dir/o.svg" 1 5 2
expect 2 "$tool" "$fixture" "$dir/o.svg" x
expect 2 "$tool" "$fixture"
echo "timeline_svg: ok"
