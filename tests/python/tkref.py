"""float64 references for the tk Python tests (torch, CPU), independent of tk:
bf16 inputs widened exactly, every product and sum in float64."""
import math

import numpy as np
import torch


def bf16(x):
    """float32 array -> the float64 values of its bf16 rounding (round to nearest even, via torch)."""
    return torch.from_numpy(np.asarray(x, dtype=np.float32)).to(torch.bfloat16).to(torch.float64)


def gemm(a, b, layout="nt", alpha=1.0, beta=0.0, c=None, bias=None, bias_dim="row", act=None):
    """returns (ref, mag): act(alpha A op(B) + beta C + bias) and the sum of |terms| before act."""
    bt = b.transpose(-1, -2) if layout == "nt" else b
    pre = alpha * (a @ bt)
    mag = abs(alpha) * (a.abs() @ bt.abs())
    if c is not None and beta != 0:
        pre = pre + beta * c
        mag = mag + abs(beta) * c.abs()
    if bias is not None:
        bv = bias.reshape(-1, 1) if bias_dim == "row" else bias.reshape(1, -1)
        pre = pre + bv
        mag = mag + bv.abs()
    if act in (None, "none"):
        out = pre
    elif act == "relu":
        out = torch.relu(pre)
    elif act == "gelu":
        out = 0.5 * pre * (1 + torch.tanh(math.sqrt(2 / math.pi) * (pre + 0.044715 * pre ** 3)))
    elif act == "gelu-erf":
        out = 0.5 * pre * (1 + torch.erf(pre / math.sqrt(2)))
    elif act == "silu":
        out = pre * torch.sigmoid(pre)
    return out, mag, pre


def attention(q, k, v, causal=False, scale=None):
    """BSHD float64 tensors -> (o, lse); differentiable (torch autograd)."""
    B, Sq, Hq, D = q.shape
    Skv, Hkv = k.shape[1], k.shape[2]
    scale = 1 / math.sqrt(D) if scale is None else scale
    g = Hq // Hkv
    kk = k.repeat_interleave(g, dim=2)
    vv = v.repeat_interleave(g, dim=2)
    s = torch.einsum("bqhd,bkhd->bhqk", q, kk) * scale
    if causal:
        i = torch.arange(Sq).reshape(-1, 1)
        j = torch.arange(Skv).reshape(1, -1)
        s = s.masked_fill(j > i + Skv - Sq, float("-inf"))
    lse = torch.logsumexp(s, dim=-1)
    p = torch.softmax(s, dim=-1)
    o = torch.einsum("bhqk,bkhd->bqhd", p, vv)
    return o, lse, p
