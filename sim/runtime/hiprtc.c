/* hiprtc.c: HIP runtime compilation (hiprtc*, HIP 5.2 API in
 * /usr/include/hip/hiprtc.h; in HIP 5.2 these symbols live in libamdhip64,
 * version node hip_4.2) for tksim.
 *
 * A program's source is compiled by running a HIP-capable clang as a child
 * process (posix_spawn, no shell): device only, for gfx942, into a raw AMDGPU
 * code object (ELF) that hipModuleLoadData accepts. The compiler is the one
 * tksim was configured with (TKS_HIPRTC_CLANG), or $TKSIM_HIPRTC_CLANG; its
 * stdout+stderr become the program log.
 *
 * Name expressions: for each one, the source gets a suffix line
 *   __device__ __attribute__((used)) auto *__tksim_hiprtc_name_<i> = &EXPR;
 * which instantiates templates and makes the code object hold a pointer to
 * the named kernel or variable. A code object is a shared object, so lld
 * emits that pointer as a dynamic R_AMDGPU_RELATIVE64 relocation whose addend
 * is the target's address (LLVM AMDGPUUsage, "Relocation Records"); the
 * symbol at that address is the lowered (mangled) name. libelf reads both.
 */
#define _GNU_SOURCE /* dladdr; also nftw, mkdtemp, posix_spawn under -std=c11 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <ftw.h>
#include <gelf.h>
#include <libelf.h>
#include <pthread.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include "loader/loader.h"
#include "runtime/rt.h" /* before hiprtc.h: defines __HIP_PLATFORM_AMD__ */
#include <hip/hiprtc.h>

extern char **environ;

/* Configure-time defaults (sim/CMakeLists.txt); the fallbacks serve builds
 * that compile this file without them (unit tests). */
#ifndef TKS_HIPRTC_CLANG
#define TKS_HIPRTC_CLANG "clang++"
#endif
#ifndef TKS_HIPRTC_DEVLIBS
#define TKS_HIPRTC_DEVLIBS ""
#endif
/* set in builds that install the device libraries: their directory relative
 * to the directory this library is installed in (<prefix>/lib/tksim) */
#ifndef TKS_HIPRTC_DEVLIBS_REL
#define TKS_HIPRTC_DEVLIBS_REL ""
#endif
#ifndef TKS_HIPRTC_COMPAT
#define TKS_HIPRTC_COMPAT ""
#endif
#ifndef TKS_HIPRTC_ROCM
#define TKS_HIPRTC_ROCM "/usr"
#endif

/* The device libraries when TKSIM_HIPRTC_DEVICE_LIB_PATH is unset: an
 * installed tksim's own (TKS_HIPRTC_DEVLIBS_REL from the directory this
 * library was loaded from, found with dladdr, so a moved prefix works too)
 * when they are there; else the build tree's (TKS_HIPRTC_DEVLIBS), which
 * also serves the build tree itself (lib/tksim/<rel> does not exist there). */
static char devlibs_installed[PATH_MAX];
static pthread_once_t devlibs_once = PTHREAD_ONCE_INIT;
static void devlibs_find(void)
{
  Dl_info info;
  char lib[PATH_MAX], cand[PATH_MAX + 64], bc[PATH_MAX + 96];
  if (!*TKS_HIPRTC_DEVLIBS_REL || !dladdr((void *)devlibs_find, &info) || !info.dli_fname ||
      !realpath(info.dli_fname, lib))
    return;
  char *slash = strrchr(lib, '/');
  if (!slash) return;
  *slash = 0;
  snprintf(cand, sizeof cand, "%s/%s", lib, TKS_HIPRTC_DEVLIBS_REL);
  snprintf(bc, sizeof bc, "%s/oclc_isa_version_942.bc", cand);
  if (strlen(cand) < sizeof devlibs_installed && !access(bc, R_OK)) strcpy(devlibs_installed, cand);
}
static const char *devlibs_default(void)
{
  pthread_once(&devlibs_once, devlibs_find);
  return *devlibs_installed ? devlibs_installed : TKS_HIPRTC_DEVLIBS;
}

#define PROG_MAGIC 0x72746370u
#define NAME_VAR "__tksim_hiprtc_name_"

struct _hiprtcProgram {
  uint32_t magic;
  char *src, *name;
  int nheaders;
  char **hdr_src, **hdr_name;
  int nexpr;
  char **expr, **lowered;
  int compiled;             /* a compile has succeeded */
  char *log;                /* NUL-terminated; never NULL once created */
  uint8_t *code;
  size_t code_size;
  struct _hiprtcProgram *next;
};

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static struct _hiprtcProgram *g_progs;

/* "tksim: API: message (HIPRTC_ERROR_...)" on stderr (unless --quiet), then returns r. */
static hiprtcResult rtc_fail(hiprtcResult r, const char *api, const char *fmt, ...)
  __attribute__((format(printf, 3, 4)));
