"""tk.attention, tk.attention_backward and tk.torch.attention from Python
(ctypes over libtk_attn.so) against float64 torch references (forward, and
gradients by torch autograd of the reference); run under tksim by ctest:
    tksim [--arch=gfx950] /usr/bin/python3 tests/python/test_attention.py
with PYTHONPATH=<build>/python.  Small problems: tksim runs every kernel."""
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
        ]
        for exc, text, call in cases:
            with self.assertRaises(exc, msg=text) as cm:
                call()
            self.assertIn(text, str(cm.exception))


if __name__ == "__main__":
    unittest.main(verbosity=2)
