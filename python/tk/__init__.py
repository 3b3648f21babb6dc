"""tk from Python: the BF16 GEMM and flash-attention kernels of tk's examples
through their C APIs (libtk_gemm.so, libtk_attn.so) with ctypes.

    tk.gemm(a, b, layout="nt", alpha=1.0, beta=0.0, c=None, bias=None,
            bias_dim="row", act=None, out_dtype="bf16")
    tk.attention(q, k, v, causal=False, scale=None) -> (o, lse)
    tk.attention_backward(do, q, k, v, o, lse, causal=False, scale=None,
                          deterministic=False) -> (dq, dk, dv)
    tk.attention_backward_dq_partials(q, k, causal=False) -> int   (deterministic mode's P)
    tk.attention_backward_dq_ordered(q, k, causal=False) -> bool   (its dQ by ordered accumulation)
    tk.torch.attention(q, k, v, causal=False, scale=None)   (autograd)

Inputs: torch.bfloat16 tensors, NumPy float32 arrays (rounded to bf16) or
NumPy uint16 arrays (bf16 bits); outputs are of the same kind (_tensors.py).
Without an AMD GPU, run the interpreter under tksim:
    build/bin/tksim /usr/bin/python3 script.py
docs/python.md has the details."""

import ctypes
import math

import numpy as np

from . import _lib
from ._tensors import Output, bf16_operand, bf16_bits_to_f32, f32_operand, f32_to_bf16_bits, is_torch, same_kind

__all__ = ["gemm", "attention", "attention_backward", "attention_backward_dq_partials",
           "attention_backward_dq_ordered", "f32_to_bf16_bits",
           "bf16_bits_to_f32"]
__version__ = "0.1.0"


def _msg(s):
    return s.decode() if isinstance(s, bytes) else str(s)


def _free(ops):
    for o in ops:
        o.free()


_ACTS = ("none", "relu", "gelu", "gelu-erf", "silu")


