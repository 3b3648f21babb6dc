#!/usr/bin/env python3
"""The HipKittens attention programs' grid orders and shapes against the
fixture's own benchmark scripts: every (uncommented) line of kernels/attn/
bkwd/mi355x_benchmark.sh that builds a dQ/dK/dV kernel names the grid order
(HBN/HNB) and shape HipKittens' published figure was measured with, and
kernels/attn/fwd/mi355x{,_d64}_benchmark.sh the forward's shapes.

Checked: bench/validate-model's bwd_order() (which reads bench/hipkittens/
bwd_order.txt) on every backward line, and, given PROGRAMS (the build's
bench/hipkittens/hk4_attn_programs.txt: each configured hk4_attn_{fwd,bwd}_*
program with its compile definitions), what the build compiles: a backward
program's kernel file (HK_KERNEL_FILE) has bwd_order's grid order, every
program's kernel file its variant's mask (and head dim), its shape defines
its name's N and the driver's attn_shape (which tk's side is run at), and
the script's line of the same variant and N (order, B, H, H_KV) where there
is one; every script line has a program. Exit 0 all agree, 1 a mismatch
(named), 2 bad usage, 77 no fixture (skipped)."""
import importlib.machinery
import importlib.util
import os
import re
import sys


def load(drv):
    loader = importlib.machinery.SourceFileLoader("validate_model", drv)
    spec = importlib.util.spec_from_loader("validate_model", loader)
    vm = importlib.util.module_from_spec(spec)
    loader.exec_module(vm)
    return vm


def script_lines(fx):
    """{(dir, variant, N): (order or None, B, H, H_KV)} of the scripts' kernel build lines."""
    bwd_re = re.compile(r"^make SRC=attn_bkwd_(non_causal|causal)_(HBN|HNB)\.cpp .*ATTN_B=(\d+) ATTN_H=(\d+) "
                        r"ATTN_H_KV=(\d+) ATTN_N=(\d+)")
    fwd_re = re.compile(r"^make TARGET=tk_kernel SRC=attn_fwd_(non_causal|causal)(_d64)?\.cpp ATTN_B=(\d+) "
                        r"ATTN_H=(\d+) ATTN_H_KV=(\d+) ATTN_N=(\d+)")
    out = {}
    for d, name, rx in (("bwd", "bkwd/mi355x_benchmark.sh", bwd_re), ("fwd", "fwd/mi355x_benchmark.sh", fwd_re),
                        ("fwd", "fwd/mi355x_d64_benchmark.sh", fwd_re)):
        path = os.path.join(fx, "kernels", "attn", name)
        if not os.path.isfile(path):
            continue
        with open(path) as f:
            for ln in f:
                m = rx.match(ln.strip())
                if not m:
                    continue
                c, extra = m.group(1), m.group(2)
                b, h, hkv, n = (int(m.group(i)) for i in range(3, 7))
                dd = 64 if d == "fwd" and extra else 128
                variant = "%s_d%d_%s" % ("mha" if h == hkv else "gqa", dd, "causal" if c == "causal" else "noncausal")
                out[(d, variant, n)] = (extra if d == "bwd" else None, b, h, hkv)
    return out


