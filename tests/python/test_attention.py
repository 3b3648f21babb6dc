"""tk.attention, tk.attention_backward and tk.torch.attention from Python
(ctypes over libtk_attn.so) against float64 torch references (forward, and
gradients by torch autograd of the reference); run under tksim by ctest:
    tksim [--arch=gfx950] /usr/bin/python3 tests/python/test_attention.py
with PYTHONPATH=<build>/python.  Small problems: tksim runs every kernel."""
import contextlib
import os
import sys
import unittest

import numpy as np
import torch

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tk  # noqa: E402
import tkref  # noqa: E402


def f64(x):
    if torch.is_tensor(x):
        return x.detach().to(torch.float64)
    x = np.asarray(x)
    if x.dtype == np.uint16:
        x = tk.bf16_bits_to_f32(x)
    return torch.from_numpy(np.asarray(x, dtype=np.float64))


def check_o(test, o, ref_o, p, v, what):
    """tk_attn.h's forward bound: 2^-8 sum_j p_j |v_j| + 2^-8 |ref| + 2^-20."""
    g = p.shape[1] // v.shape[2]
    mag = torch.einsum("bhqk,bkhd->bqhd", p, v.abs().repeat_interleave(g, dim=2))
    bound = 2.0 ** -8 * mag + 2.0 ** -8 * ref_o.abs() + 2.0 ** -20
    err = (f64(o) - ref_o).abs()
    test.assertEqual(int((err > bound).sum()), 0, "%s: worst |err| %.3g" % (what, float(err.max())))


def check_grad(test, got, ref, what):
    """A gradient in bf16 from bf16 P and dS: within 2^-6 of the tensor's
    largest reference element plus 2^-8 of its own (attn_ref.c's bound uses
    sums of magnitudes; this is the same order for these inputs)."""
    err = (f64(got) - ref).abs()
    bound = 2.0 ** -6 * ref.abs().max() + 2.0 ** -8 * ref.abs() + 2.0 ** -20
    test.assertEqual(int((err > bound).sum()), 0, "%s: worst |err| %.3g, max |ref| %.3g"
                     % (what, float(err.max()), float(ref.abs().max())))


class AttentionNumpy(unittest.TestCase):
    def test_forward_backward_gqa_causal(self):
        rng = np.random.default_rng(11)
        b, sq, skv, hq, hkv, d = 1, 64, 96, 4, 2, 64
        q = rng.standard_normal((b, sq, hq, d)).astype(np.float32)
        k = rng.standard_normal((b, skv, hkv, d)).astype(np.float32)
        v = rng.standard_normal((b, skv, hkv, d)).astype(np.float32)
        do = rng.standard_normal((b, sq, hq, d)).astype(np.float32)
        o, lse = tk.attention(q, k, v, causal=True)
        self.assertEqual((o.dtype, o.shape, lse.dtype, lse.shape), (np.float32, q.shape, np.float32, (b, hq, sq)))
        Q, K, V = (tkref.bf16(x).requires_grad_() for x in (q, k, v))
        ro, rl, p = tkref.attention(Q, K, V, causal=True)
        check_o(self, o, ro.detach(), p.detach(), V.detach(), "numpy forward, GQA, causal")
        # LSE bound of tk_attn.h: 4 d 2^-24 scale max|q.k| + 2^-20 |ref| + 2^-20
        smax = float((Q.detach().abs() @ K.detach().abs().amax(dim=(0, 1, 2)).reshape(-1, 1)).max()) / d ** 0.5
        self.assertLess(float((f64(lse) - rl.detach()).abs().max()), 4 * d * 2.0 ** -24 * smax * 4 + 2.0 ** -18)
        dq, dk, dv = tk.attention_backward(do, q, k, v, o, lse, causal=True)
        self.assertEqual((dq.shape, dk.shape, dv.shape), (q.shape, k.shape, v.shape))
        ro.backward(tkref.bf16(do))
        check_grad(self, dq, Q.grad, "dq")
        check_grad(self, dk, K.grad, "dk")
        check_grad(self, dv, V.grad, "dv")
        # deterministic=True (no atomics): the same bounds, and bit for bit the same on a second call
        g1 = tk.attention_backward(do, q, k, v, o, lse, causal=True, deterministic=True)
        g2 = tk.attention_backward(do, q, k, v, o, lse, causal=True, deterministic=True)
        for x, y, r, nm in zip(g1, g2, (Q.grad, K.grad, V.grad), ("dq", "dk", "dv")):
            check_grad(self, x, r, "deterministic " + nm)
            self.assertTrue(np.array_equal(x, y), "deterministic %s differs between two calls" % nm)

    def test_uint16_d128_scale(self):
        rng = np.random.default_rng(5)
        q, k, v = (tk.f32_to_bf16_bits(rng.standard_normal((1, 64, 1, 128)).astype(np.float32)) for _ in range(3))
        o, lse = tk.attention(q, k, v, scale=0.05)
        self.assertEqual((o.dtype, lse.dtype), (np.uint16, np.float32))
        ro, rl, p = tkref.attention(f64(q), f64(k), f64(v), scale=0.05)
        check_o(self, o, ro, p, f64(v), "uint16 bits, d128, scale 0.05")