static hiprtcResult rtc_fail(hiprtcResult r, const char *api, const char *fmt, ...)
{
  if (!tks_get_options()->quiet) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "tksim: %s: ", api);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, " (%s)\n", hiprtcGetErrorString(r));
    va_end(ap);
  }
  return r;
}

/* Whether p is a live program. Handles are checked against the list so a
 * stale or garbage handle is an error code, not a crash. */
static int prog_live(hiprtcProgram p)
{
  int live = 0;
  pthread_mutex_lock(&g_lock);
  for (struct _hiprtcProgram *q = g_progs; q; q = q->next) if (q == p) { live = 1; break; }
  pthread_mutex_unlock(&g_lock);
  return live;
}

/* Appends formatted text to p's log. */
static void log_add(hiprtcProgram p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void log_add(hiprtcProgram p, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n <= 0) return;
  size_t old = strlen(p->log);
  char *t = realloc(p->log, old + (size_t)n + 1);
  if (!t) return;
  va_start(ap, fmt);
  vsnprintf(t + old, (size_t)n + 1, fmt, ap);
  va_end(ap);
  p->log = t;
}

static void free_results(hiprtcProgram p)
{
  for (int i = 0; i < p->nexpr; i++) { free(p->lowered[i]); p->lowered[i] = NULL; }
  free(p->code); p->code = NULL; p->code_size = 0;
  p->compiled = 0;
  p->log[0] = 0;
}

static void free_prog(hiprtcProgram p)
{
  if (!p) return;
  free(p->src); free(p->name);
  for (int i = 0; i < p->nheaders; i++) { free(p->hdr_src[i]); free(p->hdr_name[i]); }
  free(p->hdr_src); free(p->hdr_name);
  for (int i = 0; i < p->nexpr; i++) { free(p->expr[i]); free(p->lowered[i]); }
  free(p->expr); free(p->lowered);
  free(p->log); free(p->code);
  p->magic = 0;
  free(p);
}

TKS_EXPORT const char *hiprtcGetErrorString(hiprtcResult result)
{
  switch (result) {
  case HIPRTC_SUCCESS: return "HIPRTC_SUCCESS";
  case HIPRTC_ERROR_OUT_OF_MEMORY: return "HIPRTC_ERROR_OUT_OF_MEMORY";
  case HIPRTC_ERROR_PROGRAM_CREATION_FAILURE: return "HIPRTC_ERROR_PROGRAM_CREATION_FAILURE";
  case HIPRTC_ERROR_INVALID_INPUT: return "HIPRTC_ERROR_INVALID_INPUT";
  case HIPRTC_ERROR_INVALID_PROGRAM: return "HIPRTC_ERROR_INVALID_PROGRAM";
  case HIPRTC_ERROR_INVALID_OPTION: return "HIPRTC_ERROR_INVALID_OPTION";
  case HIPRTC_ERROR_COMPILATION: return "HIPRTC_ERROR_COMPILATION";
  case HIPRTC_ERROR_BUILTIN_OPERATION_FAILURE: return "HIPRTC_ERROR_BUILTIN_OPERATION_FAILURE";
  case HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION: return "HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION";
  case HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION: return "HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION";
  case HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID: return "HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID";
  case HIPRTC_ERROR_INTERNAL_ERROR: return "HIPRTC_ERROR_INTERNAL_ERROR";
  }
  return "Invalid HIPRTC error code"; /* the text AMD's hiprtc.h documents */
}

TKS_EXPORT hiprtcResult hiprtcVersion(int *major, int *minor)
{
  if (!major || !minor) return rtc_fail(HIPRTC_ERROR_INVALID_INPUT, "hiprtcVersion", "null argument");
  /* the HIP version whose API tksim implements */
  *major = 5;
  *minor = 2;
  return HIPRTC_SUCCESS;
}

/* An include name becomes a file under the temporary include directory, so it
 * must stay inside it: relative, no "..", no empty components. */
static int include_name_ok(const char *n)
{
  if (!*n || n[0] == '/') return 0;
  for (const char *c = n; *c;) {
    const char *e = strchr(c, '/');
    size_t len = e ? (size_t)(e - c) : strlen(c);
    if (len == 0 || (len == 2 && c[0] == '.' && c[1] == '.') || (len == 1 && c[0] == '.')) return 0;
    if (!e) break;
    c = e + 1;
  }
  return 1;
}

