/* tk/target.h: facts about the target GPU (gfx942 or gfx950), in one place.
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

/* Which target's facts apply: in a device pass clang defines __gfx942__ or
 * __gfx950__ (one pass per --offload-arch, so a fat binary gets each its own
 * facts); the host pass sees neither and uses gfx942's unless the user
 * defines TK_TARGET_GFX950 (host code that must know the device asks the
 * runtime: hipDeviceProp_t::gcnArchName). */
#if defined(__gfx950__) || (!defined(__gfx942__) && defined(TK_TARGET_GFX950))
/* --- gfx950 (MI350X / MI355X, CDNA4) ---
 * Sources: AMD CDNA4 ISA guide (MFMA set: 16x16x32 / 32x32x16 f16 and bf16,
 * f8f6f4 16x16x128 / 32x32x64 with optional E8M0 block scales; fp8/bf8 in the
 * OCP E4M3FN / E5M2 encodings); AMD's CDNA4 announcement (LDS 160 KiB per CU,
 * double the LDS read bandwidth; MI355X 256 CUs in 8 XCDs); LLVM 22
 * (clang-22 accepts 163840 bytes of LDS per workgroup for gfx950 and refuses
 * 163844). LDS banks: 64 x 4 bytes (Modular's MAX docs for MI355X:
 * "64 LDS banks x 4 bytes each"; CK-tile docs: "32 or 64 banks depending on
 * the hardware architecture"), i.e. the doubled read bandwidth; tk's
 * swizzled layout spreads over the 256-byte window (shared.h). Which lanes
 * share a phase is not documented: docs/hardware.md "CDNA4". */
#define TK_TARGET_NAME "gfx950"
#define TK_TARGET_GFX 950
#define TK_WAVE_SIZE 64
#define TK_LDS_BYTES 163840         /* per work-group: 160 KiB */
#define TK_LDS_BANKS 64             /* see the note above */
#define TK_LDS_BANK_BYTES 4
#define TK_NUM_XCDS 8
#define TK_NUM_CUS 256              /* MI355X (MI350X also 256) */
#define TK_FP8_FNUZ 0               /* fp8 e4m3/e5m2 use the OCP encoding */
#define TK_HAS_MFMA_FP8 1           /* v_mfma_f32_*_fp8_fp8 (OCP formats here) */
#define TK_HAS_MFMA_I8_X32 1        /* v_mfma_i32_16x16x32_i8 */
#define TK_HAS_MFMA_F16_X2 1        /* v_mfma_f32_{16x16x32,32x32x16}_{f16,bf16} */
#define TK_HAS_MFMA_F8F6F4 1        /* v_mfma[_scale]_f32_{16x16x128,32x32x64}_f8f6f4 */
#define TK_HAS_DS_READ_TR 1         /* ds_read_b64_tr_b16 and friends */
#define TK_HAS_GLOBAL_LOAD_LDS_X4 1 /* global_load_lds_dwordx3 / _dwordx4 */
#define TK_HAS_CVT_PK_BF16 1        /* v_cvt_pk_bf16_f32 (two f32 -> two bf16, RNE) */
#define TK_HAS_PERMLANE_SWAP 1      /* v_permlane{16,32}_swap_b32 (CDNA4 ISA guide, VOP1) */
/* buffer resource dword3: unchanged from gfx94x (same GFX9 V# format) */
#define TK_BUFFER_RSRC_DWORD3 0x00020000u
#else
/* --- gfx942 (MI300X / MI325X, CDNA3; the default) --- */
#define TK_TARGET_NAME "gfx942"
#define TK_TARGET_GFX 942
#define TK_WAVE_SIZE 64
#define TK_LDS_BYTES 65536          /* per work-group */
#define TK_LDS_BANKS 32
#define TK_LDS_BANK_BYTES 4
#define TK_NUM_XCDS 8
#define TK_NUM_CUS 304              /* MI300X and MI325X */
#define TK_FP8_FNUZ 1               /* fp8 e4m3/e5m2 use the FNUZ encoding */
#define TK_HAS_MFMA_FP8 1           /* v_mfma_f32_*_fp8_fp8 (gfx940+) */
#define TK_HAS_MFMA_I8_X32 1        /* v_mfma_i32_16x16x32_i8 (gfx940+) */
#define TK_HAS_MFMA_F16_X2 0
#define TK_HAS_MFMA_F8F6F4 0
#define TK_HAS_DS_READ_TR 0
#define TK_HAS_GLOBAL_LOAD_LDS_X4 0
#define TK_HAS_CVT_PK_BF16 0
#define TK_HAS_PERMLANE_SWAP 0
/* Buffer resource dword3 for a raw buffer on gfx9 (gfx90a/gfx94x):
 * DST_SEL_X..W = 0, NUM_FORMAT = 0, DATA_FORMAT = 4 (32 bit) at bits 15..18
 * -> 0x00020000.  Same value as Composable Kernel's
 * CK_BUFFER_RESOURCE_3RD_DWORD for gfx90a/gfx94x. */
#define TK_BUFFER_RSRC_DWORD3 0x00020000u
#endif

/* what TK_LDS_CHECK holds a layout to: the device pass knows its target; the
 * host pass of a fat binary does not, so it allows the largest (gfx950's) */
#if TK_DEVICE_PASS
#define TK_LDS_BYTES_LIMIT TK_LDS_BYTES
#else
#define TK_LDS_BYTES_LIMIT 163840
#endif

/* TK_OPAQUE_IDS (define it before including tk): lane and wave ids
 * (tk_lane_id, tk_lane, tk_wave_id) are
 * recomputed at each use (two or one instructions) instead of computed once
 * and hoisted.  For kernels that run a whole tile computation in a loop
 * (e.g. stream-K segments): clang otherwise hoists every lane-derived
 * address out of that loop and holds it in registers across the tile's main
 * loop, and spills. */
#ifdef TK_OPAQUE_IDS
#define TK__OPAQUE_ID(cons, x) asm volatile("" : cons(x))
#else
#define TK__OPAQUE_ID(cons, x) ((void)0)
#endif

#endif /* TK_TARGET_H */
