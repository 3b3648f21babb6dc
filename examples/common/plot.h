/* plot.h: charts as SVG 1.1 text (W3C SVG 1.1, plain XML; no library), for
 * the examples' sweeps and tksim's timeline renderer.
 *
 * A chart is a plot area with a linear or categorical axis on each side,
 * tick labels, axis labels with units, a title and a legend.  Data marks carry
 * their values as attributes (class, data-group, data-series, data-value), so
 * tests and scripts can read a chart back with any XML parser.
 *
 * Usage: tk_plot_open, tk_plot_area, tk_plot_range, axes, marks, legend,
 * tk_plot_close; or tk_plot_bars for a whole grouped bar chart. */
#ifndef TK_EXAMPLES_PLOT_H
#define TK_EXAMPLES_PLOT_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tk_plot {
  FILE *f;
  int err;                          /* a write failed */
  double width, height;             /* picture, px */
  double left, top, right, bottom;  /* plot area, px from the picture's top left */
  double xmin, xmax, ymin, ymax;    /* data range shown in the plot area */
} tk_plot;

/* Creates `path` and writes the SVG header and the title (XML-escaped).
 * Returns 0, or -1 when the file cannot be created. */
int tk_plot_open(tk_plot *p, const char *path, double width, double height, const char *title);
/* Plot area margins in px (left, top, right, bottom). */
void tk_plot_area(tk_plot *p, double ml, double mt, double mr, double mb);
/* Data range of the plot area; y grows upwards. */
void tk_plot_range(tk_plot *p, double xmin, double xmax, double ymin, double ymax);
double tk_plot_x(const tk_plot *p, double x); /* data -> px */
double tk_plot_y(const tk_plot *p, double y);

/* A tick step of 1, 2 or 5 times a power of ten giving about `target` ticks. */
double tk_plot_nice_step(double span, int target);
/* Linear axes with ticks every tk_plot_nice_step, tick labels, light grid
 * lines across the area when `grid`, and the axis label (say the unit). */
void tk_plot_axis_x(tk_plot *p, const char *label, int grid);
void tk_plot_axis_y(tk_plot *p, const char *label, int grid);
/* Categorical axes: category i spans [i, i+1] of the range, labelled at its
 * middle; rows (y) are numbered top down. */
void tk_plot_axis_x_cats(tk_plot *p, int n, const char *const *names, const char *label);
void tk_plot_axis_y_rows(tk_plot *p, int n, const char *const *names, const char *label);

/* A rectangle between data points (x0, y0) and (x1, y1), clipped to the
 * area; `cls` and `tip` (tooltip) may be NULL. `attrs` (may be NULL) is
 * written verbatim inside the element: data-* attributes. */
void tk_plot_rect(tk_plot *p, double x0, double y0, double x1, double y1, const char *fill, const char *cls,
                  const char *attrs, const char *tip);
/* Text at px coordinates; anchor "start", "middle" or "end". */
void tk_plot_text(tk_plot *p, double x, double y, double size, const char *anchor, const char *text);
/* A legend box with its top left corner at px (x, y): one colour swatch per
 * name; tk_plot_legend_width is its width (to leave room for it). */
void tk_plot_legend(tk_plot *p, double x, double y, int n, const char *const *names, const char *const *colors);
double tk_plot_legend_width(int n, const char *const *names);
/* Writes the closing tag and closes the file: 0, or -1 on any write error. */
int tk_plot_close(tk_plot *p);

/* Colour i of a palette that tells up to 10 series apart. */
const char *tk_plot_color(int i);
/* Writes s XML-escaped. */
void tk_plot_escape(FILE *f, const char *s);

/* Grouped bar chart: ngroups groups along x (e.g. problem shapes), one bar per
 * series in each (e.g. kernels), heights values[g * nseries + s] (NaN: no
 * bar); each bar is <rect class="bar" data-group=.. data-series=..
 * data-value=..> with its value printed above it. */
typedef struct tk_plot_bars_spec {
  const char *title, *subtitle, *xlabel, *ylabel; /* subtitle may be NULL */
  int ngroups, nseries;
  const char *const *groups, *const *series;
  const double *values;
} tk_plot_bars_spec;
int tk_plot_bars(const char *path, const tk_plot_bars_spec *spec);

#ifdef __cplusplus
}
#endif
#endif
