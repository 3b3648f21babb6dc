"""tk.torch: tk's attention as a torch.autograd.Function.

    o = tk.torch.attention(q, k, v, causal=False, scale=None)

q (B, Sq, Hq, D), k and v (B, Skv, Hkv, D), torch.bfloat16; o like q.  The
forward keeps q, k, v, o and the log-sum-exp; backward runs
tk.attention_backward on them (dq, dk, dv in bf16)."""

import torch

import tk as _tk


class Attention(torch.autograd.Function):
    @staticmethod
    def forward(ctx, q, k, v, causal, scale):
        o, lse = _tk.attention(q, k, v, causal=causal, scale=scale)
        ctx.save_for_backward(q, k, v, o, lse)
        ctx.causal, ctx.scale = causal, scale
        return o

    @staticmethod
    def backward(ctx, do):
        q, k, v, o, lse = ctx.saved_tensors
        if do.dtype != torch.bfloat16:
            do = do.to(torch.bfloat16)
        dq, dk, dv = _tk.attention_backward(do.contiguous(), q, k, v, o, lse, causal=ctx.causal, scale=ctx.scale)
        return dq, dk, dv, None, None


def attention(q, k, v, causal=False, scale=None):
    """softmax(q k^T * scale + mask) v through tk, differentiable in q, k, v."""
    for x, n in ((q, "q"), (k, "k"), (v, "v")):
        if not isinstance(x, torch.Tensor):
            raise TypeError("tk.torch.attention: %s must be a torch tensor, got %s" % (n, type(x).__name__))
    return Attention.apply(q, k, v, causal, scale)
