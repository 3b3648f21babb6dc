/* ROCm 6 puts hip_fp16.h on the include path top level; HIP 5.2 has it only as
 * <hip/hip_fp16.h>. HipKittens includes the former. */
#pragma once
#include "hk_fp16_compat.h"
#include <hip/hip_fp16.h>