TKS_EXPORT hiprtcResult hiprtcCreateProgram(hiprtcProgram *prog, const char *src, const char *name,
                                            int numHeaders, const char **headers, const char **includeNames)
{
  static const char api[] = "hiprtcCreateProgram";
  if (!prog) return rtc_fail(HIPRTC_ERROR_INVALID_INPUT, api, "prog is NULL");
  *prog = NULL;
  if (!src) return rtc_fail(HIPRTC_ERROR_INVALID_INPUT, api, "src is NULL");
  if (numHeaders < 0) return rtc_fail(HIPRTC_ERROR_INVALID_INPUT, api, "numHeaders is %d", numHeaders);
  if (numHeaders > 0 && (!headers || !includeNames))
    return rtc_fail(HIPRTC_ERROR_INVALID_INPUT, api, "numHeaders is %d but headers or includeNames is NULL", numHeaders);
  for (int i = 0; i < numHeaders; i++) {
    if (!headers[i] || !includeNames[i])
      return rtc_fail(HIPRTC_ERROR_INVALID_INPUT, api, "header %d or its include name is NULL", i);
    if (strlen(includeNames[i]) > 1024)
      return rtc_fail(HIPRTC_ERROR_INVALID_INPUT, api, "include name %d is longer than 1024 bytes", i);
    if (!include_name_ok(includeNames[i]))
      return rtc_fail(HIPRTC_ERROR_INVALID_INPUT, api,
                      "include name '%s' must be a relative path without '.' or '..' components", includeNames[i]);
  }
  struct _hiprtcProgram *p = calloc(1, sizeof *p);
  if (!p) return rtc_fail(HIPRTC_ERROR_OUT_OF_MEMORY, api, "out of memory");
  p->magic = PROG_MAGIC;
  p->src = strdup(src);
  p->name = strdup(name && *name ? name : "default_program");
  p->log = calloc(1, 1);
  p->nheaders = numHeaders;
  p->hdr_src = calloc((size_t)numHeaders + 1, sizeof(char *));
  p->hdr_name = calloc((size_t)numHeaders + 1, sizeof(char *));
  int ok = p->src && p->name && p->log && p->hdr_src && p->hdr_name;
  for (int i = 0; ok && i < numHeaders; i++) {
    p->hdr_src[i] = strdup(headers[i]);
    p->hdr_name[i] = strdup(includeNames[i]);
    ok = p->hdr_src[i] && p->hdr_name[i];
  }
  if (!ok) {
    if (!p->hdr_src || !p->hdr_name) p->nheaders = 0;
    free_prog(p);
    return rtc_fail(HIPRTC_ERROR_OUT_OF_MEMORY, api, "out of memory");
  }
  pthread_mutex_lock(&g_lock);
  p->next = g_progs; g_progs = p;
  pthread_mutex_unlock(&g_lock);
  *prog = p;
  return HIPRTC_SUCCESS;
}

TKS_EXPORT hiprtcResult hiprtcDestroyProgram(hiprtcProgram *prog)
{
  if (!prog) return rtc_fail(HIPRTC_ERROR_INVALID_INPUT, "hiprtcDestroyProgram", "prog is NULL");
  hiprtcProgram p = *prog;
  int found = 0;
  pthread_mutex_lock(&g_lock);
  for (struct _hiprtcProgram **pp = &g_progs; *pp; pp = &(*pp)->next)
    if (*pp == p) { *pp = p->next; found = 1; break; }
  pthread_mutex_unlock(&g_lock);
  if (!found) return rtc_fail(HIPRTC_ERROR_INVALID_PROGRAM, "hiprtcDestroyProgram", "not a live hiprtcProgram");
  free_prog(p);
  *prog = NULL;
  return HIPRTC_SUCCESS;
}

TKS_EXPORT hiprtcResult hiprtcAddNameExpression(hiprtcProgram prog, const char *name_expression)
{
  static const char api[] = "hiprtcAddNameExpression";
  if (!prog_live(prog)) return rtc_fail(HIPRTC_ERROR_INVALID_PROGRAM, api, "not a live hiprtcProgram");
  if (!name_expression || !*name_expression)
    return rtc_fail(HIPRTC_ERROR_INVALID_INPUT, api, "name expression is NULL or empty");
  if (strchr(name_expression, '\n') || strchr(name_expression, ';'))
    return rtc_fail(HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID, api,
                    "name expression '%s' is not a single expression", name_expression);
  if (prog->compiled)
    return rtc_fail(HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION, api, "the program is already compiled");
  for (int i = 0; i < prog->nexpr; i++) if (!strcmp(prog->expr[i], name_expression)) return HIPRTC_SUCCESS;
  char **e = realloc(prog->expr, (size_t)(prog->nexpr + 1) * sizeof *e);
  if (e) prog->expr = e;
  char **l = realloc(prog->lowered, (size_t)(prog->nexpr + 1) * sizeof *l);
  if (l) prog->lowered = l;
  char *d = strdup(name_expression);
  if (!e || !l || !d) { free(d); return rtc_fail(HIPRTC_ERROR_OUT_OF_MEMORY, api, "out of memory"); }
  prog->expr[prog->nexpr] = d;
  prog->lowered[prog->nexpr] = NULL;
  prog->nexpr++;
  return HIPRTC_SUCCESS;
}

/* ------------------------------------------------------------ compiling */

