/* abi_gemm.c: in libtk_gemm.so only, for the Python package (python/tk):
 * tk_gemm_problem's size and field offsets, which tk/_lib.py compares with
 * its ctypes mirror of the struct before any call, so a changed header fails
 * with a message instead of passing shifted fields. */
#include <stddef.h>
#include "tk_gemm.h"

/* out: sizeof, offsetof(bias_ptr), offsetof(scale_b) */
void tk_py_gemm_problem_layout(size_t out[3]) {
  out[0] = sizeof(tk_gemm_problem);
  out[1] = offsetof(tk_gemm_problem, bias_ptr);
  out[2] = offsetof(tk_gemm_problem, scale_b);
}
