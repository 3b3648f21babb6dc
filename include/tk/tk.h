/* tk/tk.h: all of tk, a header-only C-style tile-primitive library for AMD
 * Instinct GPUs (gfx942: MI300X, MI325X) in HIP: kernels are written with
 * global, LDS and register tiles, group loads, MFMA wrappers, waits and grid
 * mappings instead of raw intrinsics and hand-counted s_waitcnt.
 *
 * One concern per header (include only the ones you need, if you prefer):
 * target.h    target facts (LDS size, wave size, XCDs, CUs) and qualifiers
 * types.h     element types (bf16, f16, fp8), conversions, vector types
 * global.h    global tensors and buffer descriptors (tk_gl, tk_rsrc)
 * shared.h    LDS tiles, swizzled layouts, allocation checks
 * register.h  register fragments and tiles in MFMA layouts
 * mma.h       MFMA wrappers over register tiles
 * softmax.h   masks and exp2 maps on accumulator tiles (attention)
 * loads.h     group loads global -> LDS, LDS -> register prefetch
 * epilogue.h  the fused GEMM epilogue: bias per row/column, activations
 * stores.h    accumulators -> LDS -> global stores with alpha/beta (+ epilogue)
 * sync.h      waits, barriers, scheduling hints, wave/lane/group identity
 * grid.h      tile order: L2 grouping and the XCD remap
 * vec.h       row vectors (row-wise kernels): masked 16-byte loads/stores,
 *             group reductions, fences, LDS tile <-> accumulator conversions
 * Each header names the hardware facts it relies on and their sources. */
#ifndef TK_TK_H
#define TK_TK_H
#include "target.h"
#include "types.h"
#include "global.h"
#include "shared.h"
#include "register.h"
#include "mma.h"
#include "softmax.h"
#include "loads.h"
#include "lds_tr.h"
#include "epilogue.h"
#include "stores.h"
#include "sync.h"
#include "grid.h"
#include "flag.h"
#include "vec.h"
#endif
