"""Inputs and outputs of the tk calls: torch tensors and NumPy arrays to and
from device memory holding bf16 (or f32) elements.

- torch.bfloat16 tensors on the CPU are copied to the device and the
  results back to CPU tensors; tensors already on the GPU (a ROCm build of
  torch, device type "cuda") are used in place through data_ptr() and the
  results allocated there (that path needs a GPU: Debian's torch is CPU only).
- NumPy float32 arrays are rounded to bf16 to nearest, ties to even; NumPy
  uint16 arrays are taken as bf16 bit patterns.  Outputs of a NumPy call are
  float32 arrays (bf16 values widened exactly), or uint16 bf16 bits when the
  first operand was uint16.
"""

import sys

import numpy as np

from . import _lib


def _torch():
    return sys.modules.get("torch")


def is_torch(x):
    t = _torch()
    return t is not None and isinstance(x, t.Tensor)


def f32_to_bf16_bits(f):
    """float32 array -> uint16 bf16 bits, round to nearest even (NaN stays a quiet NaN)."""
    f = np.ascontiguousarray(f, dtype=np.float32)
    u = f.view(np.uint32).astype(np.uint64)
    r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    nan = np.isnan(f)
    if nan.any():
        r[nan] = ((u[nan] >> 16) | 0x40).astype(np.uint16)
    return r


def bf16_bits_to_f32(b):
    """uint16 bf16 bits -> float32 array (exact)."""
    return (np.ascontiguousarray(b, dtype=np.uint16).astype(np.uint32) << 16).view(np.float32)


class Operand:
    """One input: its shape, its kind and where its elements are.

    host: a contiguous NumPy array (uint16 bf16 bits or float32) to upload;
    ptr: a device address (GPU-resident torch tensors) used in place."""

    def __init__(self, name, shape, kind, host=None, ptr=None, device=None, bits_in=False):
        self.name, self.shape, self.kind = name, tuple(int(s) for s in shape), kind
        self.host, self.ptr, self.device, self.bits_in = host, ptr, device, bits_in
        self._buf = None

    def device_ptr(self):
        if self.ptr is not None:
            return self.ptr
        if self._buf is None:
            self._buf = _lib.DeviceBuffer(self.host.nbytes)
            self._buf.upload(self.host)
        return self._buf.ptr.value

    def free(self):
        if self._buf is not None:
            self._buf.free()


def _type_name(x):
    t = type(x)
    return getattr(x, "dtype", None) and "%s of %s" % (t.__name__, x.dtype) or t.__name__


def bf16_operand(x, name):
    """A bf16 input: torch.bfloat16 tensor, NumPy float32 (rounded) or uint16 (bits)."""
    if is_torch(x):
        torch = _torch()
        if x.dtype != torch.bfloat16:
            raise TypeError("tk: %s must be a torch.bfloat16 tensor, got %s" % (name, x.dtype))
        x = x.detach()
        if x.device.type == "cpu":
            bits = x.contiguous().view(torch.int16).numpy().view(np.uint16)
            return Operand(name, x.shape, "torch", host=bits)
        if not x.is_contiguous():
            raise ValueError("tk: %s is a non-contiguous %s tensor; pass %s.contiguous()" % (name, x.device, name))
        return Operand(name, x.shape, "torch", ptr=x.data_ptr(), device=x.device)
    if isinstance(x, np.ndarray):
        if x.dtype == np.float32:
            return Operand(name, x.shape, "numpy", host=f32_to_bf16_bits(x))
        if x.dtype == np.uint16:
            return Operand(name, x.shape, "numpy", host=np.ascontiguousarray(x), bits_in=True)
        raise TypeError("tk: %s must be a NumPy float32 array (rounded to bf16) or uint16 array (bf16 bits), got %s"
                        % (name, x.dtype))
    raise TypeError("tk: %s must be a torch.bfloat16 tensor or a NumPy float32/uint16 array, got %s"
                    % (name, _type_name(x)))


def f32_operand(x, name):
    """A float32 input: torch.float32 tensor or NumPy float32 array."""
    if is_torch(x):
        torch = _torch()
        if x.dtype != torch.float32:
            raise TypeError("tk: %s must be a torch.float32 tensor, got %s" % (name, x.dtype))
        x = x.detach()
        if x.device.type == "cpu":
            return Operand(name, x.shape, "torch", host=x.contiguous().numpy())
        if not x.is_contiguous():
            raise ValueError("tk: %s is a non-contiguous %s tensor; pass %s.contiguous()" % (name, x.device, name))
        return Operand(name, x.shape, "torch", ptr=x.data_ptr(), device=x.device)
    if isinstance(x, np.ndarray):
        if x.dtype != np.float32:
            raise TypeError("tk: %s must be a NumPy float32 array, got %s" % (name, x.dtype))
        return Operand(name, x.shape, "numpy", host=np.ascontiguousarray(x))
    raise TypeError("tk: %s must be a torch.float32 tensor or a NumPy float32 array, got %s" % (name, _type_name(x)))


def same_kind(ops):
    """All operands torch or all NumPy, all on the host or all on one device."""
    first = ops[0]
    for o in ops[1:]:
        if o.kind != first.kind:
            raise TypeError("tk: %s is a %s input but %s a %s one: pass all as torch tensors or all as NumPy arrays"
                            % (first.name, first.kind, o.name, o.kind))
        if (o.device is None) != (first.device is None) or (o.device is not None and o.device != first.device):
            raise ValueError("tk: %s is on %s but %s on %s: all inputs must be on one device"
                             % (first.name, first.device or "cpu", o.name, o.device or "cpu"))
    return first


class Output:
    """A result: device memory (ours, or a GPU torch tensor's), then the
    object the caller gets (same kind as `like`)."""

    def __init__(self, like, shape, dtype, init=None):
        # dtype: "bf16" or "f32"
        self.like, self.shape, self.dtype = like, tuple(shape), dtype
        n = int(np.prod(self.shape)) if self.shape else 1
        self.nbytes = n * (2 if dtype == "bf16" else 4)
        self.tensor = None
        if like.device is not None:
            torch = _torch()
            tdt = torch.bfloat16 if dtype == "bf16" else torch.float32
            self.tensor = torch.empty(self.shape, dtype=tdt, device=like.device)
            self.ptr = self.tensor.data_ptr()
            if init is not None:
                _lib.hip_check(_lib.libs.hip.hipMemcpy(self.ptr, init.device_ptr(), self.nbytes, _lib.HIP_D2D),
                               "hipMemcpy on the device")
            self._buf = None
        else:
            self._buf = _lib.DeviceBuffer(self.nbytes)
            if init is not None:
                self._buf.upload(init.host)
            else:
                self._buf.zero()
            self.ptr = self._buf.ptr.value

    def result(self):
        if self.tensor is not None:
            return self.tensor
        host = np.empty(self.shape, dtype=np.uint16 if self.dtype == "bf16" else np.float32)
        self._buf.download(host)
        self._buf.free()
        if self.like.kind == "torch":
            torch = _torch()
            t = torch.from_numpy(host.view(np.int16) if self.dtype == "bf16" else host)
            return t.view(torch.bfloat16) if self.dtype == "bf16" else t
        if self.dtype == "bf16" and not self.like.bits_in:
            return bf16_bits_to_f32(host).reshape(self.shape)
        return host