def gemm(a, b, layout="nt", alpha=1.0, beta=0.0, c=None, bias=None, bias_dim="row", act=None, out_dtype="bf16"):
    """C = act(alpha * A op(B) + beta * C + bias) in bf16 with f32 accumulation.

    a: M x K (or batch x M x K); b: N x K for layout "nt" (C = A B^T) or
    K x N for "nn" (C = A B), batched like a; c: M x N (batched like a), the
    initial C when beta != 0 (bf16 for out_dtype "bf16", float32 for "f32");
    bias: a vector of M (bias_dim "row") or N ("col") elements, float32 or
    bf16, shared by all batches; act: None, "relu", "gelu" (tanh), "gelu-erf"
    or "silu"; out_dtype: "bf16" or "f32".  Returns C."""
    if layout not in ("nt", "nn"):
        raise ValueError("tk.gemm: layout must be 'nt' (C = A B^T, b is N x K) or 'nn' (C = A B, b is K x N), got %r"
                         % (layout,))
    if out_dtype not in ("bf16", "f32"):
        raise ValueError("tk.gemm: out_dtype must be 'bf16' or 'f32', got %r" % (out_dtype,))
    if bias_dim not in ("row", "col"):
        raise ValueError("tk.gemm: bias_dim must be 'row' (one value per row of C, M of them) or 'col' (N), got %r"
                         % (bias_dim,))
    act_s = "none" if act is None else act
    if act_s not in _ACTS:
        raise ValueError("tk.gemm: act must be None or one of %s, got %r" % (", ".join(repr(x) for x in _ACTS[1:]), act))
    try:
        alpha, beta = float(alpha), float(beta)
    except (TypeError, ValueError):
        raise TypeError("tk.gemm: alpha and beta must be numbers") from None
    if not (math.isfinite(alpha) and math.isfinite(beta)):
        raise ValueError("tk.gemm: alpha and beta must be finite")

    A, B = bf16_operand(a, "a"), bf16_operand(b, "b")
    ops = [A, B]
    if len(A.shape) not in (2, 3):
        raise ValueError("tk.gemm: a must be M x K or batch x M x K, got shape %s" % (A.shape,))
    if len(B.shape) != len(A.shape):
        raise ValueError("tk.gemm: a has shape %s and b %s: both 2-D, or both 3-D with the same batch"
                         % (A.shape, B.shape))
    batch = A.shape[0] if len(A.shape) == 3 else 1
    if len(A.shape) == 3 and B.shape[0] != batch:
        raise ValueError("tk.gemm: a has batch %d but b %d" % (batch, B.shape[0]))
    m, k = A.shape[-2:]
    if layout == "nt":
        n, kb = B.shape[-2:]
        bdesc = "N x K"
    else:
        kb, n = B.shape[-2:]
        bdesc = "K x N"
    if kb != k:
        raise ValueError("tk.gemm: a is M x K = %d x %d but b (%s layout: %s) has shape %s: K differs"
                         % (m, k, layout, bdesc, B.shape[-2:]))
    cshape = A.shape[:-2] + (m, n)
    C = None
    if beta != 0.0 and c is None:
        raise ValueError("tk.gemm: beta = %g needs c (the initial C, shape %s)" % (beta, cshape))
    if c is not None:
        C = bf16_operand(c, "c") if out_dtype == "bf16" else f32_operand(c, "c")
        if C.shape != cshape:
            raise ValueError("tk.gemm: c must have shape %s (C's), got %s" % (cshape, C.shape))
        ops.append(C)
    Bias = None
    bias_bf16 = bias is not None and _is_bf16_like(bias)
    if bias is not None:
        Bias = bf16_operand(bias, "bias") if bias_bf16 else f32_operand(bias, "bias")
        need = m if bias_dim == "row" else n
        if Bias.shape != (need,):
            raise ValueError("tk.gemm: bias_dim=%r needs a bias vector of %d elements (%s), got shape %s"
                             % (bias_dim, need, "M" if bias_dim == "row" else "N", Bias.shape))
        ops.append(Bias)
    first = same_kind(ops)

    lib = _lib.libs.gemm
    p = _lib.GemmProblem()
    lib.tk_gemm_problem_init(p, m, n, k)
    p.batch = batch
    p.layout = _lib.GEMM_NT if layout == "nt" else _lib.GEMM_NN
    p.ldb = k if layout == "nt" else n  # packed B rows (init assumes nt)
    p.out = _lib.GEMM_OUT_BF16 if out_dtype == "bf16" else _lib.GEMM_OUT_F32
    p.alpha, p.beta = alpha, beta
    act_code = ctypes.c_int(0)
    if not lib.tk_gemm_act_parse(act_s.encode(), ctypes.byref(act_code)):
        raise ValueError("tk.gemm: the library does not know act %r" % (act_s,))
    p.act = act_code.value
    if Bias is not None:
        p.bias = _lib.GEMM_BIAS_ROW if bias_dim == "row" else _lib.GEMM_BIAS_COL
        p.bias_type = _lib.GEMM_BIAS_BF16 if bias_bf16 else _lib.GEMM_BIAS_F32
        p.bias_len = Bias.shape[0]
    err = lib.tk_gemm_problem_error(p)
    if err:
        raise ValueError("tk.gemm: " + _msg(err))
    why = lib.tk_gemm_unsupported(_lib.GEMM_AUTO, p)
    if why:
        raise ValueError("tk.gemm: " + _msg(why))
    try:
        out = Output(first, cshape, out_dtype, init=C)
        if Bias is not None:
            p.bias_ptr = Bias.device_ptr()
        rc = lib.tk_gemm(p, _lib.GEMM_AUTO, A.device_ptr(), B.device_ptr(), out.ptr, None)
        if rc != _lib.GEMM_OK:
            raise RuntimeError("tk.gemm: %s%s" % (_msg(lib.tk_gemm_strerror(rc)), _lib._no_device_hint()))
        _lib.synchronize("tk.gemm")
        return out.result()
    finally:
        _free(ops)


def _is_bf16_like(x):
    """A bf16 input (torch.bfloat16 or NumPy uint16) rather than float32."""
    if is_torch(x):
        return str(x.dtype) == "torch.bfloat16"
    return isinstance(x, np.ndarray) and x.dtype == np.uint16


def _attn_problem(q, k, v, causal, scale, fn):
    for o, nm in ((q, "q"), (k, "k"), (v, "v")):
        if len(o.shape) != 4:
            raise ValueError("tk.%s: %s must be 4-D (batch, seq, heads, head_dim: BSHD), got shape %s"
                             % (fn, nm, o.shape))
    if k.shape != v.shape:
        raise ValueError("tk.%s: k and v must have the same shape, got %s and %s" % (fn, k.shape, v.shape))
    bq, sq, hq, d = q.shape
    bk, skv, hkv, dk = k.shape
    if bk != bq:
        raise ValueError("tk.%s: q has batch %d but k and v %d" % (fn, bq, bk))
    if dk != d:
        raise ValueError("tk.%s: q has head dim %d but k and v %d" % (fn, d, dk))
    lib = _lib.libs.attn
    p = _lib.AttnProblem()
    lib.tk_attn_problem_init(p, bq, hq, hkv, sq, skv, d, 1 if causal else 0)
    if scale is not None:
        try:
            p.scale = float(scale)
        except (TypeError, ValueError):
            raise TypeError("tk.%s: scale must be a number or None (1/sqrt(head_dim))" % fn) from None
        if not (float(scale) > 0 and math.isfinite(float(scale))):
            raise ValueError("tk.%s: scale must be a finite positive number, got %r" % (fn, scale))
    err = lib.tk_attn_problem_error(p)
    if err:
        raise ValueError("tk.%s: %s" % (fn, _msg(err)))
    return lib, p


