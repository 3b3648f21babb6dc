/* <hip/hip_bf16.h> for MoonMath's attention kernel on HIP 5.2 (which has no
 * hip_bf16.h): HipKittens' stand-in (bench/hipkittens/shim/hip_bf16.h) has
 * the __hip_bfloat16 type it uses. */
#pragma once
#include "../../../hipkittens/shim/hip_bf16.h"
