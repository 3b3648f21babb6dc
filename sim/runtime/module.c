/* module.c: code-object registration and modules for tksim's HIP runtime.
 *
 * A HIP program's static constructors hand us its fat binary
 * (__hipRegisterFatBinary: the __CudaFatBinaryWrapper-shaped struct {magic
 * 0x48495046 "HIPF", version, pointer to a clang offload bundle}), then one
 * __hipRegisterFunction per kernel (host stub address -> device symbol name)
 * and one __hipRegisterVar per device global (host shadow address -> name).
 * The bundle's code object for the device's target (gfx942, or gfx950 under
 * tksim --arch=gfx950) is loaded on first use, so a program built
 * for another GPU fails only when it launches, as on real hardware.
 * hipModuleLoad* load a code object file or image explicitly.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "loader/loader.h"
#include "runtime/rt.h"

#define HIPF_MAGIC 0x48495046u
#define MOD_MAGIC 0x6d6f6431u
#define FN_MAGIC 0x666e6331u

struct ihipModule_t {
  uint32_t magic;
  int state;                /* 0 not loaded, 1 loaded, -1 failed */
  const uint8_t *image;     /* the bundle/ELF bytes (caller-owned or owned) */
  size_t image_size;
  uint8_t *owned;           /* file contents read by hipModuleLoad */
  tks_code_object co;
  char err[512];
  struct ihipModule_t *next;
};

struct ihipModuleSymbol_t {
  uint32_t magic;
  tks_kernel *k;
  struct ihipModule_t *mod;
  struct ihipModuleSymbol_t *next;
};

typedef struct reg_fn { const void *host; struct ihipModule_t *mod; char *name; } reg_fn;
typedef struct reg_var { const void *host; struct ihipModule_t *mod; char *name; size_t size;
                         void **managed_ptr; size_t align; const void *init; int managed; } reg_var;

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ihipModule_t *g_mods;
static struct ihipModuleSymbol_t *g_fns;
static reg_fn *g_regfn; static int g_nregfn, g_capfn;
static reg_var *g_regvar; static int g_nregvar, g_capvar;

static int mod_live(struct ihipModule_t *m)
{
  for (struct ihipModule_t *p = g_mods; p; p = p->next) if (p == m) return 1;
  return 0;
}

static hipError_t load_error_code(const char *msg)
{
  return strstr(msg, "tksim emulates") || strstr(msg, "tksim run emulates") ? hipErrorNoBinaryForGpu
                                                                           : hipErrorInvalidImage;
}

static void init_managed(struct ihipModule_t *m);

/* Loads m's code object if not done yet. Caller holds g_lock. */
static int ensure_loaded(struct ihipModule_t *m)
{
  if (m->state == 0) {
    if (tks_load_image(m->image, m->image_size, &m->co, m->err, sizeof m->err) == 0) {
      m->state = 1;
      init_managed(m);
    } else {
      m->state = -1;
      fprintf(stderr, "tksim: %s\n", m->err); /* why launches will fail: always shown */
    }
  }
  return m->state == 1 ? 0 : -1;
}

TKS_EXPORT void **__hipRegisterFatBinary(const void *data)
{
  struct ihipModule_t *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->magic = MOD_MAGIC;
  const uint32_t *w = data;
  if (!w || w[0] != HIPF_MAGIC) {
    m->state = -1;
    snprintf(m->err, sizeof m->err, "fat binary wrapper has a bad magic number");
  } else {
    const uint8_t *bin;
    memcpy(&bin, (const uint8_t *)data + 8, sizeof bin);
    m->image = bin;
    m->image_size = bin ? tks_image_extent_at(bin) : 0;
    if (!m->image_size) { m->state = -1; snprintf(m->err, sizeof m->err, "fat binary is not a recognised offload bundle, or its headers "
                                                   "claim more bytes than are mapped (corrupt image)"); }
  }
  pthread_mutex_lock(&g_lock);
  m->next = g_mods; g_mods = m;
  pthread_mutex_unlock(&g_lock);
  return (void **)m;
}

static void drop_module(struct ihipModule_t *m)
{
  /* unlink, invalidate its function handles and registrations */
  for (struct ihipModule_t **pp = &g_mods; *pp; pp = &(*pp)->next)
    if (*pp == m) { *pp = m->next; break; }
  for (struct ihipModuleSymbol_t **pp = &g_fns; *pp;) {
    if ((*pp)->mod == m) { struct ihipModuleSymbol_t *f = *pp; *pp = f->next; f->magic = 0; free(f); }
    else pp = &(*pp)->next;
  }
  for (int i = 0; i < g_nregfn; i++) if (g_regfn[i].mod == m) g_regfn[i].mod = NULL;
  for (int i = 0; i < g_nregvar; i++) if (g_regvar[i].mod == m) g_regvar[i].mod = NULL;
  if (m->state == 1) { tks_exec_release(&m->co); tks_free_code_object(&m->co); }
  free(m->owned);
  m->magic = 0;
  free(m);
}

