#!/usr/bin/env python3
"""split_schedule_svg.py CSV SVG [TITLE]: draws the forward's launch schedule (tail
split or not) from modeled launch times as an SVG chart.

CSV columns: run (one chart row per run, in file order), phase (legend
entry), start_us, dur_us (modeled, from `tksim --report`'s "modeled time"
per launch), busy, slots (workgroup slots busy / all slots during the
segment).  Each segment is a bar from start to start + dur whose height is
busy / slots of the row: a last round that occupies 32 of 304 CUs is a thin
sliver, the idle CUs the white above it.  Used for docs/attention.md
("Tail split"); plain SVG 1.1 text like bench/validate-model's charts.
Exit: 0, 1 unreadable CSV, 2 usage."""
import csv
import sys
from xml.sax.saxutils import escape

COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#7f7f7f"]


def main(argv):
    if len(argv) not in (3, 4):
        print(__doc__.split("\n\n")[0], file=sys.stderr)
        return 2
    try:
        with open(argv[1], newline="") as f:
            rows = list(csv.DictReader(f))
        segs = [(r["run"], r["phase"], float(r["start_us"]), float(r["dur_us"]), int(r["busy"]), int(r["slots"]))
                for r in rows]
    except (OSError, KeyError, ValueError) as e:
        print("split_schedule_svg: %s: %s" % (argv[1], e), file=sys.stderr)
        return 1
    if not segs:
        print("split_schedule_svg: %s: no rows" % argv[1], file=sys.stderr)
        return 1
    runs, phases = [], []
    for s in segs:
        if s[0] not in runs:
            runs.append(s[0])
        if s[1] not in phases:
            phases.append(s[1])
    tmax = max(s[2] + s[3] for s in segs) / 1000.0
    W, L, R, T, B, RH = 960, 230, 20, 60, 120, 70
    H = T + RH * len(runs) + B
    pw = W - L - R
    x = lambda ms: L + pw * ms / tmax
    step = 0.5 if tmax > 2 else 0.1
    o = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">'
         % (W, H), '<rect width="100%" height="100%" fill="white"/>',
         '<text x="%d" y="24" text-anchor="middle" font-size="15">%s</text>'
         % (W // 2, escape(argv[3] if len(argv) == 4 else "Attention forward launch schedule, modeled (tksim)")),
         '<text x="%d" y="42" text-anchor="middle" font-size="11" fill="#444444">%s</text>'
         % (W // 2, "bar height = share of the workgroup slots busy; rounds of one launch drawn as equal shares of its time")]
    v = 0.0
    while v <= tmax + 1e-9:
        o.append('<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#dddddd"/>' % (x(v), x(v), T, T + RH * len(runs)))
        o.append('<text x="%.1f" y="%d" text-anchor="middle">%g</text>' % (x(v), T + RH * len(runs) + 16, round(v, 3)))
        v += step
    o.append('<text x="%.1f" y="%d" text-anchor="middle">modeled time (ms)</text>' % (L + pw / 2, T + RH * len(runs) + 36))
    for i, run in enumerate(runs):
        y0 = T + RH * i + 8
        h = RH - 16
        o.append('<text x="%d" y="%.1f" text-anchor="end" dominant-baseline="middle">%s</text>'
                 % (L - 8, y0 + h / 2, escape(run)))
        o.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#bbbbbb"/>' % (L, y0, pw, h))
        for s in segs:
            if s[0] != run:
                continue
            frac = s[4] / float(s[5])
            bh = max(h * frac, 1.0)
            o.append('<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="%s" stroke="white" stroke-width="0.5">'
                     '<title>%s: %.1f us, %d/%d busy</title></rect>'
                     % (x(s[2] / 1000.0), y0 + h - bh, max(x((s[2] + s[3]) / 1000.0) - x(s[2] / 1000.0), 0.5), bh,
                        COLORS[phases.index(s[1]) % len(COLORS)], escape(s[1]), s[3], s[4], s[5]))
        end = max(s[2] + s[3] for s in segs if s[0] == run)
        o.append('<text x="%.1f" y="%.1f" font-size="11" dominant-baseline="middle">%.3f ms</text>'
                 % (min(x(end / 1000.0) + 4, W - R - 50), y0 - 2, end / 1000.0))
    ly = T + RH * len(runs) + 56
    lx = L
    for i, ph in enumerate(phases):
        o.append('<rect x="%d" y="%d" width="12" height="12" fill="%s"/>' % (lx, ly, COLORS[i % len(COLORS)]))
        o.append('<text x="%d" y="%d">%s</text>' % (lx + 16, ly + 10, escape(ph)))
        lx += 28 + 7 * len(ph)
        if lx > W - 200 and i + 1 < len(phases):
            lx, ly = L, ly + 20
    o.append("</svg>")
    try:
        with open(argv[2], "w") as f:
            f.write("\n".join(o) + "\n")
    except OSError as e:
        print("split_schedule_svg: %s: %s" % (argv[2], e), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
