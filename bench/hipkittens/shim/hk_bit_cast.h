/* Forced-included (-include) before HipKittens' headers. HIP 5.2's float2,
 * float4, ... (HIP_vector_type) derive from HIP_vector_base, whose copy
 * assignment is user-provided (hip/amd_detail/amd_hip_vector_types.h), so they
 * are not trivially copyable and std::bit_cast (C++20 [bit.cast]: To and From
 * trivially copyable, same size) rejects them. This adds a bit_cast overload
 * for exactly that case: same size, not trivially copyable, copied with
 * memcpy (the object representation, which is what bit_cast yields). It is
 * not constexpr; the HipKittens functions the GEMM kernels instantiate use it
 * only at run time (clang-19 accepts the constexpr ones that name it). */
#pragma once
#include <bit>
#include <string.h>
#include <type_traits>
#include <hip/hip_runtime.h>

namespace std {
template <class To, class From>
  requires(sizeof(To) == sizeof(From) && !(is_trivially_copyable_v<To> && is_trivially_copyable_v<From>))
__host__ __device__ inline To bit_cast(const From &from) {
  To to;
  memcpy((void *)&to, (const void *)&from, sizeof(To)); /* void *: the copy is meant (-Wnontrivial-memcall) */
  return to;
}
} // namespace std