static int write_file(const char *path, const char *a, const char *b)
{
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  int ok = fputs(a, f) >= 0 && (!b || fputs(b, f) >= 0);
  return (fclose(f) == 0 && ok) ? 0 : -1;
}

static uint8_t *read_file(const char *path, size_t *n)
{
  *n = 0;
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  uint8_t *buf = NULL;
  size_t cap = 0;
  for (;;) {
    if (*n == cap) {
      cap = cap ? cap * 2 : 1 << 16;
      uint8_t *t = realloc(buf, cap + 1);
      if (!t) { free(buf); fclose(f); *n = 0; return NULL; }
      buf = t;
    }
    size_t r = fread(buf + *n, 1, cap - *n, f);
    if (r == 0) break;
    *n += r;
  }
  fclose(f);
  if (buf) buf[*n] = 0; /* usable as text too */
  else buf = calloc(1, 1);
  return buf;
}

/* mkdir -p of the directories leading to path (inside the temp dir). */
static int make_parents(char *path, size_t base_len)
{
  for (char *c = path + base_len + 1; *c; c++) {
    if (*c != '/') continue;
    *c = 0;
    int r = mkdir(path, 0700);
    *c = '/';
    if (r && errno != EEXIST) return -1;
  }
  return 0;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
  (void)st; (void)flag; (void)ftw;
  remove(path);
  return 0;
}

/* Which --offload-arch an option asks for, or NULL if it is not one. */
static const char *arch_option(const char *o)
{
  static const char *pre[] = { "--gpu-architecture=", "--offload-arch=", "-arch=", "--gpu-name=" };
  for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++)
    if (!strncmp(o, pre[i], strlen(pre[i]))) return o + strlen(pre[i]);
  return NULL;
}

/* Options that would change what clang produces or where: tksim needs one
 * device code object in its temp dir. Refused with HIPRTC_ERROR_INVALID_OPTION. */
static const char *refused_option(const char *o)
{
  static const char *exact[] = { "-o", "-c", "-S", "-E", "-emit-llvm", "--cuda-host-only", "--offload-host-only",
                                 "--cuda-device-only", "--offload-device-only", "-x", "-save-temps", "-###",
                                 "-fgpu-rdc", "-M", "-MM", "-MD", "-MMD", "-shared", "--gpu-bundle-output",
                                 "-Xlinker" };
  for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++)
    if (!strcmp(o, exact[i])) return exact[i];
  static const char *prefix[] = { "-o", "-x", "-save-temps=", "-fgpu-rdc", "-Wl,", "-MF", "-MT", "-MQ",
                                  "--cuda-path", "--hip-link", "-fuse-ld" };
  for (size_t i = 0; i < sizeof prefix / sizeof prefix[0]; i++)
    if (!strncmp(o, prefix[i], strlen(prefix[i]))) return prefix[i];
  return NULL;
}

/* Fills the lowered names from the code object's relocations and symbols. */
static void find_lowered_names(hiprtcProgram p)
{
  if (!p->nexpr) return;
  if (elf_version(EV_CURRENT) == EV_NONE) { log_add(p, "tksim: hiprtc: libelf unavailable\n"); return; }
  Elf *e = elf_memory((char *)p->code, p->code_size);
  if (!e) { log_add(p, "tksim: hiprtc: the code object is not an ELF: %s\n", elf_errmsg(-1)); return; }
  Elf_Scn *symscn = NULL, *scn = NULL;
  GElf_Shdr symsh = { 0 };
  while ((scn = elf_nextscn(e, scn))) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh)) continue;
    if (sh.sh_type == SHT_SYMTAB || (sh.sh_type == SHT_DYNSYM && !symscn)) { symscn = scn; symsh = sh; }
  }
  Elf_Data *syms = symscn ? elf_getdata(symscn, NULL) : NULL;
  size_t nsyms = syms && symsh.sh_entsize ? symsh.sh_size / symsh.sh_entsize : 0;
  for (int i = 0; i < p->nexpr; i++) {
    char want[64];
    snprintf(want, sizeof want, NAME_VAR "%d", i);
    GElf_Sym s;
    uint64_t where = 0;
    int have = 0;
    for (size_t k = 1; k < nsyms; k++) {
      if (!gelf_getsym(syms, (int)k, &s)) continue;
      const char *n = elf_strptr(e, symsh.sh_link, s.st_name);
      if (n && !strcmp(n, want)) { where = s.st_value; have = 1; break; }
    }
    /* the pointer's relocation: RELATIVE64 (addend = target) or ABS64 (symbol + addend) */
    uint64_t target = 0;
    int found = 0;
    scn = NULL;
    while (have && !found && (scn = elf_nextscn(e, scn))) {
      GElf_Shdr sh;
      if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA || !sh.sh_entsize) continue;
      Elf_Data *d = elf_getdata(scn, NULL);
      for (size_t k = 0; d && k < sh.sh_size / sh.sh_entsize; k++) {
        GElf_Rela r;
        if (!gelf_getrela(d, (int)k, &r) || r.r_offset != where) continue;
        unsigned type = (unsigned)GELF_R_TYPE(r.r_info);
        if (type == 13 /* R_AMDGPU_RELATIVE64 */) { target = (uint64_t)r.r_addend; found = 1; }
        else if (type == 3 /* R_AMDGPU_ABS64 */) {
          Elf_Scn *ls = elf_getscn(e, sh.sh_link);
          Elf_Data *ld = ls ? elf_getdata(ls, NULL) : NULL;
          GElf_Sym t;
          if (ld && gelf_getsym(ld, (int)GELF_R_SYM(r.r_info), &t)) { target = t.st_value + (uint64_t)r.r_addend; found = 1; }
        }
        break;
      }
    }
    const char *best = NULL;
    for (size_t k = 1; found && k < nsyms; k++) {
      if (!gelf_getsym(syms, (int)k, &s) || s.st_value != target || s.st_shndx == SHN_UNDEF) continue;
      int t = GELF_ST_TYPE(s.st_info);
      if (t != STT_FUNC && t != STT_OBJECT) continue;
      const char *n = elf_strptr(e, symsh.sh_link, s.st_name);
      size_t len = n ? strlen(n) : 0;
      if (!len || !strncmp(n, NAME_VAR, strlen(NAME_VAR)) || (len > 3 && !strcmp(n + len - 3, ".kd"))) continue;
      if (!best || GELF_ST_BIND(s.st_info) != STB_LOCAL) best = n;
    }
    if (best) p->lowered[i] = strdup(best);
    else log_add(p, "tksim: hiprtc: no symbol found for name expression '%s'\n", p->expr[i]);
  }
  elf_end(e);
}

