#!/usr/bin/env python3
"""bench/validate-model's bwd_order(variant, N) against the fixture's own
benchmark script: every (uncommented) line of kernels/attn/bkwd/
mi355x_benchmark.sh that builds a dQ/dK/dV kernel names the grid order
(HBN/HNB) HipKittens' published figure was measured with; the driver (and
bench/hipkittens/cdna4_kernels.cmake, which follows the same rule) must pick
the same one. Exit 0 all agree, 1 a mismatch (named), 2 bad usage,
77 no fixture (skipped)."""
import importlib.machinery
import importlib.util
import os
import re
import sys


def main():
    if len(sys.argv) != 3:
        print("usage: bwd_order.py VALIDATE_MODEL HIPKITTENS_CDNA4_DIR", file=sys.stderr)
        return 2
    drv, fx = sys.argv[1], sys.argv[2]
    script = os.path.join(fx, "kernels", "attn", "bkwd", "mi355x_benchmark.sh")
    if not fx or not os.path.isfile(script):
        print("skipped: no HipKittens CDNA4 checkout with %s" % "kernels/attn/bkwd/mi355x_benchmark.sh")
        return 77
    loader = importlib.machinery.SourceFileLoader("validate_model", drv)
    spec = importlib.util.spec_from_loader("validate_model", loader)
    vm = importlib.util.module_from_spec(spec)
    loader.exec_module(vm)
    line_re = re.compile(r"^make SRC=attn_bkwd_(non_causal|causal)_(HBN|HNB)\.cpp .*ATTN_H=(\d+) ATTN_H_KV=(\d+) "
                         r"ATTN_N=(\d+)")
    seen = bad = 0
    with open(script) as f:
        for ln in f:
            m = line_re.match(ln.strip())
            if not m:
                continue
            c, order, h, hkv, n = m.group(1), m.group(2), int(m.group(3)), int(m.group(4)), int(m.group(5))
            kind = "mha" if h == hkv else "gqa"
            variant = "%s_d128_%s" % (kind, "causal" if c == "causal" else "noncausal")
            got = vm.bwd_order(variant, n)
            seen += 1
            if got != order:
                bad += 1
                print("MISMATCH %s N=%d: fixture's script builds %s, bwd_order says %s" % (variant, n, order, got))
    if not seen:
        print("no dQ/dK/dV build lines found in %s (wrong checkout?)" % script)
        return 1
    print("%d of %d fixture build lines agree with bwd_order" % (seen - bad, seen))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
