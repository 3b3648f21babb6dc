/* timeline_png: renders a tksim --timeline trace (the writer's own
 * one-event-per-line JSON, sim/model/timeline.c) to a PNG: one row per track
 * of one dispatch, spans coloured by category, over a time window.
 *
 *   tksim-timeline-png TRACE.json OUT.png [DISPATCH [T0_US T1_US]]
 *
 * PNG (RFC 2083): signature, IHDR, one zlib IDAT of filter-0 RGB rows, IEND,
 * each chunk with its CRC-32 (zlib's crc32). No font: a legend strip on the
 * left uses the category colours, and the docs explain the rows. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

typedef struct span { uint32_t tid; double ts, dur; int cat; } span;

static const char *const g_cats[] = {"MFMA", "VALU", "SALU", "SMEM", "LDS", "VMEM", "BRANCH", "MISC",
                                     "wait", "barrier", "WAIT", "BARRIER"};
static const uint8_t g_col[][3] = {{220, 40, 40},  {40, 110, 220}, {120, 120, 120}, {150, 90, 200},
                                   {40, 170, 70},  {240, 150, 30}, {160, 160, 160}, {190, 190, 190},
                                   {250, 220, 60}, {30, 30, 30},   {250, 220, 60},  {30, 30, 30}};
#define NCAT (int)(sizeof g_cats / sizeof *g_cats)

static int cat_of(const char *c)
{
  for (int i = 0; i < NCAT; i++)
    if (!strcmp(c, g_cats[i])) return i;
  return 7;
}

static int row_of(uint32_t tid)
{
  /* wave w: rows grouped per wave (instructions, LDS, VMEM); SIMD pipes last */
  if (tid < 100) return (int)tid * 3;
  if (tid < 200) return 48 + (int)(tid - 100);
  if (tid < 300) return (int)(tid - 200) * 3 + 1;
  return (int)(tid - 300) * 3 + 2;
}

static void chunk(FILE *f, const char *type, const uint8_t *d, uint32_t n)
{
  uint8_t h[8] = {n >> 24, n >> 16, n >> 8, n, type[0], type[1], type[2], type[3]};
  fwrite(h, 1, 8, f);
  if (n) fwrite(d, 1, n, f);
  uLong c = crc32(0, h + 4, 4);
  if (n) c = crc32(c, d, n);
  uint8_t t[4] = {c >> 24, c >> 16, c >> 8, c};
  fwrite(t, 1, 4, f);
}

