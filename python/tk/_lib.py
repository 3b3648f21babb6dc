"""ctypes bindings: libtk_gemm.so and libtk_attn.so (the C APIs of
examples/gemm/tk_gemm.h and examples/attention/tk_attn.h) and the few HIP
runtime calls the package needs (device memory, copies, synchronisation).

The libraries are looked up in $TK_LIB_DIR, then in this package's _lib/
(the build tree's build/python/tk/_lib, or the copy `pip install ./python`
made).  They link libamdhip64.so.5: AMD's runtime on a GPU machine, tksim's
when the interpreter runs under `tksim /usr/bin/python3 ...` (tksim puts its
runtime first on LD_LIBRARY_PATH, so ctypes' dlopen resolves to it)."""

import ctypes
import os

_HERE = os.path.dirname(os.path.abspath(__file__))


class TkLibraryError(RuntimeError):
    """A tk shared library or the HIP runtime could not be loaded."""


def _lib_dirs():
    dirs = []
    if os.environ.get("TK_LIB_DIR"):
        dirs.append(os.environ["TK_LIB_DIR"])
    dirs.append(os.path.join(_HERE, "_lib"))
    return dirs


def _load(name):
    tried = []
    for d in _lib_dirs():
        path = os.path.join(d, name)
        tried.append(path)
        if os.path.exists(path):
            try:
                return ctypes.CDLL(path)
            except OSError as e:
                raise TkLibraryError("tk: cannot load %s: %s" % (path, e)) from None
    raise TkLibraryError(
        "tk: %s not found (looked in %s); build it with `cmake --build build --target tk_python` and use "
        "PYTHONPATH=build/python, or `pip install ./python` after that build, or set TK_LIB_DIR"
        % (name, ", ".join(tried)))


# ---- struct mirrors (checked against the library's own sizeof/offsetof) ----

class GemmProblem(ctypes.Structure):
    _fields_ = [
        ("m", ctypes.c_int64), ("n", ctypes.c_int64), ("k", ctypes.c_int64), ("batch", ctypes.c_int64),
        ("lda", ctypes.c_int64), ("ldb", ctypes.c_int64), ("ldc", ctypes.c_int64),
        ("layout", ctypes.c_int32), ("out", ctypes.c_int32), ("grid_order", ctypes.c_int32),
        ("alpha", ctypes.c_float), ("beta", ctypes.c_float),
        ("in_", ctypes.c_int32), ("act", ctypes.c_int32), ("bias", ctypes.c_int32), ("bias_type", ctypes.c_int32),
        ("bias_len", ctypes.c_int64), ("bias_ptr", ctypes.c_void_p),
        ("scale_a", ctypes.c_float), ("scale_b", ctypes.c_float),
        ("mx_scale_a", ctypes.c_void_p), ("mx_scale_b", ctypes.c_void_p),
        ("mx_scale_a_len", ctypes.c_int64), ("mx_scale_b_len", ctypes.c_int64),
    ]


class AttnProblem(ctypes.Structure):
    _fields_ = [
        ("b", ctypes.c_int64), ("hq", ctypes.c_int64), ("hkv", ctypes.c_int64),
        ("sq", ctypes.c_int64), ("skv", ctypes.c_int64), ("d", ctypes.c_int64),
        ("causal", ctypes.c_int32), ("scale", ctypes.c_float),
        ("str", (ctypes.c_int64 * 3) * 4),
    ]


# tk_gemm.h / tk_attn.h enum values
GEMM_NT, GEMM_NN = 0, 1
GEMM_OUT_BF16, GEMM_OUT_F32 = 0, 1
GEMM_BIAS_NONE, GEMM_BIAS_ROW, GEMM_BIAS_COL = 0, 1, 2
GEMM_BIAS_F32, GEMM_BIAS_BF16 = 0, 1
GEMM_AUTO = 0
GEMM_OK = 0
ATTN_OK = 0
ATTN_BWD_DETERMINISTIC = 1  # tk_attn.h TK_ATTN_BWD_DETERMINISTIC
ATTN_Q, ATTN_K, ATTN_V, ATTN_O = 0, 1, 2, 3

_P = ctypes.c_void_p
_S = ctypes.c_char_p