TKS_EXPORT void __hipUnregisterFatBinary(void **handle)
{
  struct ihipModule_t *m = (struct ihipModule_t *)handle;
  pthread_mutex_lock(&g_lock);
  if (m && mod_live(m)) drop_module(m);
  pthread_mutex_unlock(&g_lock);
}

TKS_EXPORT void __hipRegisterFunction(void **modules, const void *hostFunction, char *deviceFunction,
                                      const char *deviceName, unsigned int threadLimit, void *tid,
                                      void *bid, dim3 *blockDim, dim3 *gridDim, int *wSize)
{
  (void)deviceName; (void)threadLimit; (void)tid; (void)bid; (void)blockDim; (void)gridDim; (void)wSize;
  pthread_mutex_lock(&g_lock);
  if (g_nregfn == g_capfn) {
    int nc = g_capfn ? g_capfn * 2 : 64;
    reg_fn *t = realloc(g_regfn, (size_t)nc * sizeof *t);
    if (!t) { pthread_mutex_unlock(&g_lock); return; }
    g_regfn = t; g_capfn = nc;
  }
  g_regfn[g_nregfn].host = hostFunction;
  g_regfn[g_nregfn].mod = (struct ihipModule_t *)modules;
  g_regfn[g_nregfn].name = strdup(deviceFunction ? deviceFunction : "");
  g_nregfn++;
  pthread_mutex_unlock(&g_lock);
}

static void add_var(reg_var v)
{
  if (g_nregvar == g_capvar) {
    int nc = g_capvar ? g_capvar * 2 : 64;
    reg_var *t = realloc(g_regvar, (size_t)nc * sizeof *t);
    if (!t) return;
    g_regvar = t; g_capvar = nc;
  }
  g_regvar[g_nregvar++] = v;
}

TKS_EXPORT void __hipRegisterVar(void **modules, void *var, char *hostVar, char *deviceVar,
                                 int ext, size_t size, int constant, int global)
{
  (void)hostVar; (void)ext; (void)constant; (void)global;
  pthread_mutex_lock(&g_lock);
  reg_var v = { var, (struct ihipModule_t *)modules, strdup(deviceVar ? deviceVar : ""), size, NULL, 0, NULL, 0 };
  add_var(v);
  pthread_mutex_unlock(&g_lock);
}

/* __managed__ variables: the device holds a pointer variable NAME; the host's
 * shadow *pointer receives the same managed allocation. */
TKS_EXPORT void __hipRegisterManagedVar(void *hipModule, void **pointer, void *init_value,
                                        const char *name, size_t size, unsigned align)
{
  pthread_mutex_lock(&g_lock);
  reg_var v = { pointer, (struct ihipModule_t *)hipModule, strdup(name ? name : ""), size, pointer,
                align, init_value, 1 };
  add_var(v);
  pthread_mutex_unlock(&g_lock);
  /* The host may touch the variable before any launch: allocate now. */
  void *p = NULL;
  if (hipMallocManaged(&p, size ? size : 1, hipMemAttachGlobal) == hipSuccess) {
    if (init_value) memcpy(p, init_value, size);
    *pointer = p;
  }
}

static void init_managed(struct ihipModule_t *m)
{
  for (int i = 0; i < g_nregvar; i++) {
    reg_var *v = &g_regvar[i];
    if (!v->managed || v->mod != m || !v->managed_ptr || !*v->managed_ptr) continue;
    uint64_t a, s;
    if (tks_find_global(&m->co, v->name, &a, &s) == 0 && s >= sizeof(void *))
      memcpy((void *)(uintptr_t)a, v->managed_ptr, sizeof(void *));
  }
}

TKS_EXPORT void __hipRegisterSurface(void **modules, void *var, char *hostVar, char *deviceVar, int type, int ext)
{
  (void)modules; (void)var; (void)hostVar; (void)deviceVar; (void)type; (void)ext;
}
TKS_EXPORT void __hipRegisterTexture(void **modules, void *var, char *hostVar, char *deviceVar, int type, int norm, int ext)
{
  (void)modules; (void)var; (void)hostVar; (void)deviceVar; (void)type; (void)norm; (void)ext;
}

