/* tksim.h: the contracts between tksim's stages.
 *
 * tksim runs gfx942 (CDNA3) and gfx950 (CDNA4) HIP programs on the CPU, as one
 * device of either target (tksim --arch, TKSIM_ARCH; default gfx942). The program's host code is left
 * alone; its HIP runtime (libamdhip64.so.5) is replaced by ours (sim/runtime),
 * which the `tksim` driver (sim/driver) puts first on LD_LIBRARY_PATH.
 *
 *   runtime (HIP API) --registers fat binaries--> loader (bundle, ELF, kernel
 *   descriptor, msgpack metadata) --tks_kernel--> exec (decoder, waves, units)
 *   <--> memory (allocation table, checks) --> checkers, reports, model
 *
 * Device memory is host memory: a device address is the host address of the
 * bytes, so a global load is a checked host load. The ABI (initial SGPRs,
 * VGPRs, kernarg layout, hidden arguments) follows LLVM's AMDGPUUsage, sections
 * "Code Object V5 Metadata", "Kernel Descriptor" and "Initial Kernel Execution
 * State"; MFMA layouts follow AMD's matrix instruction calculator.
 */
#ifndef TKSIM_H
#define TKSIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- memory */
enum tks_alloc_kind {
  TKS_ALLOC_DEVICE = 1, /* hipMalloc */
  TKS_ALLOC_HOST,       /* hipHostMalloc: device-visible host memory */
  TKS_ALLOC_KERNARG,    /* a launch's kernarg segment */
  TKS_ALLOC_CODE,       /* a loaded code object (its globals live here) */
  TKS_ALLOC_INTERNAL    /* dispatch packets, printf buffers, ... */
};

typedef struct tks_alloc {
  uint64_t base, size;
  int kind;
  /* Where a GPU's allocator would have put it: assigned in registration
   * order from a fixed base (2 MiB-aligned from 2 MiB up, else 4 KiB), never
   * reused; the same program makes the same addresses on every run, unlike
   * base (host memory, moved by ASLR). The timing model's caches use it. */
  uint64_t dva;
} tks_alloc;

/* Registers/unregisters [base, base+size). Only called between dispatches
 * (launches run to completion inside the launching call), so lookups from
 * worker threads during a dispatch need no lock. */
int tks_mem_register(uint64_t base, uint64_t size, int kind);
int tks_mem_unregister(uint64_t base);
/* The live allocation wholly containing [addr, addr+size), or NULL. */
const tks_alloc *tks_mem_find(uint64_t addr, uint64_t size);

/* ---------------------------------------------------------------- targets */
/* The emulated device's target (tksim --arch=NAME, TKSIM_ARCH). */
#define TKS_ARCH_GFX942 942
#define TKS_ARCH_GFX950 950
/* "gfx942" -> TKS_ARCH_GFX942, "gfx950" -> TKS_ARCH_GFX950, else -1. */
int tks_arch_id(const char *name);
/* "gfx942" / "gfx950" ("?" for anything else). */
const char *tks_arch_name(int arch);
/* The executable NAME as a path in out: NAME itself if it has a '/', else the first
 * PATH entry holding an executable regular file of that name. 0, or -1 with
 * errno ENOENT (sim/common/path.c). */
int tks_find_executable(const char *name, char *out, size_t outlen);
/* ELF EF_AMDGPU_MACH of the target (AMDGPUUsage "AMDGPU EF_AMDGPU_MACH Values"). */
uint32_t tks_arch_mach(int arch);
/* LDS bytes one workgroup may allocate: 64 KiB on gfx942 (CDNA3 ISA guide,
 * "Local data share"), 160 KiB on gfx950 (CDNA4 ISA guide; docs/hardware.md). */
uint32_t tks_arch_lds_bytes(int arch);

/* ---------------------------------------------------------------- loader */
/* AMDGPUUsage "Kernel Descriptor" (64 bytes, .rodata, symbol NAME.kd). */
typedef struct tks_kernel_descriptor {
  uint32_t group_segment_fixed_size;
  uint32_t private_segment_fixed_size;
  uint32_t kernarg_size;
  int64_t kernel_code_entry_byte_offset;
  uint32_t compute_pgm_rsrc3;
  uint32_t compute_pgm_rsrc1;
  uint32_t compute_pgm_rsrc2;
  uint16_t kernel_code_properties;
  uint16_t kernarg_preload;
} tks_kernel_descriptor;

