/* plot.c: SVG charts (see plot.h). Coordinates are written with one decimal:
 * a tenth of a pixel is below what any renderer shows. */
#include "plot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FONT "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\""

void tk_plot_escape(FILE *f, const char *s)
{
  for (; s && *s; ++s) {
    switch (*s) {
    case '&': fputs("&amp;", f); break;
    case '<': fputs("&lt;", f); break;
    case '>': fputs("&gt;", f); break;
    case '"': fputs("&quot;", f); break;
    default: fputc(*s, f);
    }
  }
}

const char *tk_plot_color(int i)
{
  /* Okabe-Ito order with two extra greys: distinguishable with common colour-vision deficiencies */
  static const char *const pal[] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00",
                                    "#56b4e9", "#f0e442", "#000000", "#999999", "#666666"};
  return pal[(i < 0 ? -i : i) % 10];
}

int tk_plot_open(tk_plot *p, const char *path, double width, double height, const char *title)
{
  memset(p, 0, sizeof *p);
  p->f = fopen(path, "w");
  if (!p->f) return -1;
  p->width = width;
  p->height = height;
  p->left = 80, p->top = 50, p->right = width - 20, p->bottom = height - 60;
  p->xmax = p->ymax = 1;
  fprintf(p->f,
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" height=\"%.0f\" "
          "viewBox=\"0 0 %.0f %.0f\" " FONT ">\n<title>",
          width, height, width, height);
  tk_plot_escape(p->f, title);
  fputs("</title>\n<rect x=\"0\" y=\"0\" width=\"100%\" height=\"100%\" fill=\"white\"/>\n", p->f);
  tk_plot_text(p, width / 2, 24, 15, "middle", title);
  return 0;
}

void tk_plot_area(tk_plot *p, double ml, double mt, double mr, double mb)
{
  p->left = ml, p->top = mt, p->right = p->width - mr, p->bottom = p->height - mb;
}

void tk_plot_range(tk_plot *p, double xmin, double xmax, double ymin, double ymax)
{
  p->xmin = xmin, p->xmax = xmax > xmin ? xmax : xmin + 1;
  p->ymin = ymin, p->ymax = ymax > ymin ? ymax : ymin + 1;
}

double tk_plot_x(const tk_plot *p, double x)
{
  return p->left + (x - p->xmin) / (p->xmax - p->xmin) * (p->right - p->left);
}

double tk_plot_y(const tk_plot *p, double y)
{
  return p->bottom - (y - p->ymin) / (p->ymax - p->ymin) * (p->bottom - p->top);
}

double tk_plot_nice_step(double span, int target)
{
  if (!(span > 0) || target < 1) return 1;
  const double raw = span / target, mag = pow(10, floor(log10(raw))), r = raw / mag;
  return (r < 1.5 ? 1 : r < 3.5 ? 2 : r < 7.5 ? 5 : 10) * mag;
}

void tk_plot_text(tk_plot *p, double x, double y, double size, const char *anchor, const char *text)
{
  fprintf(p->f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.0f\" text-anchor=\"%s\">", x, y, size, anchor);
  tk_plot_escape(p->f, text);
  fputs("</text>\n", p->f);
}

static void line(tk_plot *p, double x0, double y0, double x1, double y1, const char *stroke)
{
  fprintf(p->f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1\"/>\n", x0, y0,
          x1, y1, stroke);
}

/* tick label with as many decimals as the step needs */
static void tick_label(char *buf, size_t n, double v, double step)
{
  int dec = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
  if (dec > 9) dec = 9;
  if (fabs(v) < step * 1e-6) v = 0; /* no "-0" */
  snprintf(buf, n, "%.*f", dec, v);
}

void tk_plot_axis_x(tk_plot *p, const char *label, int grid)
{
  const double step = tk_plot_nice_step(p->xmax - p->xmin, 8);
  char buf[48];
  for (double v = ceil(p->xmin / step - 1e-9) * step; v <= p->xmax + step * 1e-9; v += step) {
    const double x = tk_plot_x(p, v);
    if (grid) line(p, x, p->top, x, p->bottom, "#dddddd");
    line(p, x, p->bottom, x, p->bottom + 5, "black");
    tick_label(buf, sizeof buf, v, step);
    tk_plot_text(p, x, p->bottom + 18, 11, "middle", buf);
  }
  line(p, p->left, p->bottom, p->right, p->bottom, "black");
  tk_plot_text(p, (p->left + p->right) / 2, p->bottom + 38, 12, "middle", label);
}