#define RUN_NOT_STARTED (-1) /* errno says why */
#define RUN_TIMED_OUT (-2)
#define RUN_NO_STATUS (-3)   /* waitpid failed, e.g. the program ignores SIGCHLD */

/* Runs argv with stdout and stderr into log_path, in its own process group so
 * a timeout can kill the compiler and the tools it started. Returns the wait
 * status or a RUN_* code. */
static int run_compiler(char *const argv[], const char *log_path, double timeout_s)
{
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t at;
  if (posix_spawn_file_actions_init(&fa)) return RUN_NOT_STARTED;
  if (posix_spawnattr_init(&at)) { posix_spawn_file_actions_destroy(&fa); return RUN_NOT_STARTED; }
  /* the program's ignored signals and mask would be inherited: a clang with
   * SIGCHLD ignored cannot wait for the linker it runs */
  sigset_t def, none;
  sigemptyset(&def);
  sigaddset(&def, SIGCHLD); sigaddset(&def, SIGPIPE); sigaddset(&def, SIGINT); sigaddset(&def, SIGTERM);
  sigemptyset(&none);
  posix_spawnattr_setsigdefault(&at, &def);
  posix_spawnattr_setsigmask(&at, &none);
  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  posix_spawnattr_setpgroup(&at, 0);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, log_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  pid_t pid;
  char exe[4096];
  int r = tks_find_executable(argv[0], exe, sizeof exe) ? errno : posix_spawn(&pid, exe, &fa, &at, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&at);
  if (r) { errno = r; return RUN_NOT_STARTED; }
  struct timespec t0, now, nap = { 0, 5 * 1000 * 1000 };
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (;;) {
    int st;
    pid_t w = waitpid(pid, &st, WNOHANG);
    if (w == pid) return st;
    if (w < 0 && errno != EINTR) return RUN_NO_STATUS;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if ((double)(now.tv_sec - t0.tv_sec) + 1e-9 * (double)(now.tv_nsec - t0.tv_nsec) > timeout_s) {
      kill(-pid, SIGKILL);
      while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
      return RUN_TIMED_OUT;
    }
    nanosleep(&nap, NULL);
  }
}