def check_programs(vm, path, lines):
    """Mismatches (list of messages) and the number of programs checked."""
    bad = []
    seen = set()
    with open(path) as f:
        for ln in f:
            ln = ln.strip()
            if not ln:
                continue
            name, _, defs = ln.partition(" ")
            m = re.fullmatch(r"hk4_attn_(fwd|bwd)_((?:mha|gqa)_d(?:128|64)_(?:causal|noncausal))_(small|\d+)", name)
            if not m:
                bad.append("%s: not an hk4_attn_<fwd|bwd>_<variant>_<N> program name" % name)
                continue
            dr, variant, size = m.groups()
            d = dict(re.findall(r'(\w+)=("[^"]*"|\S+)', defs))
            kf = re.search(r"attn_(?:bkwd_(non_causal|causal)_(HBN|HNB)|fwd_(non_causal|causal)(_d64)?)\.cpp",
                           d.get("HK_KERNEL_FILE", ""))
            if not kf or not all(k in d for k in ("ATTN_B", "ATTN_H", "ATTN_H_KV", "ATTN_N", "HK_ATTN_CAUSAL")):
                bad.append("%s: compile definitions lack HK_KERNEL_FILE=.../attn_<fwd|bkwd>_....cpp or a shape "
                           "define: %s" % (name, defs))
                continue
            causal = variant.endswith("_causal")
            b, h, hkv, n = (int(d[k]) for k in ("ATTN_B", "ATTN_H", "ATTN_H_KV", "ATTN_N"))
            hd = int(d.get("ATTN_D", 128))
            mask = kf.group(1) or kf.group(3)
            order = kf.group(2)
            want_hd = 64 if "_d64_" in variant else 128
            if (mask == "causal") != causal or int(d["HK_ATTN_CAUSAL"]) != causal or \
                    (dr == "bwd") != (order is not None) or (dr == "fwd" and bool(kf.group(4)) != (want_hd == 64)):
                bad.append("%s compiles %s with HK_ATTN_CAUSAL=%s" % (name, kf.group(0), d["HK_ATTN_CAUSAL"]))
            if (h == hkv) != variant.startswith("mha") or hd != want_hd or (size != "small" and n != int(size)):
                bad.append("%s: shape defines H=%d H_KV=%d N=%d D=%d do not match its name" % (name, h, hkv, n, hd))
            if dr == "bwd":
                want = vm.bwd_order(variant, 1024 if size == "small" else n)
                if order != want:
                    bad.append("%s compiles %s: bwd_order (bwd_order.txt) says %s" % (name, kf.group(0), want))
            if size == "small":
                continue
            seen.add((dr, variant, n))
            vm.select("attn_" + dr, "cdna4")
            if vm.attn_shape(variant, n) != (b, h, hkv, hd, causal):
                bad.append("%s is built B=%d H=%d H_KV=%d D=%d; validate-model's attn_shape says %s (tk's side "
                           "would run another shape)" % (name, b, h, hkv, hd, vm.attn_shape(variant, n)))
            if (dr, variant, n) in lines:
                so, sb, sh, shkv = lines[(dr, variant, n)]
                if (order, b, h, hkv) != (so, sb, sh, shkv):
                    bad.append("%s builds%s B=%d H=%d H_KV=%d; the fixture's script%s B=%d H=%d H_KV=%d"
                               % (name, " " + order if order else "", b, h, hkv, " " + so if so else "", sb, sh, shkv))
    for key in sorted(lines):
        if key not in seen:
            bad.append("the fixture's script builds %s %s N=%d, the build configures no program for it" % key)
    return bad, len(seen)


def main():
    if len(sys.argv) not in (3, 4):
        print("usage: bwd_order.py VALIDATE_MODEL HIPKITTENS_CDNA4_DIR [PROGRAMS]", file=sys.stderr)
        return 2
    drv, fx = sys.argv[1], sys.argv[2]
    script = os.path.join(fx, "kernels", "attn", "bkwd", "mi355x_benchmark.sh")
    if not fx or not os.path.isfile(script):
        print("skipped: no HipKittens CDNA4 checkout with %s" % "kernels/attn/bkwd/mi355x_benchmark.sh")
        return 77
    vm = load(drv)
    lines = script_lines(fx)
    bwd = {(v, n): o for (dr, v, n), (o, _, _, _) in lines.items() if dr == "bwd"}
    if not bwd:
        print("no dQ/dK/dV build lines found in %s (wrong checkout?)" % script)
        return 1
    bad = 0
    for (variant, n), order in sorted(bwd.items()):
        got = vm.bwd_order(variant, n)
        if got != order:
            bad += 1
            print("MISMATCH %s N=%d: fixture's script builds %s, bwd_order says %s" % (variant, n, order, got))
    print("%d of %d fixture build lines agree with bwd_order" % (len(bwd) - bad, len(bwd)))
    if len(sys.argv) == 4:
        if not os.path.isfile(sys.argv[3]):
            print("%s: no such file (configure the build with the fixture)" % sys.argv[3])
            return 1
        msgs, n = check_programs(vm, sys.argv[3], lines)
        for msg in msgs:
            print("MISMATCH " + msg)
        print("%d configured hk4_attn_fwd/bwd programs (and %d script lines) checked, %d mismatches"
              % (n, len(lines), len(msgs)))
        bad += len(msgs)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