class AttentionTorch(unittest.TestCase):
    def test_autograd(self):
        g = torch.Generator().manual_seed(9)
        b, s, h, d = 1, 64, 2, 64
        q, k, v = (torch.randn(b, s, h, d, generator=g).to(torch.bfloat16).requires_grad_() for _ in range(3))
        do = torch.randn(b, s, h, d, generator=g).to(torch.bfloat16)
        o = tk.torch.attention(q, k, v)
        self.assertEqual((o.dtype, tuple(o.shape)), (torch.bfloat16, (b, s, h, d)))
        self.assertIsNotNone(o.grad_fn)
        o.backward(do)
        Q, K, V = (x.detach().double().requires_grad_() for x in (q, k, v))
        ro, _, p = tkref.attention(Q, K, V)
        check_o(self, o, ro.detach(), p.detach(), V.detach(), "torch forward")
        ro.backward(do.double())
        check_grad(self, q.grad, Q.grad, "q.grad")
        check_grad(self, k.grad, K.grad, "k.grad")
        check_grad(self, v.grad, V.grad, "v.grad")
        self.assertEqual((q.grad.dtype, k.grad.dtype, v.grad.dtype), (torch.bfloat16,) * 3)


def ref_dq_partials(b, hq, hkv, sq, skv, d, cus, cdna4):
    """tk_attn_bwd_dq_partials from its documented rule (docs/attention.md "Deterministic backward"):
    P in 1..min(key blocks of 128, 8), P partials of b*hq*ceil64(sq)*d*4 bytes within 4 GiB, the least
    modeled cost, the fewest on a tie; 0 past 3.75 GiB.  Units: G = b*hkv kv groups per key block, in
    chunks of P key blocks (the first chunk only stores, the last may be a remainder of rem < P),
    launches of W = the most whole rounds of `cus` within P*G units (a launch boundary after the
    last whole chunk).  gfx942: 16 per round (15 when P > 1), 3 per partial, 2 per launch.  gfx950:
    per launch ceil(units / cus) rounds times the mean unit weight (store-only 32 / 24 / 23,
    loading 43 / 34 / 32 for 1 / 2 / 3+ units of a kv group in the chunk) plus 4; 14 per partial."""
    part, nkb, g = b * hq * (-(-sq // 64) * 64) * d * 4, -(-skv // 128), b * hkv
    if part > 0xF0000000 or nkb * g >= 2 ** 31:
        return 0
    nmax = min(nkb, 8)
    while nmax > 1 and nmax * part > 4 << 30:
        nmax -= 1

    def weight(pp, load):
        return ((43, 34, 32) if load else (32, 24, 23))[min(pp, 3) - 1]

    best, cbest = 1, None
    for n in range(1, nmax + 1):
        m = min(n * g, 1 << 22)
        w = m if m <= cus else m // cus * cus
        full, rem = nkb // n * n * g, nkb % n
        if cdna4:
            c = 14 * n
            for u0, u1 in ((0, full), (full, nkb * g)):
                for k in range(u0, u1, w):
                    e = min(k + w, u1)
                    st = max(min(e, n * g) - min(k, n * g), 0)  # the first chunk's: store only
                    f = min(e, full) - min(k, full)  # whole chunks'
                    tot = st * weight(n, 0) + (f - st) * weight(n, 1) + ((e - k - f) * weight(rem, 1) if e - k - f else 0)
                    c += -(-(e - k) // cus) * tot // (e - k) + 4
        else:
            r = l = 0
            for u in (full, nkb * g - full):
                if u:
                    r += u // w * -(-w // cus) + -(-(u % w) // cus)
                    l += -(-u // w)
            c = (15 if n > 1 else 16) * r + 3 * n + 2 * l
        if cbest is None or c < cbest:
            best, cbest = n, c
    return best


def device_info():
    """(CUs, is gfx950) of the current device, from the HIP runtime (independent of libtk_attn)."""
    import ctypes
    tk._lib.libs.attn  # first: it brings the HIP runtime this process uses (tksim's under tksim)
    hip = tk._lib.libs.hip
    hip.hipDeviceGetAttribute.argtypes = [ctypes.POINTER(ctypes.c_int), ctypes.c_int, ctypes.c_int]
    hip.hipDeviceGetAttribute.restype = ctypes.c_int
    out = []
    # HIP 5.2's hip_runtime_api.h: hipDeviceAttributeMultiprocessorCount 63, hipDeviceAttributeGcnArch 10003
    for attr in (63, 10003):
        v = ctypes.c_int(0)
        tk._lib.hip_check(hip.hipDeviceGetAttribute(ctypes.byref(v), attr, 0), "hipDeviceGetAttribute")
        out.append(v.value)
    return out[0], out[1] == 950


@contextlib.contextmanager
def ordered_off():
    """TK_ATTN_BWD_DQ_ORDERED=0: the partials also on gfx950 (whose default is ordered accumulation)."""
    os.environ["TK_ATTN_BWD_DQ_ORDERED"] = "0"
    try:
        yield
    finally:
        del os.environ["TK_ATTN_BWD_DQ_ORDERED"]


class DqPartials(unittest.TestCase):
    def test_rule_matches_documented_examples(self):
        # docs/attention.md: b16 h16 d128 s1024 on MI355X (256 CUs, gfx950): 4; s2048 on MI325X (304, gfx942):
        # 4; s4096 on MI325X: 4; b10 h16 s64 skv500 (test attn_bwd_det_split_launch_d128): 2 on both
        self.assertEqual(ref_dq_partials(16, 16, 16, 1024, 1024, 128, 256, True), 4)
        self.assertEqual(ref_dq_partials(16, 16, 16, 2048, 2048, 128, 304, False), 4)
        self.assertEqual(ref_dq_partials(16, 16, 16, 4096, 4096, 128, 304, False), 4)
        self.assertEqual(ref_dq_partials(10, 16, 16, 64, 500, 128, 304, False), 2)
        self.assertEqual(ref_dq_partials(10, 16, 16, 64, 500, 128, 256, True), 2)

    def test_default_path_by_device(self):
        # docs/attention.md "Deterministic backward": gfx950's deterministic dQ goes by ordered
        # accumulation where its rotated order applies (non-causal, 2..32 key blocks of 128, at most
        # CUs/8, b*hkv a multiple of 8, at least 2 query tiles (32 rows, 64 at d 64) per key block
        # and kv group), through the partials of the rule elsewhere and on gfx942
        cus, cdna4 = device_info()
        for b, hq, hkv, sq, skv, d, causal in ((16, 16, 16, 1024, 1024, 128, False), (16, 16, 16, 1024, 1024, 128, True),
                                                (8, 2, 1, 300, 700, 128, False), (8, 2, 1, 300, 1100, 128, False),
                                                (8, 1, 1, 64, 640, 64, False), (1, 2, 1, 64, 640, 64, False)):
            nkb, tiles = -(-skv // 128), -(-sq // (64 if d == 64 else 32)) * (hq // hkv)
            rot = not causal and 2 <= nkb <= min(32, cus // 8) and b * hkv % 8 == 0 and tiles >= 2 * nkb
            shp = ((b, sq, hq, d), (b, skv, hkv, d))
            what = "b%d hq%d hkv%d sq%d skv%d d%d causal %s" % (b, hq, hkv, sq, skv, d, causal)
            self.assertEqual(tk.attention_backward_dq_ordered(*shp, causal=causal), cdna4 and rot, what)
            want = 0 if cdna4 and rot else ref_dq_partials(b, hq, hkv, sq, skv, d, cus, cdna4)
            self.assertEqual(tk.attention_backward_dq_partials(*shp, causal=causal), want, what)
        # TK_ATTN_BWD_DQ_PARTS forces partials, so it turns the ordered default off
        os.environ["TK_ATTN_BWD_DQ_PARTS"] = "2"
        try:
            self.assertFalse(tk.attention_backward_dq_ordered((1, 64, 2, 64), (1, 640, 1, 64)))
            self.assertEqual(tk.attention_backward_dq_partials((1, 64, 2, 64), (1, 640, 1, 64)), 2)
        finally:
            del os.environ["TK_ATTN_BWD_DQ_PARTS"]

    def test_library_against_rule(self):
        with ordered_off():
            self.check_library_against_rule()

    def check_library_against_rule(self):
        cus, cdna4 = device_info()
        self.assertGreater(cus, 0)
        lib = tk._lib.libs.attn
        shapes = [(16, 16, 16, 1024, 1024, 128), (16, 16, 16, 2048, 2048, 128), (16, 16, 16, 4096, 4096, 128),
                  (1, 8, 1, 300, 1300, 128), (10, 16, 16, 64, 500, 128), (2, 64, 8, 1000, 3000, 64),
                  (1, 1, 1, 1, 1, 64), (1, 2, 1, 64, 640, 64), (3, 4, 4, 8192, 8192, 128)]
        for b, hq, hkv, sq, skv, d in shapes:
            want = ref_dq_partials(b, hq, hkv, sq, skv, d, cus, cdna4)
            got = tk.attention_backward_dq_partials((b, sq, hq, d), (b, skv, hkv, d))
            self.assertEqual(got, want, "P for b%d hq%d hkv%d sq%d skv%d d%d on %d CUs, gfx950 %s" % (b, hq, hkv, sq, skv, d, cus, cdna4))
            # the deterministic workspace: the deltas (b*hq*sq f32, to 16 bytes) and P partials
            p = tk._lib.AttnProblem()
            lib.tk_attn_problem_init(p, b, hq, hkv, sq, skv, d, 0)
            ws = lib.tk_attn_bwd_workspace_bytes_flags(p, tk._lib.ATTN_BWD_DETERMINISTIC)
            self.assertEqual(ws, (b * hq * sq * 4 + 15) // 16 * 16 + want * b * hq * (-(-sq // 64) * 64) * d * 4)
        # one partial past 3.75 GiB: 0, the recomputing dq kernel
        self.assertEqual(tk.attention_backward_dq_partials((1, 65536, 128, 128), (1, 65536, 128, 128)), 0)
        # arrays and tensors give their shapes
        q = np.zeros((1, 64, 2, 64), np.float32)
        k = torch.zeros((1, 640, 1, 64), dtype=torch.bfloat16)
        self.assertEqual(tk.attention_backward_dq_partials(q, k), ref_dq_partials(1, 2, 1, 64, 640, 64, cus, cdna4))
        # the test hook forces the recomputing kernel
        os.environ["TK_ATTN_BWD_DQ_RECOMPUTE"] = "1"
        try:
            self.assertEqual(tk.attention_backward_dq_partials(q, k), 0)
        finally:
            del os.environ["TK_ATTN_BWD_DQ_RECOMPUTE"]
        self.assertEqual(tk.attention_backward_dq_partials(q, k), ref_dq_partials(1, 2, 1, 64, 640, 64, cus, cdna4))

    def test_deterministic_backward_with_partials(self):
        # 5 key blocks of 128: several partials (P > 1 here on 256 and 304 CUs), GQA 2:1, causal sq < skv
        rng = np.random.default_rng(23)
        b, sq, skv, hq, hkv, d = 1, 64, 640, 2, 1, 64
        with ordered_off():
            P = tk.attention_backward_dq_partials((b, sq, hq, d), (b, skv, hkv, d))
            self.assertEqual(P, ref_dq_partials(b, hq, hkv, sq, skv, d, *device_info()))
            self.assertGreater(P, 1)
            self.check_deterministic_causal(rng, (b, sq, skv, hq, hkv, d), "deterministic, %d partials" % P)

    def check_deterministic_causal(self, rng, shape, label):
        # the deterministic causal backward against the float64 reference, and bit for bit on a second call
        b, sq, skv, hq, hkv, d = shape
        q, k, v, do = (rng.standard_normal(s).astype(np.float32)
                       for s in ((b, sq, hq, d), (b, skv, hkv, d), (b, skv, hkv, d), (b, sq, hq, d)))
        o, lse = tk.attention(q, k, v, causal=True)
        Q, K, V = (tkref.bf16(x).requires_grad_() for x in (q, k, v))
        ro, _, _ = tkref.attention(Q, K, V, causal=True)
        ro.backward(tkref.bf16(do))
        g1 = tk.attention_backward(do, q, k, v, o, lse, causal=True, deterministic=True)
        g2 = tk.attention_backward(do, q, k, v, o, lse, causal=True, deterministic=True)
        for x, y, r, nm in zip(g1, g2, (Q.grad, K.grad, V.grad), ("dq", "dk", "dv")):
            check_grad(self, x, r, "%s, %s" % (label, nm))
            self.assertTrue(np.array_equal(x, y), "%s: %s differs between two calls" % (label, nm))

    def test_ordered_and_bad_hooks(self):
        # TK_ATTN_BWD_DQ_ORDERED=1: dq by ordered accumulation (no partials), against the float64
        # reference and bit for bit on a second call (GQA 2:1 causal sq < skv, 5 key blocks)
        rng = np.random.default_rng(29)
        b, sq, skv, hq, hkv, d = 1, 64, 640, 2, 1, 64
        os.environ["TK_ATTN_BWD_DQ_ORDERED"] = "1"
        try:
            self.assertTrue(tk.attention_backward_dq_ordered((b, sq, hq, d), (b, skv, hkv, d)))
            self.assertEqual(tk.attention_backward_dq_partials((b, sq, hq, d), (b, skv, hkv, d)), 0)
            self.check_deterministic_causal(rng, (b, sq, skv, hq, hkv, d), "deterministic, ordered dq")
        finally:
            del os.environ["TK_ATTN_BWD_DQ_ORDERED"]
        # bad hook values: ValueError naming them, and the backward refuses to run
        for var, val in (("TK_ATTN_BWD_DQ_PARTS", "abc"), ("TK_ATTN_BWD_DQ_PARTS", "0"), ("TK_ATTN_BWD_DQ_PARTS", "9"),
                         ("TK_ATTN_BWD_DQ_ORDERED", "yes"), ("TK_ATTN_BWD_DQ_ROT", "-1"), ("TK_ATTN_BWD_DQ_ROT", "65")):
            os.environ[var] = val
            try:
                for fn in (tk.attention_backward_dq_partials, tk.attention_backward_dq_ordered):
                    with self.assertRaises(ValueError) as cm:
                        fn((b, sq, hq, d), (b, skv, hkv, d))
                    self.assertIn("%s=%r" % (var, val), str(cm.exception))
            finally:
                del os.environ[var]
        # a bad TK_ATTN_BWD_DQ_BATCHES (batches per launch of the default's fused dQ) refuses the default too
        for val in ("0", "x"):
            os.environ["TK_ATTN_BWD_DQ_BATCHES"] = val
            try:
                zq, zk = np.zeros((b, sq, hq, d), np.float32), np.zeros((b, skv, hkv, d), np.float32)
                with self.assertRaises(ValueError) as cm:
                    tk.attention_backward(zq, zq, zk, zk, zq, np.zeros((b, hq, sq), np.float32))
                self.assertIn("TK_ATTN_BWD_DQ_BATCHES=%r" % val, str(cm.exception))
            finally:
                del os.environ["TK_ATTN_BWD_DQ_BATCHES"]


class AttentionErrors(unittest.TestCase):
    def test_errors(self):
        z = lambda *s: np.zeros(s, np.float32)  # noqa: E731
        q, k = z(1, 64, 2, 64), z(1, 64, 2, 64)
        lse = np.zeros((1, 2, 64), np.float32)
        cases = [
            (ValueError, "head dim must be 64 or 128", lambda: tk.attention(z(1, 8, 1, 32), z(1, 8, 1, 32), z(1, 8, 1, 32))),
            (ValueError, "4-D", lambda: tk.attention(z(64, 64), k, k)),
            (ValueError, "same shape", lambda: tk.attention(q, k, z(1, 32, 2, 64))),
            (ValueError, "multiple of Hkv", lambda: tk.attention(z(1, 64, 3, 64), k, k)),
            (ValueError, "batch", lambda: tk.attention(z(2, 64, 2, 64), k, k)),
            (ValueError, "scale", lambda: tk.attention(q, k, k, scale=-1.0)),
            (TypeError, "torch.bfloat16", lambda: tk.attention(torch.zeros(1, 64, 2, 64), k, k)),
            (TypeError, "all as torch tensors or all as NumPy",
             lambda: tk.attention(torch.zeros(1, 64, 2, 64, dtype=torch.bfloat16), k, k)),
            (ValueError, "lse must have shape", lambda: tk.attention_backward(q, q, k, k, q, z(1, 64, 2))),
            (TypeError, "float32", lambda: tk.attention_backward(q, q, k, k, q, lse.astype(np.float64))),
            (ValueError, "do must have", lambda: tk.attention_backward(z(1, 32, 2, 64), q, k, k, q, lse)),
            (TypeError, "torch tensor", lambda: tk.torch.attention(q, k, k)),
            (ValueError, "4-D", lambda: tk.attention_backward_dq_partials((1, 64, 64), (1, 64, 2, 64))),
            (ValueError, "head dim must be 64 or 128",
             lambda: tk.attention_backward_dq_partials((1, 64, 2, 32), (1, 64, 2, 32))),
            (ValueError, "multiple of Hkv", lambda: tk.attention_backward_dq_partials((1, 64, 3, 64), (1, 64, 2, 64))),
            (ValueError, "batch", lambda: tk.attention_backward_dq_partials((2, 64, 2, 64), (1, 64, 2, 64))),
            (ValueError, "must be positive", lambda: tk.attention_backward_dq_partials((1, 0, 2, 64), (1, 64, 2, 64))),
            (TypeError, "integers", lambda: tk.attention_backward_dq_partials((1, 64.0, 2, 64), (1, 64, 2, 64))),
            (TypeError, "a shape", lambda: tk.attention_backward_dq_partials(5, (1, 64, 2, 64))),
        ]
        for exc, text, call in cases:
            with self.assertRaises(exc, msg=text) as cm:
                call()
            self.assertIn(text, str(cm.exception))


if __name__ == "__main__":
    unittest.main(verbosity=2)
