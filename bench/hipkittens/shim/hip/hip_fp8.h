/* <hip/hip_fp8.h>: the top-level shim (HIP 5.2 has neither). */
#pragma once
#include "../hip_fp8.h"