TKS_EXPORT hiprtcResult hiprtcCompileProgram(hiprtcProgram prog, int numOptions, const char **options)
{
  static const char api[] = "hiprtcCompileProgram";
  if (!prog_live(prog)) return rtc_fail(HIPRTC_ERROR_INVALID_PROGRAM, api, "not a live hiprtcProgram");
  if (numOptions < 0 || (numOptions > 0 && !options))
    return rtc_fail(HIPRTC_ERROR_INVALID_INPUT, api, "numOptions is %d and options is %p", numOptions, (void *)options);
  free_results(prog);
  /* the target tksim runs (--arch), gfx942 by default */
  const char *run_arch = tks_arch_name(tks_get_options()->arch), *arch = run_arch;
  size_t ral = strlen(run_arch);
  for (int i = 0; i < numOptions; i++) {
    const char *o = options[i];
    if (!o) { log_add(prog, "tksim: hiprtc: option %d is NULL\n", i);
              return rtc_fail(HIPRTC_ERROR_INVALID_INPUT, api, "option %d is NULL", i); }
    const char *a = arch_option(o), *bad = NULL;
    if (!strcmp(o, "-arch") || !strcmp(o, "--gpu-architecture") || !strcmp(o, "--offload-arch")) {
      log_add(prog, "tksim: hiprtc: option '%s' needs its value in the same string: %s=%s\n", o, o, run_arch);
      return rtc_fail(HIPRTC_ERROR_INVALID_OPTION, api, "option '%s' needs '=%s'", o, run_arch);
    } else if (a) {
      /* the run's target with or without features (gfx942:sramecc+:xnack-) */
      if (strncmp(a, run_arch, ral) || (a[ral] && a[ral] != ':')) {
        log_add(prog, "tksim: hiprtc: option '%s': this tksim run emulates %s (tksim --arch)\n", o, run_arch);
        return rtc_fail(HIPRTC_ERROR_INVALID_OPTION, api, "option '%s': this tksim run emulates %s", o, run_arch);
      }
      arch = a;
    } else if (o[0] != '-') {
      log_add(prog, "tksim: hiprtc: option '%s' is not an option (it does not start with '-')\n", o);
      return rtc_fail(HIPRTC_ERROR_INVALID_OPTION, api, "'%s' is not an option", o);
    } else if ((bad = refused_option(o))) {
      log_add(prog, "tksim: hiprtc: option '%s' is not accepted: tksim's hiprtc makes one %s device code object itself\n", o, run_arch);
      return rtc_fail(HIPRTC_ERROR_INVALID_OPTION, api, "option '%s' is not accepted", o);
    }
  }

  const char *tmp = getenv("TMPDIR");
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/tksim-hiprtc-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(dir)) {
    snprintf(dir, sizeof dir, "/tmp/tksim-hiprtc-XXXXXX"); /* TMPDIR unusable: try /tmp */
    if (!mkdtemp(dir)) {
      log_add(prog, "tksim: hiprtc: cannot create a temporary directory: %s\n", strerror(errno));
      return rtc_fail(HIPRTC_ERROR_INTERNAL_ERROR, api, "cannot create a temporary directory: %s", strerror(errno));
    }
  }
  hiprtcResult res = HIPRTC_SUCCESS;
  char src_path[4900], inc_dir[4608], out_path[4608], log_path[4608], path[8192];
  /* the program name shows in the compiler's messages: keep it, minus path
   * separators and characters a file name should not have */
  char base[256];
  size_t bl = 0;
  for (const char *c = prog->name; *c && bl < sizeof base - 8; c++)
    base[bl++] = (char)((*c == '/' || (unsigned char)*c < 32) ? '_' : *c);
  base[bl] = 0;
  if (!strcmp(base, ".") || !strcmp(base, "..")) base[0] = '_';
  /* in its own directory, so no program name can collide with tksim's files */
  char src_dir[4608];
  snprintf(src_dir, sizeof src_dir, "%s/src", dir);
  snprintf(src_path, sizeof src_path, "%s/%s", src_dir, base);
  snprintf(inc_dir, sizeof inc_dir, "%s/include", dir);
  snprintf(out_path, sizeof out_path, "%s/out.co", dir);
  snprintf(log_path, sizeof log_path, "%s/compiler.log", dir);

  /* the source plus the name-expression suffix */
  size_t sufcap = 64;
  for (int i = 0; i < prog->nexpr; i++) sufcap += strlen(prog->expr[i]) + 160;
  char *suffix = malloc(sufcap);
  if (!suffix) { res = rtc_fail(HIPRTC_ERROR_OUT_OF_MEMORY, api, "out of memory"); goto out; }
  size_t sl = (size_t)snprintf(suffix, sufcap, "\n");
  for (int i = 0; i < prog->nexpr; i++) {
    const char *x = prog->expr[i];
    sl += (size_t)snprintf(suffix + sl, sufcap - sl,
                           "#line 1 \"name expression %d\"\n"
                           "__device__ __attribute__((used)) auto *" NAME_VAR "%d = %s%s;\n",
                           i, i, x[0] == '&' ? "" : "&", x);
  }
  int werr = mkdir(src_dir, 0700) || write_file(src_path, prog->src, suffix);
  free(suffix);
  if (werr || mkdir(inc_dir, 0700)) {
    log_add(prog, "tksim: hiprtc: cannot write to %s: %s\n", dir, strerror(errno));
    res = rtc_fail(HIPRTC_ERROR_INTERNAL_ERROR, api, "cannot write to %s", dir);
    goto out;
  }
  for (int i = 0; i < prog->nheaders; i++) {
    snprintf(path, sizeof path, "%s/%s", inc_dir, prog->hdr_name[i]);
    if (make_parents(path, strlen(inc_dir)) || write_file(path, prog->hdr_src[i], NULL)) {
      log_add(prog, "tksim: hiprtc: cannot write header %s: %s\n", prog->hdr_name[i], strerror(errno));
      res = rtc_fail(HIPRTC_ERROR_INTERNAL_ERROR, api, "cannot write header %s", prog->hdr_name[i]);
      goto out;
    }
  }

  {
    const char *clang = getenv("TKSIM_HIPRTC_CLANG");
    if (!clang || !*clang) clang = TKS_HIPRTC_CLANG;
    const char *devlibs = getenv("TKSIM_HIPRTC_DEVICE_LIB_PATH");
    if (!devlibs || !*devlibs) devlibs = devlibs_default();
    char a_arch[300], a_rocm[4200], a_dev[4200], a_inc[4700];
    snprintf(a_arch, sizeof a_arch, "--offload-arch=%s", arch);
    snprintf(a_rocm, sizeof a_rocm, "--rocm-path=%s", TKS_HIPRTC_ROCM);
    snprintf(a_dev, sizeof a_dev, "--rocm-device-lib-path=%s", devlibs);
    snprintf(a_inc, sizeof a_inc, "-I%s", inc_dir);
    /* the build's compatibility flags (space-separated, none contains a
     * space), only with the build's own compiler */
    char compat[512], *save = NULL;
    snprintf(compat, sizeof compat, "%s", !strcmp(clang, TKS_HIPRTC_CLANG) ? TKS_HIPRTC_COMPAT : "");
    const char **argv = calloc((size_t)numOptions + 48, sizeof *argv);
    if (!argv) { res = rtc_fail(HIPRTC_ERROR_OUT_OF_MEMORY, api, "out of memory"); goto out; }
    int n = 0;
    argv[n++] = clang;
    argv[n++] = "-x"; argv[n++] = "hip";
    argv[n++] = a_arch;
    for (char *t = strtok_r(compat, " ", &save); t && n < 16; t = strtok_r(NULL, " ", &save)) argv[n++] = t;
    argv[n++] = "--cuda-device-only";
    argv[n++] = "--no-gpu-bundle-output";
    argv[n++] = a_rocm;
    argv[n++] = *devlibs ? a_dev : "-nogpulib";
    /* hiprtc sources use threadIdx, __global__, ... without including anything */
    argv[n++] = "-include"; argv[n++] = "hip/hip_runtime.h";
    argv[n++] = a_inc;
    argv[n++] = "-O3"; /* hiprtc's default; a user -O<n> comes later and wins */
    argv[n++] = "-fno-color-diagnostics";
    for (int i = 0; i < numOptions; i++) if (!arch_option(options[i])) argv[n++] = options[i];
    argv[n++] = src_path;
    argv[n++] = "-o"; argv[n++] = out_path;
    argv[n] = NULL;
    double timeout = 600;
    const char *te = getenv("TKSIM_HIPRTC_TIMEOUT");
    if (te && *te) {
      char *end;
      double t = strtod(te, &end);
      if (*end || !(t > 0)) log_add(prog, "tksim: hiprtc: ignoring TKSIM_HIPRTC_TIMEOUT=%s (not a positive number of seconds)\n", te);
      else timeout = t;
    }
    int st = run_compiler((char *const *)argv, log_path, timeout);
    int spawn_errno = errno;
    free(argv);
    size_t ln;
    char *clog = (char *)read_file(log_path, &ln);
    if (clog) { log_add(prog, "%s", clog); free(clog); }
    if (st == RUN_TIMED_OUT) {
      log_add(prog, "tksim: hiprtc: %s did not finish within %g s and was killed (TKSIM_HIPRTC_TIMEOUT)\n", clang, timeout);
      res = rtc_fail(HIPRTC_ERROR_COMPILATION, api, "%s did not finish within %g s", clang, timeout);
      goto out;
    }
    if (st == RUN_NO_STATUS) {
      /* the output file decides below */
      log_add(prog, "tksim: hiprtc: could not get the exit status of %s (does the program ignore SIGCHLD?)\n", clang);
      st = 0;
    }
    if (st == RUN_NOT_STARTED) {
      log_add(prog, "tksim: hiprtc: cannot run the compiler '%s': %s (set TKSIM_HIPRTC_CLANG to a clang++ "
              "with AMDGPU support)\n", clang, strerror(spawn_errno));
      res = rtc_fail(HIPRTC_ERROR_INTERNAL_ERROR, api, "cannot run the compiler '%s': %s", clang, strerror(spawn_errno));
      goto out;
    }
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
      if (WIFEXITED(st)) log_add(prog, "tksim: hiprtc: %s exited with status %d\n", clang, WEXITSTATUS(st));
      else log_add(prog, "tksim: hiprtc: %s was killed by signal %d\n", clang, WIFSIGNALED(st) ? WTERMSIG(st) : 0);
      char bc[4400];
      snprintf(bc, sizeof bc, "%s/oclc_isa_version_942.bc", devlibs);
      if (*devlibs && access(bc, R_OK))
        log_add(prog, "tksim: hiprtc: the device library directory %s has no oclc_isa_version_942.bc "
                "(TKSIM_HIPRTC_DEVICE_LIB_PATH)\n", devlibs);
      /* one line: the log has the compiler's messages for the program to show */
      res = rtc_fail(HIPRTC_ERROR_COMPILATION, api, "%s failed on %s; the program log has its messages", clang, prog->name);
      goto out;
    }
    prog->code = read_file(out_path, &prog->code_size);
    if (!prog->code || !prog->code_size || !tks_is_elf(prog->code, prog->code_size)) {
      free(prog->code); prog->code = NULL; prog->code_size = 0;
      log_add(prog, "tksim: hiprtc: %s succeeded but produced no AMDGPU code object\n", clang);
      res = rtc_fail(HIPRTC_ERROR_COMPILATION, api, "the compiler produced no code object");
      goto out;
    }
    find_lowered_names(prog);
    prog->compiled = 1;
  }
