"""tk.gemm from Python (ctypes over libtk_gemm.so) against a float64 torch
reference of the same bf16 inputs; run under tksim by ctest:
    tksim [--arch=gfx950] /usr/bin/python3 tests/python/test_gemm.py
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

EPS = 2.0 ** -24


def check(test, got, ref, mag, pre, k, bf16_out, what):
    """tk_gemm.h's per-element bound: 2 K eps mag + eps |pre| (accumulation),
    activation slope <= 1.2, 2^-20 |pre| for the activation's evaluation,
    2^-8 |ref| for a bf16 result."""
    got = torch.as_tensor(np.asarray(got, dtype=np.float64)) if not torch.is_tensor(got) else got.to(torch.float64)
    bound = 1.2 * (2 * k * EPS * mag + EPS * pre.abs()) + 2.0 ** -20 * pre.abs() + 2.0 ** -20
    if bf16_out:
        bound = bound + 2.0 ** -8 * ref.abs()
    err = (got - ref).abs()
    bad = int((err > bound).sum())
    test.assertEqual(bad, 0, "%s: %d of %d elements past the bound, worst |err| %.3g (bound there %.3g)"
                     % (what, bad, err.numel(), float(err.max()), float(bound.reshape(-1)[int(err.argmax())])))


class GemmNumpy(unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(7)

    def rand(self, *shape):
        return self.rng.standard_normal(shape).astype(np.float32)

    def test_nt_float32(self):
        m, n, k = 64, 48, 96
        a, b = self.rand(m, k), self.rand(n, k)
        c = tk.gemm(a, b)
        self.assertIsInstance(c, np.ndarray)
        self.assertEqual((c.dtype, c.shape), (np.float32, (m, n)))
        ref, mag, pre = tkref.gemm(tkref.bf16(a), tkref.bf16(b))
        check(self, c, ref, mag, pre, k, True, "nt f32 in, bf16 out")
        # the widened bf16 values: every element a bf16 number
        self.assertTrue(np.array_equal(c, tk.bf16_bits_to_f32(tk.f32_to_bf16_bits(c))))

    def test_nn_batched_epilogue_f32_out(self):
        bt, m, n, k = 2, 40, 72, 64
        a, b, c0, bias = self.rand(bt, m, k), self.rand(bt, k, n), self.rand(bt, m, n), self.rand(n)
        c = tk.gemm(a, b, layout="nn", alpha=0.5, beta=-1.25, c=c0, bias=bias, bias_dim="col", act="gelu",
                    out_dtype="f32")
        self.assertEqual((c.dtype, c.shape), (np.float32, (bt, m, n)))
        ref, mag, pre = tkref.gemm(tkref.bf16(a), tkref.bf16(b), "nn", 0.5, -1.25,
                                   torch.from_numpy(c0).double(), torch.from_numpy(bias).double(), "col", "gelu")
        check(self, c, ref, mag, pre, k, False, "nn batched, beta, col bias, gelu, f32 out")

    def test_uint16_bits_row_bias_relu(self):
        m, n, k = 32, 64, 64
        a, b = tk.f32_to_bf16_bits(self.rand(m, k)), tk.f32_to_bf16_bits(self.rand(n, k))
        bias = tk.f32_to_bf16_bits(self.rand(m))
        c = tk.gemm(a, b, bias=bias, bias_dim="row", act="relu")
        self.assertEqual((c.dtype, c.shape), (np.uint16, (m, n)))
        w = lambda x: torch.from_numpy(tk.bf16_bits_to_f32(x)).double()  # noqa: E731
        ref, mag, pre = tkref.gemm(w(a), w(b), bias=w(bias), bias_dim="row", act="relu")
        check(self, tk.bf16_bits_to_f32(c), ref, mag, pre, k, True, "uint16 bits, bf16 row bias, relu")

    def test_rne(self):
        # ties to even and carries into the exponent, NaN kept
        x = np.array([1.0, 1 + 2 ** -8, 1 + 3 * 2 ** -8, 1 + 2 ** -8 + 2 ** -20, np.nan, -np.inf, 3.4e38],
                     dtype=np.float32)
        bits = tk.f32_to_bf16_bits(x)
        ref = torch.from_numpy(x).to(torch.bfloat16).view(torch.int16).numpy().view(np.uint16)
        self.assertTrue(np.array_equal(bits[~np.isnan(x)], ref[~np.isnan(x)]))
        self.assertTrue(np.isnan(tk.bf16_bits_to_f32(bits[4:5]))[0])


class GemmTorch(unittest.TestCase):
    def test_torch_bf16(self):
        g = torch.Generator().manual_seed(3)
        m, n, k = 64, 64, 128
        a = torch.randn(m, k, generator=g).to(torch.bfloat16)
        b = torch.randn(n, k, generator=g).to(torch.bfloat16)
        bias = torch.randn(n, generator=g)
        c = tk.gemm(a, b, bias=bias, bias_dim="col", act="silu")
        self.assertTrue(torch.is_tensor(c))
        self.assertEqual((c.dtype, tuple(c.shape), c.device.type), (torch.bfloat16, (m, n), "cpu"))
        ref, mag, pre = tkref.gemm(a.double(), b.double(), bias=bias.double(), bias_dim="col", act="silu")
        check(self, c, ref, mag, pre, k, True, "torch bf16, f32 col bias, silu")
        c32 = tk.gemm(a, b, out_dtype="f32")
        self.assertEqual(c32.dtype, torch.float32)


class GemmErrors(unittest.TestCase):
    """Bad input: an exception naming the problem, before any device work."""

    def test_errors(self):
        a = np.zeros((16, 32), np.float32)
        b = np.zeros((8, 32), np.float32)
        cases = [
            (TypeError, "float64", lambda: tk.gemm(a.astype(np.float64), b)),
            (TypeError, "torch.float32", lambda: tk.gemm(torch.zeros(16, 32), torch.zeros(8, 32))),
            (TypeError, "list", lambda: tk.gemm([[1.0]], b)),
            (TypeError, "NumPy", lambda: tk.gemm(torch.zeros(16, 32, dtype=torch.bfloat16), b)),
            (ValueError, "K differs", lambda: tk.gemm(a, np.zeros((8, 16), np.float32))),
            (ValueError, "layout", lambda: tk.gemm(a, b, layout="tn")),
            (ValueError, "needs c", lambda: tk.gemm(a, b, beta=1.0)),
            (ValueError, "c must have shape", lambda: tk.gemm(a, b, beta=1.0, c=np.zeros((8, 8), np.float32))),
            (ValueError, "16 elements", lambda: tk.gemm(a, b, bias=np.zeros(8, np.float32))),
            (ValueError, "act", lambda: tk.gemm(a, b, act="tanh")),
            (ValueError, "out_dtype", lambda: tk.gemm(a, b, out_dtype="fp16")),
            (ValueError, "M x K", lambda: tk.gemm(np.zeros(32, np.float32), b)),
            (ValueError, "batch", lambda: tk.gemm(np.zeros((2, 16, 32), np.float32), np.zeros((3, 8, 32), np.float32))),
            (ValueError, ">= 1", lambda: tk.gemm(np.zeros((0, 32), np.float32), b)),
        ]
        for exc, text, call in cases:
            with self.assertRaises(exc, msg=text) as cm:
                call()
            self.assertIn(text, str(cm.exception))

    def test_missing_library(self):
        from tk import _lib
        saved = _lib._lib_dirs, _lib.libs
        try:
            _lib._lib_dirs = lambda: ["/nonexistent/tk-lib"]
            _lib.libs = _lib._Libs()
            with self.assertRaises(RuntimeError) as cm:
                tk.gemm(np.zeros((16, 32), np.float32), np.zeros((8, 32), np.float32))
            self.assertIn("libtk_gemm.so not found", str(cm.exception))
        finally:
            _lib._lib_dirs, _lib.libs = saved


if __name__ == "__main__":
    unittest.main(verbosity=2)