void tk_plot_axis_y(tk_plot *p, const char *label, int grid)
{
  const double step = tk_plot_nice_step(p->ymax - p->ymin, 6);
  char buf[48];
  for (double v = ceil(p->ymin / step - 1e-9) * step; v <= p->ymax + step * 1e-9; v += step) {
    const double y = tk_plot_y(p, v);
    if (grid) line(p, p->left, y, p->right, y, "#dddddd");
    line(p, p->left - 5, y, p->left, y, "black");
    tick_label(buf, sizeof buf, v, step);
    tk_plot_text(p, p->left - 8, y + 4, 11, "end", buf);
  }
  line(p, p->left, p->top, p->left, p->bottom, "black");
  const double cx = p->left - 58, cy = (p->top + p->bottom) / 2;
  fprintf(p->f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" text-anchor=\"middle\" transform=\"rotate(-90 %.1f %.1f)\">",
          cx, cy, cx, cy);
  tk_plot_escape(p->f, label);
  fputs("</text>\n", p->f);
}

void tk_plot_axis_x_cats(tk_plot *p, int n, const char *const *names, const char *label)
{
  for (int i = 0; i < n; ++i) {
    const double x = tk_plot_x(p, i + 0.5);
    line(p, x, p->bottom, x, p->bottom + 5, "black");
    tk_plot_text(p, x, p->bottom + 18, 11, "middle", names[i]);
  }
  line(p, p->left, p->bottom, p->right, p->bottom, "black");
  tk_plot_text(p, (p->left + p->right) / 2, p->bottom + 38, 12, "middle", label);
}

void tk_plot_axis_y_rows(tk_plot *p, int n, const char *const *names, const char *label)
{
  /* rows top down: row i spans y in [n-1-i, n-i] */
  for (int i = 0; i < n; ++i) {
    const double y = tk_plot_y(p, n - i - 0.5);
    tk_plot_text(p, p->left - 6, y + 4, 10, "end", names[i]);
  }
  line(p, p->left, p->top, p->left, p->bottom, "black");
  if (label && *label) tk_plot_text(p, 8, p->top - 10, 11, "start", label);
}

void tk_plot_rect(tk_plot *p, double x0, double y0, double x1, double y1, const char *fill, const char *cls,
                  const char *attrs, const char *tip)
{
  double a = tk_plot_x(p, x0 < x1 ? x0 : x1), b = tk_plot_x(p, x0 < x1 ? x1 : x0);
  double t = tk_plot_y(p, y0 > y1 ? y0 : y1), u = tk_plot_y(p, y0 > y1 ? y1 : y0);
  if (a < p->left) a = p->left;
  if (b > p->right) b = p->right;
  if (t < p->top) t = p->top;
  if (u > p->bottom) u = p->bottom;
  if (b <= a || u <= t) return;
  fprintf(p->f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"", a, t, b - a < 0.1 ? 0.1 : b - a,
          u - t, fill);
  if (cls) fprintf(p->f, " class=\"%s\"", cls);
  if (attrs) fprintf(p->f, " %s", attrs);
  if (tip) {
    fputs("><title>", p->f);
    tk_plot_escape(p->f, tip);
    fputs("</title></rect>\n", p->f);
  } else
    fputs("/>\n", p->f);
}

double tk_plot_legend_width(int n, const char *const *names)
{
  size_t longest = 1;
  for (int i = 0; i < n; ++i)
    if (strlen(names[i]) > longest) longest = strlen(names[i]);
  return 30 + 6.5 * (double)longest; /* 11 px text: about 6.5 px per character */
}