out:
  nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
  return res;
}

TKS_EXPORT hiprtcResult hiprtcGetProgramLogSize(hiprtcProgram prog, size_t *logSizeRet)
{
  if (!prog_live(prog)) return rtc_fail(HIPRTC_ERROR_INVALID_PROGRAM, "hiprtcGetProgramLogSize", "not a live hiprtcProgram");
  if (!logSizeRet) return rtc_fail(HIPRTC_ERROR_INVALID_INPUT, "hiprtcGetProgramLogSize", "logSizeRet is NULL");
  *logSizeRet = strlen(prog->log) + 1; /* with the terminating NUL */
  return HIPRTC_SUCCESS;
}

TKS_EXPORT hiprtcResult hiprtcGetProgramLog(hiprtcProgram prog, char *log)
{
  if (!prog_live(prog)) return rtc_fail(HIPRTC_ERROR_INVALID_PROGRAM, "hiprtcGetProgramLog", "not a live hiprtcProgram");
  if (!log) return rtc_fail(HIPRTC_ERROR_INVALID_INPUT, "hiprtcGetProgramLog", "log is NULL");
  memcpy(log, prog->log, strlen(prog->log) + 1);
  return HIPRTC_SUCCESS;
}

TKS_EXPORT hiprtcResult hiprtcGetCodeSize(hiprtcProgram prog, size_t *codeSizeRet)
{
  if (!prog_live(prog)) return rtc_fail(HIPRTC_ERROR_INVALID_PROGRAM, "hiprtcGetCodeSize", "not a live hiprtcProgram");
  if (!codeSizeRet) return rtc_fail(HIPRTC_ERROR_INVALID_INPUT, "hiprtcGetCodeSize", "codeSizeRet is NULL");
  if (!prog->compiled) {
    *codeSizeRet = 0;
    return rtc_fail(HIPRTC_ERROR_INVALID_PROGRAM, "hiprtcGetCodeSize", "the program has not been compiled successfully");
  }
  *codeSizeRet = prog->code_size;
  return HIPRTC_SUCCESS;
}