def attention(q, k, v, causal=False, scale=None):
    """Flash attention forward, BSHD: q (B, Sq, Hq, D), k and v (B, Skv, Hkv,
    D), D 64 or 128, Hq a multiple of Hkv; causal masks bottom-right aligned
    (key j visible to query i iff j <= i + Skv - Sq); scale defaults to
    1/sqrt(D).  Returns (o, lse): o like q, lse float32 (B, Hq, Sq), the
    natural-log sum of exp of the scaled scores (+inf where no key is visible)."""
    Q, K, V = bf16_operand(q, "q"), bf16_operand(k, "k"), bf16_operand(v, "v")
    ops = [Q, K, V]
    first = same_kind(ops)
    lib, p = _attn_problem(Q, K, V, causal, scale, "attention")
    try:
        o = Output(first, Q.shape, "bf16")
        lse = Output(first, (p.b, p.hq, p.sq), "f32")
        # the workspace lets the forward split its last round's key ranges (tk_attn.h, tk_attn_fwd_ws)
        ws_bytes = lib.tk_attn_fwd_workspace_bytes(p)
        ws = _lib.DeviceBuffer(ws_bytes) if ws_bytes else None
        try:
            rc = lib.tk_attn_fwd_ws(p, Q.device_ptr(), K.device_ptr(), V.device_ptr(), o.ptr, lse.ptr,
                                    ws.ptr.value if ws else None, ws_bytes, None)
            if rc != _lib.ATTN_OK:
                raise RuntimeError("tk.attention: %s%s" % (_msg(lib.tk_attn_strerror(rc)), _lib._no_device_hint()))
            _lib.synchronize("tk.attention")
        finally:
            if ws:
                ws.free()
        return o.result(), lse.result()
    finally:
        _free(ops)


def attention_backward(do, q, k, v, o, lse, causal=False, scale=None, deterministic=False):
    """Flash attention backward (FlashAttention-2): the gradients of
    sum(O * dO) for the forward's q, k, v, o and lse (tk.attention's).
    do and o: like q; lse float32 (B, Hq, Sq).  Returns (dq, dk, dv), dq like
    q, dk and dv like k.  Default: dq summed with f32 atomics (its last bits
    may vary run to run); deterministic=True: bitwise repeatable
    (TK_ATTN_BWD_DETERMINISTIC, slower: dq through partial sums, or on a
    gfx950 by f32 atomics in a fixed order, attention_backward_dq_ordered)."""
    Q, K, V = bf16_operand(q, "q"), bf16_operand(k, "k"), bf16_operand(v, "v")
    O, dO = bf16_operand(o, "o"), bf16_operand(do, "do")
    L = f32_operand(lse, "lse")
    ops = [Q, K, V, O, dO, L]
    first = same_kind(ops)
    lib, p = _attn_problem(Q, K, V, causal, scale, "attention_backward")
    for X, nm in ((O, "o"), (dO, "do")):
        if X.shape != Q.shape:
            raise ValueError("tk.attention_backward: %s must have q's shape %s, got %s" % (nm, Q.shape, X.shape))
    if L.shape != (p.b, p.hq, p.sq):
        raise ValueError("tk.attention_backward: lse must have shape (B, Hq, Sq) = %s, got %s"
                         % ((p.b, p.hq, p.sq), L.shape))
    try:
        dq = Output(first, Q.shape, "bf16")
        dk = Output(first, K.shape, "bf16")
        dv = Output(first, V.shape, "bf16")
        flags = _lib.ATTN_BWD_DETERMINISTIC if deterministic else 0
        ws = _lib.DeviceBuffer(lib.tk_attn_bwd_workspace_bytes_flags(p, flags))
        try:
            rc = lib.tk_attn_bwd_flags(p, Q.device_ptr(), K.device_ptr(), V.device_ptr(), O.device_ptr(),
                                       dO.device_ptr(), L.device_ptr(), dq.ptr, dk.ptr, dv.ptr, ws.ptr.value, flags,
                                       None)
            if rc == 5:  # TK_ATTN_ERR_ENV: a measurement hook (TK_ATTN_BWD_DQ_*) set to a bad value
                _dq_env_check(-2, lib, "attention_backward")
            if rc != _lib.ATTN_OK:
                raise RuntimeError("tk.attention_backward: %s%s"
                                   % (_msg(lib.tk_attn_strerror(rc)), _lib._no_device_hint()))
            _lib.synchronize("tk.attention_backward")
        finally:
            ws.free()
        return dq.result(), dk.result(), dv.result()
    finally:
        _free(ops)