def _check_layout(lib, fn, cls, fields):
    out = (ctypes.c_size_t * 3)()
    getattr(lib, fn)(out)
    mine = (ctypes.sizeof(cls),) + tuple(getattr(cls, f).offset for f in fields)
    if tuple(out) != mine:
        raise TkLibraryError("tk: %s layout %s in the library, %s in tk/_lib.py: rebuild the package with the library"
                             % (cls.__name__, tuple(out), mine))


class _Libs:
    """Loaded on first use, so `import tk` works without the libraries."""

    def __init__(self):
        self._gemm = self._attn = self._hip = None

    @property
    def gemm(self):
        if self._gemm is None:
            lib = _load("libtk_gemm.so")
            lib.tk_py_gemm_problem_layout.argtypes = [ctypes.c_void_p]
            _check_layout(lib, "tk_py_gemm_problem_layout", GemmProblem, ("bias_ptr", "scale_b"))
            lib.tk_gemm_problem_init.argtypes = [ctypes.POINTER(GemmProblem), ctypes.c_int64, ctypes.c_int64,
                                                 ctypes.c_int64]
            lib.tk_gemm_problem_init.restype = None
            lib.tk_gemm_problem_error.argtypes = [ctypes.POINTER(GemmProblem)]
            lib.tk_gemm_problem_error.restype = _S
            lib.tk_gemm_unsupported.argtypes = [ctypes.c_int, ctypes.POINTER(GemmProblem)]
            lib.tk_gemm_unsupported.restype = _S
            lib.tk_gemm_act_parse.argtypes = [_S, ctypes.c_void_p]
            lib.tk_gemm_act_parse.restype = ctypes.c_int
            lib.tk_gemm.argtypes = [ctypes.POINTER(GemmProblem), ctypes.c_int, _P, _P, _P, _P]
            lib.tk_gemm.restype = ctypes.c_int
            lib.tk_gemm_strerror.argtypes = [ctypes.c_int]
            lib.tk_gemm_strerror.restype = _S
            self._gemm = lib
        return self._gemm

    @property
    def attn(self):
        if self._attn is None:
            lib = _load("libtk_attn.so")
            lib.tk_py_attn_problem_layout.argtypes = [ctypes.c_void_p]
            _check_layout(lib, "tk_py_attn_problem_layout", AttnProblem, ("scale", "str"))
            lib.tk_attn_problem_init.argtypes = [ctypes.POINTER(AttnProblem)] + [ctypes.c_int64] * 6 + [ctypes.c_int]
            lib.tk_attn_problem_init.restype = None
            lib.tk_attn_problem_error.argtypes = [ctypes.POINTER(AttnProblem)]
            lib.tk_attn_problem_error.restype = _S
            lib.tk_attn_elems.argtypes = [ctypes.POINTER(AttnProblem), ctypes.c_int]
            lib.tk_attn_elems.restype = ctypes.c_int64
            lib.tk_attn_lse_elems.argtypes = [ctypes.POINTER(AttnProblem)]
            lib.tk_attn_lse_elems.restype = ctypes.c_int64
            lib.tk_attn_fwd.argtypes = [ctypes.POINTER(AttnProblem), _P, _P, _P, _P, _P, _P]
            lib.tk_attn_fwd.restype = ctypes.c_int
            lib.tk_attn_fwd_workspace_bytes.argtypes = [ctypes.POINTER(AttnProblem)]
            lib.tk_attn_fwd_workspace_bytes.restype = ctypes.c_size_t
            # q k v o lse workspace workspace_bytes stream
            lib.tk_attn_fwd_ws.argtypes = [ctypes.POINTER(AttnProblem)] + [_P] * 6 + [ctypes.c_size_t, _P]
            lib.tk_attn_fwd_ws.restype = ctypes.c_int
            lib.tk_attn_bwd_workspace_bytes.argtypes = [ctypes.POINTER(AttnProblem)]
            lib.tk_attn_bwd_workspace_bytes.restype = ctypes.c_size_t
            lib.tk_attn_bwd.argtypes = [ctypes.POINTER(AttnProblem)] + [_P] * 11  # q k v o do lse dq dk dv ws stream
            lib.tk_attn_bwd.restype = ctypes.c_int
            lib.tk_attn_bwd_workspace_bytes_flags.argtypes = [ctypes.POINTER(AttnProblem), ctypes.c_uint]
            lib.tk_attn_bwd_workspace_bytes_flags.restype = ctypes.c_size_t
            # q k v o do lse dq dk dv ws flags stream
            lib.tk_attn_bwd_flags.argtypes = [ctypes.POINTER(AttnProblem)] + [_P] * 10 + [ctypes.c_uint, _P]
            lib.tk_attn_bwd_flags.restype = ctypes.c_int
            # TK_ATTN_BWD_DETERMINISTIC's dQ: f32 partial sums (1..8), 0 recomputing dq kernel, -1 bad problem
            lib.tk_attn_bwd_dq_partials.argtypes = [ctypes.POINTER(AttnProblem)]
            lib.tk_attn_bwd_dq_partials.restype = ctypes.c_int
            # its dQ by ordered accumulation instead: 1 yes, 0 no, -1 bad problem, -2 bad TK_ATTN_BWD_DQ_* value
            lib.tk_attn_bwd_dq_ordered.argtypes = [ctypes.POINTER(AttnProblem)]
            lib.tk_attn_bwd_dq_ordered.restype = ctypes.c_int
            lib.tk_attn_strerror.argtypes = [ctypes.c_int]
            lib.tk_attn_strerror.restype = _S
            self._attn = lib
        return self._attn

    @property
    def hip(self):
        if self._hip is None:
            # a tk library first: it brings the libamdhip64.so.5 this process
            # uses (tksim's under tksim), which this dlopen then finds
            if self._gemm is None and self._attn is None:
                self.gemm
            try:
                lib = ctypes.CDLL("libamdhip64.so.5")
            except OSError as e:
                raise TkLibraryError("tk: cannot load the HIP runtime libamdhip64.so.5: %s" % e) from None
            lib.hipMalloc.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_size_t]
            lib.hipFree.argtypes = [_P]
            lib.hipMemcpy.argtypes = [_P, _P, ctypes.c_size_t, ctypes.c_int]
            lib.hipMemset.argtypes = [_P, ctypes.c_int, ctypes.c_size_t]
            lib.hipDeviceSynchronize.argtypes = []
            lib.hipGetLastError.argtypes = []
            lib.hipGetErrorString.argtypes = [ctypes.c_int]
            lib.hipGetErrorString.restype = _S
            for f in ("hipMalloc", "hipFree", "hipMemcpy", "hipMemset", "hipDeviceSynchronize", "hipGetLastError"):
                getattr(lib, f).restype = ctypes.c_int
            self._hip = lib
        return self._hip