TKS_EXPORT hiprtcResult hiprtcGetCode(hiprtcProgram prog, char *code)
{
  if (!prog_live(prog)) return rtc_fail(HIPRTC_ERROR_INVALID_PROGRAM, "hiprtcGetCode", "not a live hiprtcProgram");
  if (!code) return rtc_fail(HIPRTC_ERROR_INVALID_INPUT, "hiprtcGetCode", "code is NULL");
  if (!prog->compiled)
    return rtc_fail(HIPRTC_ERROR_INVALID_PROGRAM, "hiprtcGetCode", "the program has not been compiled successfully");
  memcpy(code, prog->code, prog->code_size);
  return HIPRTC_SUCCESS;
}

TKS_EXPORT hiprtcResult hiprtcGetLoweredName(hiprtcProgram prog, const char *name_expression, const char **lowered_name)
{
  static const char api[] = "hiprtcGetLoweredName";
  if (!prog_live(prog)) return rtc_fail(HIPRTC_ERROR_INVALID_PROGRAM, api, "not a live hiprtcProgram");
  if (!name_expression || !lowered_name) return rtc_fail(HIPRTC_ERROR_INVALID_INPUT, api, "null argument");
  if (!prog->compiled)
    return rtc_fail(HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION, api, "the program has not been compiled successfully");
  for (int i = 0; i < prog->nexpr; i++) {
    if (strcmp(prog->expr[i], name_expression)) continue;
    if (!prog->lowered[i])
      return rtc_fail(HIPRTC_ERROR_COMPILATION, api, "no symbol was found for '%s' (see the program log)", name_expression);
    *lowered_name = prog->lowered[i];
    return HIPRTC_SUCCESS;
  }
  return rtc_fail(HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID, api,
                  "'%s' was not added with hiprtcAddNameExpression before compiling", name_expression);
}