def _shape4(x, nm, fn):
    """x's shape (array, tensor or a sequence of 4 ints) as a tuple of 4 positive ints."""
    shape = getattr(x, "shape", x)
    try:
        shape = tuple(shape)
    except TypeError:
        raise TypeError("tk.%s: %s must be an array, a tensor or a shape (batch, seq, heads, head_dim), got %s"
                        % (fn, nm, type(x).__name__)) from None
    if len(shape) != 4:
        raise ValueError("tk.%s: %s must be 4-D (batch, seq, heads, head_dim: BSHD), got shape %s" % (fn, nm, shape))
    out = []
    for n in shape:
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
            raise TypeError("tk.%s: %s's shape must hold integers, got %r" % (fn, nm, shape))
        if n < 1:
            raise ValueError("tk.%s: %s's shape must be positive, got %s" % (fn, nm, shape))
        out.append(int(n))
    return tuple(out)


class _Shape:
    def __init__(self, shape):
        self.shape = shape


def attention_backward_dq_partials(q, k, causal=False):
    """The number P of f32 partial sums through which
    attention_backward(..., deterministic=True) sums dq for these shapes on
    the current device (tk_attn_bwd_dq_partials): 1..8, or 0 when there are
    none: dq by ordered accumulation (attention_backward_dq_ordered; the
    gfx950 default) or, when one partial would pass 3.75 GiB (or
    TK_ATTN_BWD_DQ_RECOMPUTE=1 is set), a kernel that recomputes S, P, dP,
    dS for dq.  q and k: the
    tensors or arrays (their shapes) or shapes (B, Sq, Hq, D) and
    (B, Skv, Hkv, D); causal as attention_backward's.  The workspace holds P partials of
    B*Hq*ceil64(Sq)*D*4 bytes (docs/attention.md "Deterministic backward")."""
    fn = "attention_backward_dq_partials"
    sq_, sk_ = _shape4(q, "q", fn), _shape4(k, "k", fn)
    lib, p = _attn_problem(_Shape(sq_), _Shape(sk_), _Shape(sk_), causal, None, fn)
    n = lib.tk_attn_bwd_dq_partials(p)
    _dq_env_check(n, lib, fn)
    if n < 0:  # the problem passed tk_attn_problem_error above: the library disagrees with itself
        raise RuntimeError("tk.%s: the library rejected the problem (%d)" % (fn, n))
    return int(n)


def _dq_env_check(n, lib, fn):
    if n == -2:  # a measurement hook (TK_ATTN_BWD_DQ_*) set to a bad value
        import os
        raise ValueError("tk.%s: %s (TK_ATTN_BWD_DQ_PARTS=%r, TK_ATTN_BWD_DQ_ORDERED=%r, TK_ATTN_BWD_DQ_ROT=%r, "
                         "TK_ATTN_BWD_DQ_BATCHES=%r)"
                         % (fn, _msg(lib.tk_attn_strerror(5)), os.environ.get("TK_ATTN_BWD_DQ_PARTS"),
                            os.environ.get("TK_ATTN_BWD_DQ_ORDERED"), os.environ.get("TK_ATTN_BWD_DQ_ROT"),
                            os.environ.get("TK_ATTN_BWD_DQ_BATCHES")))


def attention_backward_dq_ordered(q, k, causal=False):
    """True when attention_backward(..., deterministic=True) sums dq for these
    shapes on the current device by ordered accumulation (tk_attn_bwd_dq_ordered:
    one f32 sum, each element's key-block contributions added in a fixed order;
    attention_backward_dq_partials then says 0: on a gfx950 where its rotated
    order applies, non-causal); False when it uses partials (gfx942, and
    gfx950's other shapes) or the recomputing kernel.  q and k as attention_backward_dq_partials'.
    ValueError for bad shapes or a bad TK_ATTN_BWD_DQ_* environment value."""
    fn = "attention_backward_dq_ordered"
    sq_, sk_ = _shape4(q, "q", fn), _shape4(k, "k", fn)
    lib, p = _attn_problem(_Shape(sq_), _Shape(sk_), _Shape(sk_), causal, None, fn)
    n = lib.tk_attn_bwd_dq_ordered(p)
    _dq_env_check(n, lib, fn)
    if n < 0:
        raise RuntimeError("tk.%s: the library rejected the problem (%d)" % (fn, n))
    return n == 1


def __getattr__(name):
    # tk.torch on first use, so `import tk` does not import torch
    if name == "torch":
        import importlib
        mod = importlib.import_module(".torch", __name__)
        globals()["torch"] = mod
        return mod
    raise AttributeError("module 'tk' has no attribute %r" % (name,))