void tk_plot_legend(tk_plot *p, double x, double y, int n, const char *const *names, const char *const *colors)
{
  const double w = tk_plot_legend_width(n, names), h = 8 + 16 * n;
  fprintf(p->f, "<g class=\"legend\">\n<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"white\" "
          "fill-opacity=\"0.9\" stroke=\"#888888\"/>\n", x, y, w, (double)h);
  for (int i = 0; i < n; ++i) {
    fprintf(p->f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"10\" fill=\"%s\"/>\n", x + 6, y + 6 + 16 * i,
            colors[i]);
    tk_plot_text(p, x + 24, y + 15 + 16 * i, 11, "start", names[i]);
  }
  fputs("</g>\n", p->f);
}

int tk_plot_close(tk_plot *p)
{
  fputs("</svg>\n", p->f);
  int bad = p->err || ferror(p->f);
  bad |= fclose(p->f) != 0;
  p->f = NULL;
  return bad ? -1 : 0;
}

/* s XML-escaped into out (truncated to n - 1 bytes) */
static void escape_to(char *out, size_t n, const char *s)
{
  size_t o = 0;
  for (; *s && o + 7 < n; ++s) {
    const char *e = *s == '&' ? "&amp;" : *s == '<' ? "&lt;" : *s == '>' ? "&gt;" : *s == '"' ? "&quot;" : NULL;
    if (e) o += (size_t)snprintf(out + o, n - o, "%s", e);
    else out[o++] = *s;
  }
  out[o] = 0;
}

int tk_plot_bars(const char *path, const tk_plot_bars_spec *s)
{
  double mx = 0;
  for (int i = 0; i < s->ngroups * s->nseries; ++i)
    if (s->values[i] > mx) mx = s->values[i]; /* NaN compares false */
  if (mx <= 0) mx = 1;
  const double step = tk_plot_nice_step(mx, 6), top = ceil(mx * 1.08 / step) * step;
  const double gw = s->nseries * 30.0 + 50 > 130 ? s->nseries * 30.0 + 50 : 130;
  double width = 110 + gw * s->ngroups;
  if (width < 560) width = 560;
  const char *colors[10];
  const int ns = s->nseries < 10 ? s->nseries : 10;
  for (int k = 0; k < ns; ++k) colors[k] = tk_plot_color(k);
  const double lw = tk_plot_legend_width(ns, s->series);
  width += lw + 20;
  tk_plot p;
  if (tk_plot_open(&p, path, width, 460, s->title) != 0) return -1;
  if (s->subtitle) tk_plot_text(&p, width / 2, 44, 12, "middle", s->subtitle);
  tk_plot_area(&p, 90, 70, 30 + lw, 60); /* legend right of the area */
  tk_plot_range(&p, 0, s->ngroups, 0, top);
  tk_plot_axis_y(&p, s->ylabel, 1);
  tk_plot_axis_x_cats(&p, s->ngroups, s->groups, s->xlabel);
  const double bw = 0.8 / s->nseries;
  char attrs[640], tip[320], val[32], g_esc[192], s_esc[192];
  for (int g = 0; g < s->ngroups; ++g)
    for (int k = 0; k < s->nseries; ++k) {
      const double v = s->values[g * s->nseries + k];
      if (isnan(v)) continue;
      const double x0 = g + 0.1 + k * bw;
      snprintf(val, sizeof val, "%.4g", v);
      escape_to(g_esc, sizeof g_esc, s->groups[g]);
      escape_to(s_esc, sizeof s_esc, s->series[k]);
      snprintf(attrs, sizeof attrs, "data-group=\"%s\" data-series=\"%s\" data-value=\"%.9g\"", g_esc, s_esc, v);
      snprintf(tip, sizeof tip, "%s, %s: %s %s", s->groups[g], s->series[k], val, s->ylabel);
      tk_plot_rect(&p, x0, 0, x0 + bw * 0.92, v, tk_plot_color(k), "bar", attrs, tip);
      tk_plot_text(&p, tk_plot_x(&p, x0 + bw * 0.46), tk_plot_y(&p, v) - 4, 10, "middle", val);
    }
  tk_plot_legend(&p, p.right + 15, p.top, ns, s->series, colors);
  return tk_plot_close(&p);
}
