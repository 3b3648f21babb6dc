/* arch.c: the targets tksim emulates and the facts that differ between them.
 *
 * EF_AMDGPU_MACH values: LLVM AMDGPUUsage, "AMDGPU EF_AMDGPU_MACH Values"
 * (gfx942 0x4c, gfx950 0x4f). LDS per workgroup: 64 KiB on gfx942 (CDNA3 ISA
 * guide, "Local Data Share"); 160 KiB on gfx950 (AMD's CDNA4 announcement,
 * docs/hardware.md "CDNA4"; clang-22 accepts 163840 bytes of static LDS for
 * gfx950 and refuses 163844: "local memory (163844) exceeds limit (163840)").
 */
#include <string.h>
#include "tksim.h"

int tks_arch_id(const char *name)
{
  if (!name) return -1;
  if (!strcmp(name, "gfx942")) return TKS_ARCH_GFX942;
  if (!strcmp(name, "gfx950")) return TKS_ARCH_GFX950;
  return -1;
}

const char *tks_arch_name(int arch)
{
  return arch == TKS_ARCH_GFX942 ? "gfx942" : arch == TKS_ARCH_GFX950 ? "gfx950" : "?";
}

uint32_t tks_arch_mach(int arch)
{
  return arch == TKS_ARCH_GFX942 ? 0x4c : arch == TKS_ARCH_GFX950 ? 0x4f : 0;
}

uint32_t tks_arch_lds_bytes(int arch)
{
  return arch == TKS_ARCH_GFX950 ? 160u * 1024u : 64u * 1024u;
}