/* One kernel argument from the ".args" metadata list. */
typedef struct tks_arg {
  uint32_t offset, size;
  char value_kind[40]; /* "by_value", "global_buffer", "hidden_block_count_x", ... */
  char name[64];
} tks_arg;

struct tks_program; /* decoded instructions, owned by exec */
struct tks_code_object;

/* rocPRIM's device-wide kernels have mangled names of up to ~500 bytes */
#define TKS_NAME_MAX 1024

typedef struct tks_kernel {
  char name[TKS_NAME_MAX];        /* mangled symbol name */
  const uint8_t *code;            /* host pointer to the first instruction */
  uint64_t code_size;             /* bytes of the kernel's function symbol */
  uint64_t code_addr;             /* device address of the first instruction (s_getpc) */
  tks_kernel_descriptor kd;
  /* from metadata (AMDGPUUsage "Code Object V5 Metadata") */
  uint32_t kernarg_segment_size, kernarg_segment_align;
  uint32_t group_segment_fixed_size, private_segment_fixed_size;
  uint32_t sgpr_count, vgpr_count, agpr_count; /* .sgpr_count, .vgpr_count, .agpr_count */
  uint32_t sgpr_spill_count, vgpr_spill_count;
  uint32_t max_flat_workgroup_size, wavefront_size;
  uint32_t accum_offset;          /* first AGPR index in the unified VGPR file (rsrc3) */
  int uses_dynamic_stack;
  tks_arg *args;
  int nargs;
  struct tks_code_object *co;
  struct tks_program *prog;       /* decoded on first launch by exec; NULL before */
} tks_kernel;

typedef struct tks_code_object {
  uint8_t *image;                 /* loaded segments; device addr == host addr */
  uint64_t image_size;
  uint64_t vaddr_base;            /* image + (vaddr - vaddr_base) == host address */
  uint64_t file_bytes;            /* sum of the PT_LOAD p_filesz: bytes that came from the
                                     file (code cannot lie in the zero-filled rest) */
  char target[64];                /* e.g. "amdgcn-amd-amdhsa--gfx942" */
  int arch;                       /* TKS_ARCH_*, from the ELF header's EF_AMDGPU_MACH */
  tks_kernel *kernels;
  int nkernels;
  /* device globals (hipMemcpyToSymbol, hipGetSymbolAddress) */
  struct { char name[TKS_NAME_MAX]; uint64_t addr, size; } *globals;
  int nglobals;
  /* defined functions (STT_FUNC with a size, kernels included): targets of
   * indirect calls, which the decoder cannot follow statically */
  struct { uint64_t addr, size; } *funcs;
  int nfuncs;
} tks_code_object;

/* Loads a code object (a raw AMDGPU ELF) for the emulated device's target
 * (tks_get_options()->arch). Returns 0, or -1 with a message naming the
 * problem in err (never crashes on malformed input). */
int tks_load_code_object(const uint8_t *elf, size_t size, tks_code_object *out,
                         char *err, size_t errlen);
/* Finds the code object for target arch (TKS_ARCH_*) inside a clang offload
 * bundle (plain __CLANG_OFFLOAD_BUNDLE__ or compressed CCOB). */
int tks_bundle_find(const uint8_t *data, size_t size, int arch, const uint8_t **elf,
                    size_t *elf_size, uint8_t **owned, char *err, size_t errlen);
/* tks_bundle_find for gfx942. */
int tks_bundle_find_gfx942(const uint8_t *data, size_t size, const uint8_t **elf,
                           size_t *elf_size, uint8_t **owned, char *err, size_t errlen);
void tks_free_code_object(tks_code_object *co);

/* ---------------------------------------------------------------- options */
typedef struct tks_options {
  int check_memory;      /* global accesses outside live allocations */
  int check_waits;       /* reading a load's destination before its s_waitcnt */
  int check_races;       /* LDS races between waves without a barrier */
  uint64_t inst_budget;  /* per-dispatch instruction budget (hang guard); 0 = default */
  int threads;           /* worker threads for workgroups; 0 = all cores */
  int report;            /* 0 none, 1 per launch, 2 per PC */
  int model;             /* 0 off, else a SKU id from sim/model */
  int model_sample;      /* --model-sample=N */
  const char *timeline;  /* --timeline FILE.json */
  int quiet;
  int arch;              /* TKS_ARCH_*: the emulated device (TKSIM_ARCH) */
  /* --model-spread[=G] (with --model-sample): 0 off, else the workgroups of
   * the grid (dispatch order) after which the groups' work repeats;
   * UINT64_MAX: the whole grid (sim/model/sample.c) */
  uint64_t model_spread;
  /* a dispatch whose workgroups all only poll (s_sleep spin-waits, barriers) for this many
   * wall-clock seconds fails, naming the waiting groups (hang guard); 0 = default (30) */
  uint32_t stall_seconds;
} tks_options;

