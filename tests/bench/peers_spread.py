#!/usr/bin/env python3
"""bench/attn-vs-peers --model-spread: the tksim command lines it builds
(--dry-run: nothing built or emulated). usage: peers_spread.py PYTHON
ATTN_VS_PEERS BUILD HIPKITTENS_CDNA4_DIR.

For GQA d128 causal and MHA d128 non-causal, forward and backward, N 1024
and 8192, --model-sample 4 --model-spread: the peer's causal rows carry
--model-spread=G with G the period of HipKittens' grid in dispatch order,
worked out here from the grids docs/tksim-model.md gives (forward (H, N/256,
B): H·N/256; backward HNB (H_KV, N/256, B): H_KV·N/256; HBN (H_KV, B, N/256):
no period, bare --model-spread) and the grid order the fixture's
mi355x_benchmark.sh builds; non-causal rows and every tk command carry
none; otherwise the two sides' tksim flags are the same and tk's shape is
the row's. Exit 0 all agree, 1 not, 77 no fixture."""
import os
import re
import shlex
import subprocess
import sys


def main():
    if len(sys.argv) != 5:
        print("usage: peers_spread.py PYTHON ATTN_VS_PEERS BUILD HIPKITTENS_CDNA4_DIR", file=sys.stderr)
        return 2
    py, peers, build, fx = sys.argv[1:]
    script = os.path.join(fx, "kernels", "attn", "bkwd", "mi355x_benchmark.sh")
    if not fx or not os.path.isfile(script):
        print("skipped: no HipKittens CDNA4 checkout with kernels/attn/bkwd/mi355x_benchmark.sh")
        return 77
    orders = {}
    for ln in open(script):
        m = re.match(r"make SRC=attn_bkwd_(non_causal|causal)_(HBN|HNB)\.cpp .*ATTN_H=(\d+) ATTN_H_KV=(\d+) "
                     r"ATTN_N=(\d+)", ln.strip())
        if m:
            kind = "mha" if m.group(3) == m.group(4) else "gqa"
            orders[(kind, m.group(1) == "causal", int(m.group(5)))] = m.group(2)
    cmd = [py, peers, "--peer", "hipkittens", "--dir", "fwd,bwd", "--variants", "gqa_d128_causal,mha_d128_noncausal",
           "--sizes", "1024,8192", "--model-sample", "4", "--model-spread", "--dry-run", "--no-build", "--build",
           build, "--peer-path", fx]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print(p.stdout, end="")
    if p.returncode:
        print("FAILED: exit %d: %s" % (p.returncode, " ".join(cmd)))
        return 1
    rows = {}
    for ln in p.stdout.splitlines():
        m = re.match(r"row (fwd|bwd) (\S+) (\d+) (peer|tk): (.*)$", ln)
        if m:
            rows.setdefault((m.group(1), m.group(2), int(m.group(3))), {})[m.group(4)] = shlex.split(m.group(5))
    bad = []
    want_rows = [(d, v, n) for d in ("fwd", "bwd") for v in ("gqa_d128_causal", "mha_d128_noncausal")
                 for n in (1024, 8192)]
    if sorted(rows) != sorted(want_rows):
        bad.append("rows %s, expected %s" % (sorted(rows), sorted(want_rows)))
    for (d, v, n), c in sorted(rows.items()):
        kind, causal = v.split("_")[0], v.endswith("_causal")
        h, hkv = (64, 8) if kind == "gqa" else (16, 16)
        if not causal:
            want = None
        elif d == "fwd":
            want = "--model-spread=%d" % (h * n // 256)
        else:
            order = orders.get((kind, True, n))
            want = None if order is None else "--model-spread" if order == "HBN" else "--model-spread=%d" % (hkv * n // 256)
            if order is None:
                bad.append("%s %s %d: the fixture's script has no build line for it" % (d, v, n))
                continue
        peer, tk = c.get("peer", []), c.get("tk", [])
        got = [w for w in peer if w.startswith("--model-spread")]
        if got != ([want] if want else []):
            bad.append("%s %s %d: peer spread %s, expected %s" % (d, v, n, got, want or "none"))
        if any(w.startswith("--model-spread") for w in tk):
            bad.append("%s %s %d: tk's command is spread: %s" % (d, v, n, " ".join(tk)))
        flags = lambda ws: [w for w in ws[1:] if w.startswith("--") and not w.startswith("--model-spread")]
        pi = next((i for i, w in enumerate(peer) if "hk4_attn_%s_%s_%d" % (d, v, n) in w), None)
        ti = next((i for i, w in enumerate(tk) if os.path.basename(w) == "attn"), None)
        if pi is None or ti is None:
            bad.append("%s %s %d: no HipKittens program or tk attn in the commands" % (d, v, n))
            continue
        if flags(peer[:pi]) != flags(tk[:ti]) or "--model-sample=4" not in tk[:ti]:
            bad.append("%s %s %d: tksim flags differ: peer %s, tk %s" % (d, v, n, peer[:pi], tk[:ti]))
        targs = tk[ti + 1:]
        b = 15 if n == 16384 and kind == "gqa" else 16
        shape = ["--b", str(b), "--hq", str(h), "--hkv", str(hkv), "--sq", str(n), "--d", "128", "--dir", d]
        if " ".join(targs[:len(shape)]) != " ".join(shape) or ("--causal" in targs) != causal:
            bad.append("%s %s %d: tk runs %s" % (d, v, n, " ".join(targs)))
    for b in bad:
        print("MISMATCH " + b)
    print("%d rows checked, %d mismatches" % (len(rows), len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