libs = _Libs()

HIP_H2D, HIP_D2H, HIP_D2D = 1, 2, 3


def _no_device_hint():
    if os.environ.get("TKSIM_ACTIVE"):
        return ""
    return (" (no AMD GPU here? run the interpreter under tksim: build/bin/tksim /usr/bin/python3 script.py)")


def hip_check(rc, what):
    if rc != 0:
        msg = libs.hip.hipGetErrorString(rc)
        raise RuntimeError("tk: %s failed: %s%s" % (what, msg.decode() if msg else rc, _no_device_hint()))


class DeviceBuffer:
    """hipMalloc'd bytes, freed with the object (or at `free()`)."""

    def __init__(self, nbytes):
        self.ptr = ctypes.c_void_p()
        self.nbytes = max(int(nbytes), 1)
        self._hip = libs.hip
        hip_check(self._hip.hipMalloc(ctypes.byref(self.ptr), self.nbytes), "hipMalloc(%d bytes)" % self.nbytes)

    def upload(self, arr):
        hip_check(self._hip.hipMemcpy(self.ptr, arr.ctypes.data, arr.nbytes, HIP_H2D), "hipMemcpy to the device")

    def download(self, arr):
        hip_check(self._hip.hipMemcpy(arr.ctypes.data, self.ptr, arr.nbytes, HIP_D2H), "hipMemcpy to the host")

    def zero(self):
        hip_check(self._hip.hipMemset(self.ptr, 0, self.nbytes), "hipMemset")

    def free(self):
        if self.ptr:
            self._hip.hipFree(self.ptr)
            self.ptr = ctypes.c_void_p()

    def __del__(self):
        try:
            self.free()
        except Exception:
            pass


def synchronize(what):
    hip = libs.hip
    hip_check(hip.hipGetLastError(), what + " launch")
    hip_check(hip.hipDeviceSynchronize(), what)