tks_kernel *tks_rt_kernel(const void *f)
{
  tks_kernel *k = NULL;
  if (!f) return NULL;
  pthread_mutex_lock(&g_lock);
  for (int i = 0; i < g_nregfn; i++) {
    if (g_regfn[i].host != f) continue;
    struct ihipModule_t *m = g_regfn[i].mod;
    if (m && mod_live(m) && ensure_loaded(m) == 0) {
      k = tks_find_kernel(&m->co, g_regfn[i].name);
      if (!k && !tks_get_options()->quiet)
        fprintf(stderr, "tksim: kernel %s is registered but not in the %s code object\n", g_regfn[i].name, tks_arch_name(tks_get_options()->arch));
    }
    break;
  }
  if (!k)
    for (struct ihipModuleSymbol_t *p = g_fns; p; p = p->next)
      if ((const void *)p == f) { k = p->k; break; }
  pthread_mutex_unlock(&g_lock);
  return k;
}

int tks_rt_symbol(const void *host_var, uint64_t *addr, uint64_t *size)
{
  int r = -1;
  if (!host_var) return -1;
  pthread_mutex_lock(&g_lock);
  for (int i = 0; i < g_nregvar; i++) {
    reg_var *v = &g_regvar[i];
    if (v->host != host_var) continue;
    if (v->managed) {
      if (v->managed_ptr && *v->managed_ptr) { *addr = (uint64_t)(uintptr_t)*v->managed_ptr; *size = v->size; r = 0; }
      break;
    }
    if (v->mod && mod_live(v->mod) && ensure_loaded(v->mod) == 0 &&
        tks_find_global(&v->mod->co, v->name, addr, size) == 0) r = 0;
    break;
  }
  pthread_mutex_unlock(&g_lock);
  return r;
}

/* ------------------------------------------------------------ hipModule* */
static hipError_t module_from(hipModule_t *module, const uint8_t *img, size_t n, uint8_t *owned, const char *api)
{
  struct ihipModule_t *m = calloc(1, sizeof *m);
  if (!m) { free(owned); return tks_rt_fail(hipErrorOutOfMemory, api, "out of memory"); }
  m->magic = MOD_MAGIC;
  m->image = img; m->image_size = n; m->owned = owned;
  if (tks_load_image(img, n, &m->co, m->err, sizeof m->err)) {
    hipError_t e = load_error_code(m->err);
    tks_rt_fail(e, api, "%s", m->err);
    free(owned); free(m);
    return e;
  }
  m->state = 1;
  /* the image is no longer needed once loaded */
  free(m->owned); m->owned = NULL; m->image = NULL;
  pthread_mutex_lock(&g_lock);
  m->next = g_mods; g_mods = m;
  pthread_mutex_unlock(&g_lock);
  *module = m;
  return hipSuccess;
}

TKS_EXPORT hipError_t hipModuleLoad(hipModule_t *module, const char *fname)
{
  if (!module || !fname) return tks_rt_fail(hipErrorInvalidValue, "hipModuleLoad", "null argument");
  FILE *f = fopen(fname, "rb");
  if (!f) return tks_rt_fail(hipErrorFileNotFound, "hipModuleLoad", "cannot open %s", fname);
  uint8_t *buf = NULL;
  size_t n = 0, cap = 0;
  for (;;) {
    if (n == cap) {
      cap = cap ? cap * 2 : 1 << 16;
      uint8_t *t = realloc(buf, cap);
      if (!t) { free(buf); fclose(f); return tks_rt_fail(hipErrorOutOfMemory, "hipModuleLoad", "out of memory"); }
      buf = t;
    }
    size_t r = fread(buf + n, 1, cap - n, f);
    if (r == 0) break;
    n += r;
  }
  fclose(f);
  if (n == 0) { free(buf); return tks_rt_fail(hipErrorInvalidImage, "hipModuleLoad", "%s is empty", fname); }
  return module_from(module, buf, n, buf, "hipModuleLoad");
}

TKS_EXPORT hipError_t hipModuleLoadData(hipModule_t *module, const void *image)
{
  if (!module || !image) return tks_rt_fail(hipErrorInvalidValue, "hipModuleLoadData", "null argument");
  size_t n = tks_image_extent_at(image);
  if (!n) return tks_rt_fail(hipErrorInvalidImage, "hipModuleLoadData", "image is neither an AMDGPU ELF nor an offload bundle, or its headers "
                                                                             "claim more bytes than are mapped (corrupt image)");
  return module_from(module, image, n, NULL, "hipModuleLoadData");
}

TKS_EXPORT hipError_t hipModuleLoadDataEx(hipModule_t *module, const void *image, unsigned int numOptions,
                                          hipJitOption *options, void **optionValues)
{
  (void)numOptions; (void)options; (void)optionValues;
  return hipModuleLoadData(module, image);
}

TKS_EXPORT hipError_t hipModuleUnload(hipModule_t module)
{
  pthread_mutex_lock(&g_lock);
  if (!module || !mod_live(module)) {
    pthread_mutex_unlock(&g_lock);
    return tks_rt_fail(hipErrorInvalidHandle, "hipModuleUnload", "not a loaded module");
  }
  drop_module(module);
  pthread_mutex_unlock(&g_lock);
  return hipSuccess;
}