int main(int argc, char **argv)
{
  if (argc < 3) {
    fprintf(stderr, "usage: %s TRACE.json OUT.png [DISPATCH [T0_US T1_US]]\n", argv[0]);
    return 2;
  }
  int pid = argc > 3 ? atoi(argv[3]) : 1;
  double t0 = argc > 5 ? atof(argv[4]) : -1, t1 = argc > 5 ? atof(argv[5]) : -1;
  FILE *f = fopen(argv[1], "r");
  if (!f) { fprintf(stderr, "timeline_png: cannot open %s\n", argv[1]); return 1; }
  span *s = NULL;
  size_t n = 0, cap = 0;
  char line[4096];
  while (fgets(line, sizeof line, f)) {
    int p;
    unsigned tid;
    double ts, dur;
    char cat[32];
    if (sscanf(line, ",{\"ph\":\"X\",\"pid\":%d,\"tid\":%u,\"ts\":%lf,\"dur\":%lf,\"cat\":\"%31[^\"]\"", &p, &tid,
               &ts, &dur, cat) != 5 &&
        sscanf(line, "{\"ph\":\"X\",\"pid\":%d,\"tid\":%u,\"ts\":%lf,\"dur\":%lf,\"cat\":\"%31[^\"]\"", &p, &tid,
               &ts, &dur, cat) != 5)
      continue;
    if (p != pid) continue;
    if (n == cap) {
      cap = cap ? cap * 2 : 4096;
      s = realloc(s, cap * sizeof *s);
      if (!s) { fprintf(stderr, "timeline_png: out of memory\n"); return 1; }
    }
    s[n++] = (span){tid, ts, dur, cat_of(cat)};
  }
  fclose(f);
  if (!n) { fprintf(stderr, "timeline_png: no spans for dispatch %d in %s\n", pid, argv[1]); return 1; }
  if (t0 < 0) {
    t0 = s[0].ts;
    t1 = t0;
    for (size_t i = 0; i < n; i++) {
      if (s[i].ts < t0) t0 = s[i].ts;
      if (s[i].ts + s[i].dur > t1) t1 = s[i].ts + s[i].dur;
    }
  }
  if (t1 <= t0) { fprintf(stderr, "timeline_png: empty time window\n"); return 1; }
  /* keep only the rows some span uses (4-wave kernels leave 12 waves empty) */
  static int map[64];
  for (size_t i = 0; i < n; i++) map[row_of(s[i].tid)] = 1;
  int rows = 0;
  for (int r = 0; r < 64; r++) map[r] = map[r] ? rows++ : -1;
  const int W = 1600, L = 40, RH = 18, H = rows * RH + 4;
  uint8_t *img = malloc((size_t)H * (1 + W * 3));
  for (int y = 0; y < H; y++) {
    uint8_t *r = img + (size_t)y * (1 + W * 3);
    r[0] = 0;
    for (int x = 0; x < W; x++) {
      int band = (y / RH) % 6 < 3; /* alternate shading per wave's three rows */
      r[1 + x * 3] = r[2 + x * 3] = r[3 + x * 3] = band ? 248 : 236;
    }
  }
  /* legend strip: each row's left margin in the colour of its kind */
  for (int r = 0; r < 64; r++) {
    if (map[r] < 0) continue;
    int row = map[r];
    const uint8_t *c = r >= 48 ? g_col[0] : r % 3 == 0 ? g_col[1] : r % 3 == 1 ? g_col[4] : g_col[5];
    for (int y = row * RH + 2; y < row * RH + RH - 1 && y < H; y++)
      for (int x = 2; x < L - 6; x++) memcpy(img + (size_t)y * (1 + W * 3) + 1 + x * 3, c, 3);
  }
  for (size_t i = 0; i < n; i++) {
    double a = s[i].ts, b = s[i].ts + s[i].dur;
    if (b < t0 || a > t1) continue;
    int x0 = L + (int)((a - t0) / (t1 - t0) * (W - L - 1));
    int x1 = L + (int)((b - t0) / (t1 - t0) * (W - L - 1));
    if (x0 < L) x0 = L;
    if (x1 >= W) x1 = W - 1;
    int row = map[row_of(s[i].tid)];
    for (int y = row * RH + 2; y < row * RH + RH - 1 && y < H; y++)
      for (int x = x0; x <= x1; x++) memcpy(img + (size_t)y * (1 + W * 3) + 1 + x * 3, g_col[s[i].cat], 3);
  }
  uLongf zn = compressBound((uLong)H * (1 + W * 3));
  uint8_t *z = malloc(zn);
  if (compress2(z, &zn, img, (uLong)H * (1 + W * 3), 9) != Z_OK) { fprintf(stderr, "timeline_png: zlib failed\n"); return 1; }
  FILE *o = fopen(argv[2], "wb");
  if (!o) { fprintf(stderr, "timeline_png: cannot write %s\n", argv[2]); return 1; }
  static const uint8_t sig[8] = {137, 80, 78, 71, 13, 10, 26, 10};
  fwrite(sig, 1, 8, o);
  uint8_t ih[13] = {0, 0, (uint8_t)(W >> 8), (uint8_t)W, (uint8_t)(H >> 24), (uint8_t)(H >> 16), (uint8_t)(H >> 8), (uint8_t)H, 8, 2, 0, 0, 0};
  chunk(o, "IHDR", ih, 13);
  chunk(o, "IDAT", z, (uint32_t)zn);
  chunk(o, "IEND", NULL, 0);
  int bad = ferror(o);
  bad |= fclose(o) != 0;
  printf("%s: %zu spans, %d rows, window %.3f..%.3f us\n", argv[2], n, rows, t0, t1);
  free(z);
  free(img);
  free(s);
  return bad;
}
