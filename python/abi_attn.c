/* abi_attn.c: in libtk_attn.so only, for the Python package (python/tk):
 * tk_attn_problem's size and field offsets, compared by tk/_lib.py with its
 * ctypes mirror of the struct before any call. */
#include <stddef.h>
#include "tk_attn.h"

/* out: sizeof, offsetof(scale), offsetof(str) */
void tk_py_attn_problem_layout(size_t out[3]) {
  out[0] = sizeof(tk_attn_problem);
  out[1] = offsetof(tk_attn_problem, scale);
  out[2] = offsetof(tk_attn_problem, str);
}