TKS_EXPORT hipError_t hipModuleGetFunction(hipFunction_t *function, hipModule_t module, const char *kname)
{
  if (!function || !kname) return tks_rt_fail(hipErrorInvalidValue, "hipModuleGetFunction", "null argument");
  pthread_mutex_lock(&g_lock);
  if (!module || !mod_live(module) || ensure_loaded(module)) {
    pthread_mutex_unlock(&g_lock);
    return tks_rt_fail(hipErrorInvalidHandle, "hipModuleGetFunction", "not a loaded module");
  }
  tks_kernel *k = tks_find_kernel(&module->co, kname);
  if (!k) {
    pthread_mutex_unlock(&g_lock);
    return tks_rt_fail(hipErrorNotFound, "hipModuleGetFunction", "no kernel named '%s' in the module", kname);
  }
  struct ihipModuleSymbol_t *fn = NULL;
  for (struct ihipModuleSymbol_t *p = g_fns; p; p = p->next) if (p->k == k) { fn = p; break; }
  if (!fn) {
    fn = calloc(1, sizeof *fn);
    if (!fn) { pthread_mutex_unlock(&g_lock); return tks_rt_fail(hipErrorOutOfMemory, "hipModuleGetFunction", "out of memory"); }
    fn->magic = FN_MAGIC; fn->k = k; fn->mod = module;
    fn->next = g_fns; g_fns = fn;
  }
  pthread_mutex_unlock(&g_lock);
  *function = fn;
  return hipSuccess;
}

TKS_EXPORT hipError_t hipModuleGetGlobal(hipDeviceptr_t *dptr, size_t *bytes, hipModule_t hmod, const char *name)
{
  if (!name || (!dptr && !bytes)) return tks_rt_fail(hipErrorInvalidValue, "hipModuleGetGlobal", "null argument");
  pthread_mutex_lock(&g_lock);
  if (!hmod || !mod_live(hmod) || ensure_loaded(hmod)) {
    pthread_mutex_unlock(&g_lock);
    return tks_rt_fail(hipErrorInvalidHandle, "hipModuleGetGlobal", "not a loaded module");
  }
  uint64_t a, s;
  int r = tks_find_global(&hmod->co, name, &a, &s);
  pthread_mutex_unlock(&g_lock);
  if (r) return tks_rt_fail(hipErrorNotFound, "hipModuleGetGlobal", "no global named '%s' in the module", name);
  if (dptr) *dptr = (hipDeviceptr_t)(uintptr_t)a;
  if (bytes) *bytes = (size_t)s;
  return hipSuccess;
}

TKS_EXPORT hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int gx, unsigned int gy, unsigned int gz,
                                            unsigned int bx, unsigned int by, unsigned int bz,
                                            unsigned int sharedMemBytes, hipStream_t stream,
                                            void **kernelParams, void **extra)
{
  tks_kernel *k = tks_rt_kernel(f);
  if (!k) return tks_rt_fail(hipErrorInvalidResourceHandle, "hipModuleLaunchKernel", "not a valid hipFunction_t");
  const void *buf = NULL;
  size_t bufsize = 0;
  if (extra) {
    /* {HIP_LAUNCH_PARAM_BUFFER_POINTER, p, HIP_LAUNCH_PARAM_BUFFER_SIZE, &size, HIP_LAUNCH_PARAM_END} */
    int have_size = 0;
    for (int i = 0; i < 64 && extra[i] != HIP_LAUNCH_PARAM_END; i += 2) {
      if (extra[i] == HIP_LAUNCH_PARAM_BUFFER_POINTER) buf = extra[i + 1];
      else if (extra[i] == HIP_LAUNCH_PARAM_BUFFER_SIZE && extra[i + 1]) { bufsize = *(size_t *)extra[i + 1]; have_size = 1; }
      else return tks_rt_fail(hipErrorInvalidValue, "hipModuleLaunchKernel", "unknown entry %p in extra[]", extra[i]);
    }
    if (!buf || !have_size) return tks_rt_fail(hipErrorInvalidValue, "hipModuleLaunchKernel", "extra[] lacks the buffer pointer or size");
    if (kernelParams) return tks_rt_fail(hipErrorInvalidValue, "hipModuleLaunchKernel", "both kernelParams and extra given");
  }
  uint32_t blocks[3] = { gx, gy, gz }, threads[3] = { bx, by, bz };
  return tks_rt_launch("hipModuleLaunchKernel", k, blocks, threads, kernelParams, buf, bufsize,
                       sharedMemBytes, stream, 0);
}
