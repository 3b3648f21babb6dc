/* loader.h: loader helpers beyond the tksim.h contract, used by the runtime
 * and the tests. */
#ifndef TKS_LOADER_H
#define TKS_LOADER_H
#include <stddef.h>
#include <stdint.h>
#include "tksim.h"

/* Bytes an image occupies, read from its own header, for callers that only
 * have a pointer (__hipRegisterFatBinary, hipModuleLoadData): a raw AMDGPU
 * ELF, a __CLANG_OFFLOAD_BUNDLE__ or a CCOB. 0 if the header is unknown.
 * Reads at most the headers, never beyond max. */
size_t tks_image_extent(const uint8_t *data, size_t max);
/* Readable bytes from ptr to the end of the readable mappings holding it
 * (0: not readable). */
size_t tks_readable_extent(const void *ptr);
/* tks_image_extent bounded by tks_readable_extent: what the runtime uses for
 * images it gets by pointer alone. 0: unknown header, or an image whose
 * headers reach past readable memory. */
size_t tks_image_extent_at(const uint8_t *data);

/* Whether data starts like an ELF file. */
int tks_is_elf(const uint8_t *data, size_t size);

/* Loads an image of any of the three forms (bundle -> the entry for the
 * run's target, tks_get_options()->arch). */
int tks_load_image(const uint8_t *data, size_t size, tks_code_object *out,
                   char *err, size_t errlen);

tks_kernel *tks_find_kernel(tks_code_object *co, const char *name);
/* The device global NAME, or -1. */
int tks_find_global(const tks_code_object *co, const char *name, uint64_t *addr, uint64_t *size);

/* EF_AMDGPU_MACH values (AMDGPUUsage "ELF Header", table AMDGPU EF_AMDGPU_MACH). */
#define TKS_EF_AMDGPU_MACH_MASK 0xff
#define TKS_EF_AMDGPU_MACH_GFX942 0x4c
#define TKS_EF_AMDGPU_MACH_GFX950 0x4f
#endif
