/* options.c: tksim's run options, read once from the TKSIM_* environment
 * variables that the `tksim` driver (sim/driver/tksim.c) sets from its command
 * line. The variable names and encodings are listed in docs/tksim-runtime.md;
 * a program started without the driver gets the defaults (all checks on, no
 * report, no timing model).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "tksim.h"

static tks_options g_opt;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

static int env_int(const char *name, int def)
{
  const char *v = getenv(name);
  if (!v || !*v) return def;
  return (int)strtol(v, NULL, 10);
}

static uint64_t env_u64(const char *name, uint64_t def)
{
  const char *v = getenv(name);
  if (!v || !*v) return def;
  return (uint64_t)strtoull(v, NULL, 10);
}

int tks_model_id(const char *name)
{
  if (!name || !*name || !strcmp(name, "off")) return 0;
  if (!strcmp(name, "mi300x")) return TKS_MODEL_MI300X;
  if (!strcmp(name, "mi325x")) return TKS_MODEL_MI325X;
  if (!strcmp(name, "mi350x")) return TKS_MODEL_MI350X;
  if (!strcmp(name, "mi355x")) return TKS_MODEL_MI355X;
  return -1;
}

int tks_model_arch(int sku)
{
  if (sku == TKS_MODEL_MI300X || sku == TKS_MODEL_MI325X) return TKS_ARCH_GFX942;
  if (sku == TKS_MODEL_MI350X || sku == TKS_MODEL_MI355X) return TKS_ARCH_GFX950;
  return -1;
}

static void load(void)
{
  g_opt.check_memory = env_int("TKSIM_CHECK_MEMORY", 1);
  g_opt.check_waits = env_int("TKSIM_CHECK_WAITS", 1);
  g_opt.check_races = env_int("TKSIM_CHECK_RACES", 1);
  g_opt.inst_budget = env_u64("TKSIM_BUDGET", 0);
  g_opt.stall_seconds = (uint32_t)env_u64("TKSIM_STALL", 0);
  g_opt.threads = env_int("TKSIM_THREADS", 0);
  g_opt.report = env_int("TKSIM_REPORT", 0);
  int m = tks_model_id(getenv("TKSIM_MODEL"));
  g_opt.model = m < 0 ? 0 : m;
  g_opt.model_sample = env_int("TKSIM_MODEL_SAMPLE", 0);
  const char *sp = getenv("TKSIM_MODEL_SPREAD"); /* "grid" or a period in workgroups */
  g_opt.model_spread = sp && !strcmp(sp, "grid") ? UINT64_MAX : env_u64("TKSIM_MODEL_SPREAD", 0);
  const char *t = getenv("TKSIM_TIMELINE");
  g_opt.timeline = (t && *t) ? t : NULL;
  g_opt.quiet = env_int("TKSIM_QUIET", 0);
  /* an unknown TKSIM_ARCH is refused by the driver; a program started
   * without it falls back to gfx942 */
  int a = tks_arch_id(getenv("TKSIM_ARCH"));
  g_opt.arch = a < 0 ? TKS_ARCH_GFX942 : a;
}

const tks_options *tks_get_options(void)
{
  pthread_once(&g_once, load);
  return &g_opt;
}
