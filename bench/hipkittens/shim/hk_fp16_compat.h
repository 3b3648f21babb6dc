/* Include before <hip/hip_fp16.h>. Debian's HIP 5.2 fp16 header calls
 * __llvm_amdgcn_rcp_f16/_2f16, which clang <= 19 declared in its HIP wrapper
 * (__clang_hip_libdevice_declares.h: 1/x) and clang >= 20 (the project's
 * clang-22) no longer does; same definitions, for those compilers only. */
#pragma once
#include <hip/hip_runtime.h>
#if defined(__clang__) && __clang_major__ >= 20 && defined(__CLANG_HIP_RUNTIME_WRAPPER_INCLUDED__)
typedef _Float16 hk_compat_2f16 __attribute__((ext_vector_type(2)));
__device__ inline _Float16 __llvm_amdgcn_rcp_f16(_Float16 x) { return ((_Float16)1.0f) / x; }
__device__ inline hk_compat_2f16 __llvm_amdgcn_rcp_2f16(hk_compat_2f16 x) { return ((hk_compat_2f16)1.0f) / x; }
#endif
