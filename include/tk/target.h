/* tk/target.h: facts about the target GPU, in one place so another target
 * (gfx950) can be added by a new #elif block.
 *
 * gfx942 (MI300X / MI325X, CDNA3), sources: AMD CDNA3 ISA guide ("Local data
 * share": 64 KiB LDS per work-group, 32 banks of 4 bytes; "Matrix arithmetic
 * instructions": MFMA set incl. FP8/BF8 in FNUZ encoding), LLVM AMDGPUUsage
 * (gfx942: wave64, buffer resource), AMD MI300X/MI325X data sheets (8 XCDs,
 * 304 CUs).  Also: the host/device qualifier macros used by every tk header,
 * so the host parts of tk compile with a plain C++ compiler.
 */
#ifndef TK_TARGET_H
#define TK_TARGET_H

#include <stdint.h>

/* The qualifiers are clang's own attributes, not the __host__/__device__/
 * __shared__ macros of hip_runtime.h, so tk needs no HIP header at all and
 * works the same with Debian's HIP 5.2 and ROCm 6/7 (tests/tk: -nogpuinc). */
#if defined(__HIP__) || defined(__HIPCC__)
#define TK_HIP 1
#define TK_HD __attribute__((host)) __attribute__((device))
#define TK_DEV __attribute__((device))
#define TK_SHARED __attribute__((shared))
#else
#define TK_HIP 0
#define TK_HD
#define TK_DEV
#define TK_SHARED
#endif

/* every tk function: a C-style, always-inlined static function */
#define TK_INLINE static inline __attribute__((always_inline))
#define TK_HDI TK_INLINE TK_HD
#define TK_DI TK_INLINE TK_DEV

/* device code for the target, as opposed to the host pass of a HIP build */
#if defined(__HIP_DEVICE_COMPILE__) && __HIP_DEVICE_COMPILE__
#define TK_DEVICE_PASS 1
#else
#define TK_DEVICE_PASS 0
#endif

#if !defined(TK_TARGET_GFX950)
/* --- gfx942 (default) --- */
#define TK_TARGET_NAME "gfx942"
#define TK_WAVE_SIZE 64
#define TK_LDS_BYTES 65536          /* per work-group */
#define TK_LDS_BANKS 32
#define TK_LDS_BANK_BYTES 4
#define TK_NUM_XCDS 8
#define TK_NUM_CUS 304              /* MI300X and MI325X */
#define TK_FP8_FNUZ 1               /* fp8 e4m3/e5m2 use the FNUZ encoding */
#define TK_HAS_MFMA_FP8 1           /* v_mfma_f32_*_fp8_fp8 (gfx940+) */
#define TK_HAS_MFMA_I8_X32 1        /* v_mfma_i32_16x16x32_i8 (gfx940+) */
/* Buffer resource dword3 for a raw buffer on gfx9 (gfx90a/gfx94x):
 * DST_SEL_X..W = 0, NUM_FORMAT = 0, DATA_FORMAT = 4 (32 bit) at bits 15..18
 * -> 0x00020000.  Same value as Composable Kernel's
 * CK_BUFFER_RESOURCE_3RD_DWORD for gfx90a/gfx94x. */
#define TK_BUFFER_RSRC_DWORD3 0x00020000u
#else
#error "tk: gfx950 target facts are not filled in yet (LDS is 160 KiB there)"
#endif

#endif /* TK_TARGET_H */
