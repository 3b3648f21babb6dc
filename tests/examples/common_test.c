/* common_test: the example programs' shared host pieces (examples/common)
 * against hand-worked values: number and shape-list parsing, the shared
 * option rules, the SVG tick step, the CPU reference on a 2x2 case worked by
 * hand, the comparison's NaN and boundary rules, seeded inputs, a sweep's
 * CSV text and outputs, and the OCP
 * e4m3 pieces (gfx950): the fast encoder against tk/types.h's exhaustive
 * reference and hand-worked codes, the edge list, the fp8 CPU reference. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "expect.h"
#include "inputs.h"
#include "plot.h"
#include "ref.h"
#include "sweep.h"

#include <tk/types.h>

int main(int argc, char **argv)
{
  const char *dir = argc > 1 ? argv[1] : ".";
  int64_t i64 = 7;
  float f = 0;
  EXPECT(tk_cli_i64("-12", &i64) && i64 == -12);
  EXPECT(!tk_cli_i64("12x", &i64) && !tk_cli_i64("", &i64) && !tk_cli_i64("99999999999999999999", &i64));
  EXPECT(i64 == -12); /* untouched by failures */
  EXPECT(tk_cli_f32("-0.75", &f) && f == -0.75f);
  EXPECT(!tk_cli_f32("nan", &f) && !tk_cli_f32("1e39", &f) && !tk_cli_f32("1.5 ", &f));

  int64_t sh[3 * 4];
  EXPECT(tk_cli_shapes("64x64x64,96x32x160", 3, sh, 4) == 2);
  EXPECT(sh[0] == 64 && sh[3] == 96 && sh[4] == 32 && sh[5] == 160);
  EXPECT(tk_cli_shapes("1x2x3,", 3, sh, 4) == 1);
  EXPECT(tk_cli_shapes("64x64", 3, sh, 4) == -1);
  EXPECT(tk_cli_shapes("64x0x1", 3, sh, 4) == -1);
  EXPECT(tk_cli_shapes("1x2x3,,4x5x6", 3, sh, 4) == -1);
  EXPECT(tk_cli_shapes("1x2x3x4", 3, sh, 4) == -1);
  EXPECT(tk_cli_shapes("1x2x3,1x2x3,1x2x3,1x2x3,1x2x3", 3, sh, 4) == -1);
  EXPECT(tk_cli_shapes("", 3, sh, 4) == -1);
  /* the shared option rules (cli.h), first broken one named */
  unsetenv("TKSIM_MODEL_SAMPLE");
  EXPECT(tk_cli_common_error(1, 0, 1, 0, NULL, NULL) == NULL);
  EXPECT(tk_cli_common_error(0, 1, 0, 3, "a.csv", "a.svg") == NULL);
  EXPECT(!strcmp(tk_cli_common_error(0, 0, 0, 1, NULL, "a.svg"), "--csv/--svg need --sweep"));
  EXPECT(!strcmp(tk_cli_common_error(1, 1, 0, 1, NULL, NULL), "--check and --sweep are exclusive"));
  EXPECT(!strcmp(tk_cli_common_error(0, 0, 1, 1, NULL, NULL), "--inject-error needs --check"));
  EXPECT(!strcmp(tk_cli_common_error(0, 1, 0, 0, NULL, NULL), "--sweep needs --iters >= 1"));
  setenv("TKSIM_MODEL_SAMPLE", "2", 1);
  EXPECT(strstr(tk_cli_common_error(1, 0, 0, 1, NULL, NULL), "refused under tksim --model-sample") != NULL);
  EXPECT(tk_cli_common_error(0, 0, 0, 1, NULL, NULL) == NULL);
  setenv("TKSIM_MODEL_SAMPLE", "0", 1);
  EXPECT(tk_cli_common_error(1, 0, 0, 1, NULL, NULL) == NULL);
  unsetenv("TKSIM_MODEL_SAMPLE");
  int64_t cnt = 9;
  int cnt_set = 0;
  EXPECT(!strcmp(tk_cli_count("--iters", -1, &cnt, &cnt_set), "--iters must be >= 0 (0: no timing)"));
  EXPECT(!strcmp(tk_cli_count("--warmup", -3, &cnt, &cnt_set), "--warmup must be >= 0"));
  EXPECT(cnt == 9 && cnt_set == 0);
  EXPECT(tk_cli_count("--warmup", 0, &cnt, &cnt_set) == NULL && cnt == 0 && cnt_set == 1);

  const char *list = "8wave,4wave", *item;
  size_t len;
  EXPECT(tk_cli_list_next(&list, &item, &len) && len == 5 && !strncmp(item, "8wave", 5));
  EXPECT(tk_cli_list_next(&list, &item, &len) && len == 5 && !strncmp(item, "4wave", 5));
  EXPECT(!tk_cli_list_next(&list, &item, &len));

  /* about 5 ticks over 10: step 2; over 1: 0.2; over 45 with 6: 45/6 = 7.5 -> 10 */
  EXPECT(fabs(tk_plot_nice_step(10, 5) - 2) < 1e-12);
  EXPECT(fabs(tk_plot_nice_step(1, 5) - 0.2) < 1e-12);
  EXPECT(fabs(tk_plot_nice_step(45, 6) - 10) < 1e-12);
  EXPECT(fabs(tk_plot_nice_step(0.07, 6) - 0.01) < 1e-12);

  /* A = [1 2; 3 4] row-major, B stored N x K = [1 -1; 0.5 2] (nt):
   * C = A B^T = [1-2, 0.5+4; 3-4, 1.5+8] = [-1 4.5; -1 9.5], magnitudes [3 4.5; 7 9.5] */
  const uint16_t a[4] = {bf(1), bf(2), bf(3), bf(4)}, b[4] = {bf(1), bf(-1), bf(0.5f), bf(2)};
  double sum[4], mag[4];
  EXPECT(tk_ref_matmul_bf16(2, 2, 2, a, 2, 1, b, 1, 2, sum, mag) == 0);
  EXPECT(sum[0] == -1 && sum[1] == 4.5 && sum[2] == -1 && sum[3] == 9.5);
  EXPECT(mag[0] == 3 && mag[1] == 4.5 && mag[2] == 7 && mag[3] == 9.5);
  /* the same B stored K x N (nn): B^T = [1 0.5; -1 2] -> same product */
  const uint16_t bkn[4] = {bf(1), bf(0.5f), bf(-1), bf(2)};
  EXPECT(tk_ref_matmul_bf16(2, 2, 2, a, 2, 1, bkn, 2, 1, sum, mag) == 0);
  EXPECT(sum[0] == -1 && sum[1] == 4.5 && sum[2] == -1 && sum[3] == 9.5);

  tk_cmp c;
  tk_cmp_init(&c);
  tk_cmp_add(&c, 1.5, 1.0, 0.5); /* exactly at the bound: passes */
  EXPECT(c.nbad == 0 && c.max_abs == 0.5 && c.worst_ratio == 1.0 && c.max_rel == 0.5);
  tk_cmp_add(&c, NAN, 1.0, 10.0);
  EXPECT(c.nbad == 1 && isinf(c.max_abs) && isinf(c.worst_ratio));
  tk_cmp_add(&c, 3.0, 1.0, 1.0);
  EXPECT(c.nbad == 2);

  tk_rng r1, r2;
  tk_rng_seed(&r1, 42);
  tk_rng_seed(&r2, 42);
  int same = 1, in_range = 1;
  for (int i = 0; i < 1000; ++i) {
    const uint16_t x = tk_rng_bf16(&r1), y = tk_rng_bf16(&r2);
    const float v = tk_ex_bf16_to_f32(x);
    same &= x == y;
    in_range &= v >= -1.0f && v <= 1.0f; /* [-1, 1) rounds to at most 1.0 in bf16 */
  }
  EXPECT(same && in_range);
  tk_rng_seed(&r2, 43);
  EXPECT(tk_rng_next(&r1) != tk_rng_next(&r2));
  EXPECT(tk_ex_f32_to_bf16(1.0f) == 0x3f80 && tk_ex_bf16_to_f32(0xc000) == -2.0f);

  /* a sweep of two runs: CSV text; 2e12 FLOP in 1 ms = 2000 TFLOP/s */
  tk_sweep sw;
  tk_sweep_init(&sw, "test", "m,n");
  EXPECT(tk_sweep_add(&sw, "1,2", "1x2", "fast", 1.0, 2e12, TK_TIMING_MODELED) == 0);
  EXPECT(tk_sweep_add(&sw, "1,2", "1x2", "slow", 4.0, 2e12, TK_TIMING_EMULATED) == 0);
  EXPECT(sw.n == 2 && sw.rows[0].tflops == 2000 && sw.rows[1].tflops == 0);
  char path[512];
  snprintf(path, sizeof path, "%s/common_test.csv", dir);
  EXPECT(tk_sweep_write_csv(&sw, path) == 0);
  char text[512] = "";
  FILE *fp = fopen(path, "r");
  if (fp) {
    text[fread(text, 1, sizeof text - 1, fp)] = 0;
    fclose(fp);
  }
  EXPECT(!strcmp(text, "m,n,kernel,ms,tflops,timing\n1,2,fast,1.000000,2000,modeled\n1,2,slow,4.000000,,emulated\n"));
  EXPECT(tk_sweep_write_csv(&sw, "/nonexistent-dir/x.csv") == -1);
  /* both outputs through the programs' helper: 0, or 2 when one fails */
  EXPECT(tk_sweep_write_outputs(&sw, "common_test", path, NULL) == 0);
  EXPECT(tk_sweep_write_outputs(&sw, "common_test", path, "/nonexistent-dir/x.svg") == 2);
  EXPECT(tk_sweep_write_outputs(&sw, "common_test", NULL, NULL) == 0);
  tk_sweep_free(&sw);

  /* OCP e4m3 (bias 7): the binary-search encoder gives tk_f32_to_ocp_e4m3_ref's
   * code for every float 0..500 on a 2^12-ulp grid (all tie points included:
   * they are exact multiples of >= 2^-10) and for the negatives */
  int enc_bad = 0;
  for (uint32_t u = 0; u <= 0x43fa0000u; u += 0x1000u) {
    float f;
    memcpy(&f, &u, 4);
    if (tk_ex_f32_to_ocp_e4m3(f) != tk_f32_to_ocp_e4m3_ref(f) || tk_ex_f32_to_ocp_e4m3(-f) != tk_f32_to_ocp_e4m3_ref(-f))
      ++enc_bad;
  }
  EXPECT(enc_bad == 0);
  /* hand-worked: -0 -> 0x80 (OCP has -0), 1 = 0x38, 448 = 0x7e (max finite),
   * 460 -> 448, 465 -> NaN 0x7f, 2^-9 = 0x01 (smallest subnormal), 1.5*2^-9
   * ties to the even code 0x02, 2^-6 = 0x08, -2^-11 -> -0 */
  EXPECT(tk_ex_f32_to_ocp_e4m3(-0.0f) == 0x80 && tk_ex_f32_to_ocp_e4m3(1.0f) == 0x38);
  EXPECT(tk_ex_f32_to_ocp_e4m3(448.0f) == 0x7e && tk_ex_f32_to_ocp_e4m3(-448.0f) == 0xfe);
  EXPECT(tk_ex_f32_to_ocp_e4m3(460.0f) == 0x7e && tk_ex_f32_to_ocp_e4m3(465.0f) == 0x7f);
  EXPECT(tk_ex_f32_to_ocp_e4m3(0x1p-9f) == 0x01 && tk_ex_f32_to_ocp_e4m3(0x1.8p-9f) == 0x02);
  EXPECT(tk_ex_f32_to_ocp_e4m3(0x1p-6f) == 0x08 && tk_ex_f32_to_ocp_e4m3(-0x1p-11f) == 0x80);
  /* the edge lists: 12 values each; OCP's include +-448 and -0 */
  const float *ev;
  EXPECT(tk_fp8e4_edges(&ev, 0) == 12 && ev[7] == 240.0f);
  EXPECT(tk_fp8e4_edges(&ev, 1) == 12 && ev[7] == 448.0f && ev[8] == -448.0f && signbit(ev[0]));
  /* fp8 CPU reference, 1x1x2: OCP [448, -0] . [2, 1] = 896 (0x7e = 448,
   * 0x80 = -0, 0x40 = 2, 0x38 = 1); the same bytes as FNUZ: 0x7e = 224,
   * 0x80 is NaN there, and [224, 0] . [1, 0.5] = 224 (bias 8) */
  const uint8_t oa[2] = {0x7e, 0x80}, ob[2] = {0x40, 0x38};
  double s1, m1;
  EXPECT(tk_ref_matmul_fp8e4(1, 1, 2, oa, 2, 1, ob, 1, 1, &s1, &m1, 1) == 0 && s1 == 896.0 && m1 == 896.0);
  EXPECT(tk_ref_matmul_fp8e4(1, 1, 2, oa, 2, 1, ob, 1, 1, &s1, &m1, 0) == 0 && isnan(s1));
  const uint8_t fa[2] = {0x7e, 0x00};
  EXPECT(tk_ref_matmul_fp8e4(1, 1, 2, fa, 2, 1, ob, 1, 1, &s1, &m1, 0) == 0 && s1 == 224.0); /* FNUZ 0x40 = 1 */
  /* seeded OCP inputs: uniform in [-1, 1): never beyond 1 in magnitude */
  tk_rng r8;
  tk_rng_seed(&r8, 7);
  uint8_t buf[4096];
  tk_rng_fill_fp8e4(&r8, buf, sizeof buf, 1, 1);
  int big = 0;
  for (size_t i = 0; i < sizeof buf; ++i)
    if (i % 4 && fabs(tk_ocp_e4m3_to_f32_ref(buf[i])) > 1.0) ++big;
  EXPECT(big == 0 && buf[0] == 0x80 && buf[28] == 0x7e); /* edges 0 (-0) and 7 (448) */

  printf(failures ? "common_test: %d failures\n" : "common_test: all ok\n", failures);
  return failures ? 1 : 0;
}