/* Timing-model SKU ids for tks_options.model (tksim --model=NAME). */
#define TKS_MODEL_MI300X 1
#define TKS_MODEL_MI325X 2
#define TKS_MODEL_MI350X 3
#define TKS_MODEL_MI355X 4
/* "mi300x" -> TKS_MODEL_MI300X, ... "mi355x" -> TKS_MODEL_MI355X, "off"/"" ->
 * 0, anything else -1. */
int tks_model_id(const char *name);
/* The target a SKU's parameters describe: TKS_ARCH_GFX942 for MI300X/MI325X
 * (CDNA3), TKS_ARCH_GFX950 for MI350X/MI355X (CDNA4); -1 for no SKU. */
int tks_model_arch(int sku);

/* Filled once from the environment the driver sets (TKSIM_* variables). */
const tks_options *tks_get_options(void);

/* ---------------------------------------------------------------- dispatch */
typedef struct tks_launch_stats {
  uint64_t waves, instructions, lane_instructions;
  uint64_t salu, valu, smem, vmem_load, vmem_store, lds_read, lds_write, mfma, branch, waitcnt, barrier;
  uint64_t mfma_flops;
  uint64_t lds_accesses, lds_bank_conflict_cycles;
  uint64_t global_bytes_read, global_bytes_written;
  uint64_t errors_reported;
  double modeled_seconds;  /* > 0 only with the timing model on */
  /* timing model only: L2 lookups of the simulated groups' 128 B read lines,
   * whole-grid HBM bytes (scaled from the simulated groups), and the factor
   * grid groups / simulated groups (1 unless --model-sample) */
  uint64_t model_l2_hits, model_l2_misses;
  double model_hbm_bytes, model_group_scale;
} tks_launch_stats;

typedef struct tks_dispatch {
  tks_kernel *k;
  uint32_t grid[3];        /* in work-items, as in the AQL packet */
  uint32_t block[3];       /* work-group size */
  uint8_t *kernarg;        /* kernarg segment, hidden arguments already filled */
  uint32_t dynamic_lds;    /* bytes of dynamic LDS beyond the static size */
  void *dispatch_packet;   /* hsa_kernel_dispatch_packet_t (64 bytes) for the dispatch ptr */
  void *queue;             /* hsa_queue_t-shaped block for the queue ptr */
  int cooperative;         /* hipLaunchCooperativeKernel: grid sync allowed */
} tks_dispatch;

/* Runs a dispatch to completion. 0 on success; -1 with err holding the first
 * problem (unimplemented instruction with its text, PC and kernel; checker
 * report; budget exceeded; barrier deadlock). Checker findings are printed to
 * stderr as they occur. */
int tks_exec_dispatch(const tks_dispatch *d, const tks_options *opt,
                      tks_launch_stats *stats, char *err, size_t errlen);

/* Frees the programs exec decoded for co's kernels (the runtime calls it when
 * a module is unloaded, before the code object goes; no dispatch of co may be
 * running). */
void tks_exec_release(tks_code_object *co);

/* ---------------------------------------------------------------- runtime hooks */
/* Optional entry points the HIP runtime (sim/runtime/launch.c) calls around
 * every dispatch and once at process exit. They are weak references: define
 * each at most once in tksim_core (sim/check, sim/report or sim/model) to be
 * called; undefined ones are skipped. tks_launch_begin may add exec hooks
 * (sim/exec/hooks.h); tks_launch_end sees the final stats (failed: exec
 * returned -1). tks_process_end runs at exit (reports, timeline files). */
void tks_launch_begin(const tks_dispatch *d, const tks_options *opt);
void tks_launch_end(const tks_dispatch *d, const tks_launch_stats *stats,
                    const tks_options *opt, int failed);
void tks_process_end(const tks_options *opt);

#ifdef __cplusplus
}
#endif
#endif
