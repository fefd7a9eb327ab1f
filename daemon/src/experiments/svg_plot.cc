#include "experiments/svg_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "base/durable_file.h"
#include "util/markup_escape.h"

namespace ldpgraph {
namespace {

// Plot area inside a 760 x 460 canvas; the legend sits to the right.
constexpr double kWidth = 760, kHeight = 460;
constexpr double kLeft = 70, kRight = 560, kTop = 40, kBottom = 390;

const char* const kColours[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
constexpr std::size_t kColourCount = sizeof(kColours) / sizeof(kColours[0]);

// Series past the palette's length reuse its colours with dashed lines (in
// the legend too), so no two series look alike.
const char* Colour(std::size_t k) { return kColours[k % kColourCount]; }
std::string Dash(std::size_t k) { return k >= kColourCount ? " stroke-dasharray=\"7,4\"" : ""; }

std::string Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.1f", v);
  return buf;
}

std::string TickLabel(double v) {
  char buf[32];
  if (v != 0 && (std::fabs(v) >= 1e5 || std::fabs(v) < 1e-3)) {
    std::snprintf(buf, sizeof(buf), "%.0e", v);
  } else {
    std::snprintf(buf, sizeof(buf), "%g", v);
  }
  return buf;
}

// One axis: maps data values to pixels, linear or log10.
struct Axis {
  double lo = 0, hi = 1;
  bool log = false;
  double pixel_lo = 0, pixel_hi = 1;

  double Transform(double v) const { return log ? std::log10(v) : v; }
  double ToPixel(double v) const {
    const double t = (Transform(v) - Transform(lo)) / (Transform(hi) - Transform(lo));
    return pixel_lo + t * (pixel_hi - pixel_lo);
  }
  bool Drawable(double v) const { return std::isfinite(v) && (!log || v > 0); }

  // Tick values: powers of ten on a log axis, a 1-2-5 step on a linear one.
  std::vector<double> Ticks() const {
    std::vector<double> ticks;
    if (log) {
      for (double p = std::floor(std::log10(lo)); p <= std::ceil(std::log10(hi)); ++p) {
        const double v = std::pow(10.0, p);
        if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) ticks.push_back(v);
      }
      return ticks;
    }
    const double raw = (hi - lo) / 6;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    double step = mag;
    for (double m : {1.0, 2.0, 5.0, 10.0}) {
      step = m * mag;
      if (step >= raw) break;
    }
    for (double v = std::ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) {
      ticks.push_back(std::fabs(v) < step * 1e-9 ? 0.0 : v);
    }
    return ticks;
  }
};

// The data range of one axis, padded; log axes snap to powers of ten.
void FitAxis(Axis* axis, double lo, double hi) {
  if (!(lo <= hi)) lo = hi = axis->log ? 1 : 0;
  if (axis->log) {
    axis->lo = std::pow(10.0, std::floor(std::log10(lo)));
    axis->hi = std::pow(10.0, std::ceil(std::log10(hi)));
    if (axis->hi <= axis->lo) axis->hi = axis->lo * 10;
    return;
  }
  if (hi - lo < 1e-12) {
    lo -= 0.5;
    hi += 0.5;
  }
  const double pad = (hi - lo) * 0.05;
  axis->lo = lo - pad;
  axis->hi = hi + pad;
}

}  // namespace

std::string RenderSvg(const PlotSpec& spec, const std::vector<PlotSeries>& series) {
  Axis x, y;
  x.log = spec.log_x;
  y.log = spec.log_y;
  x.pixel_lo = kLeft;
  x.pixel_hi = kRight;
  y.pixel_lo = kBottom;
  y.pixel_hi = kTop;
  const bool categorical = !spec.x_categories.empty();
  double x_lo = std::numeric_limits<double>::infinity(), x_hi = -x_lo, y_lo = x_lo, y_hi = -x_lo;
  for (const PlotSeries& s : series) {
    for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (!x.Drawable(s.x[i]) || !y.Drawable(s.y[i])) continue;
      const double e = i < s.err.size() && std::isfinite(s.err[i]) ? s.err[i] : 0.0;
      x_lo = std::min(x_lo, s.x[i]);
      x_hi = std::max(x_hi, s.x[i]);
      y_lo = std::min(y_lo, y.log ? s.y[i] : s.y[i] - e);
      y_hi = std::max(y_hi, s.y[i] + e);
    }
  }
  if (spec.diagonal) {  // y = x must be visible over the whole range
    y_lo = std::min(y_lo, x_lo);
    y_hi = std::max(y_hi, x_hi);
    x_lo = y_lo = std::min(x_lo, y_lo);
    x_hi = y_hi = std::max(x_hi, y_hi);
  }
  if (categorical) {
    x.lo = -0.5;
    x.hi = static_cast<double>(spec.x_categories.size()) - 0.5;
  } else {
    FitAxis(&x, x_lo, x_hi);
  }
  if (spec.has_y_range) {
    y.lo = spec.y_min;
    y.hi = spec.y_max;
  } else {
    FitAxis(&y, y_lo, y_hi);
  }

  std::string svg;
  svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + Num(kWidth) + "\" height=\"" + Num(kHeight) +
         "\" viewBox=\"0 0 " + Num(kWidth) + " " + Num(kHeight) +
         "\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">\n";
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg += "<text x=\"" + Num((kLeft + kRight) / 2) + "\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">" +
         EscapeMarkup(spec.title) + "</text>\n";
  // Grid and ticks.
  if (categorical) {
    for (std::size_t i = 0; i < spec.x_categories.size(); ++i) {
      const double px = x.ToPixel(static_cast<double>(i));
      svg += "<text x=\"" + Num(px) + "\" y=\"" + Num(kBottom + 16) + "\" text-anchor=\"middle\">" +
             EscapeMarkup(spec.x_categories[i]) + "</text>\n";
    }
  } else {
    for (double t : x.Ticks()) {
      const double px = x.ToPixel(t);
      svg += "<line x1=\"" + Num(px) + "\" y1=\"" + Num(kTop) + "\" x2=\"" + Num(px) + "\" y2=\"" + Num(kBottom) +
             "\" stroke=\"#e5e5e5\"/>\n";
      svg += "<text x=\"" + Num(px) + "\" y=\"" + Num(kBottom + 16) + "\" text-anchor=\"middle\">" + TickLabel(t) +
             "</text>\n";
    }
  }
  for (double t : y.Ticks()) {
    const double py = y.ToPixel(t);
    svg += "<line x1=\"" + Num(kLeft) + "\" y1=\"" + Num(py) + "\" x2=\"" + Num(kRight) + "\" y2=\"" + Num(py) +
           "\" stroke=\"#e5e5e5\"/>\n";
    svg += "<text x=\"" + Num(kLeft - 6) + "\" y=\"" + Num(py + 4) + "\" text-anchor=\"end\">" + TickLabel(t) +
           "</text>\n";
  }
  svg += "<rect x=\"" + Num(kLeft) + "\" y=\"" + Num(kTop) + "\" width=\"" + Num(kRight - kLeft) + "\" height=\"" +
         Num(kBottom - kTop) + "\" fill=\"none\" stroke=\"#333\"/>\n";
  svg += "<text x=\"" + Num((kLeft + kRight) / 2) + "\" y=\"" + Num(kBottom + 38) + "\" text-anchor=\"middle\">" +
         EscapeMarkup(spec.x_label) + "</text>\n";
  svg += "<text transform=\"translate(18," + Num((kTop + kBottom) / 2) +
         ") rotate(-90)\" text-anchor=\"middle\">" + EscapeMarkup(spec.y_label) + "</text>\n";
  if (spec.diagonal) {
    const double lo = std::max(x.lo, y.lo), hi = std::min(x.hi, y.hi);
    svg += "<line x1=\"" + Num(x.ToPixel(lo)) + "\" y1=\"" + Num(y.ToPixel(lo)) + "\" x2=\"" + Num(x.ToPixel(hi)) +
           "\" y2=\"" + Num(y.ToPixel(hi)) + "\" stroke=\"#555\" stroke-dasharray=\"5,4\"/>\n";
  }

  // Data, clipped to the plot area.
  svg += "<clipPath id=\"area\"><rect x=\"" + Num(kLeft) + "\" y=\"" + Num(kTop) + "\" width=\"" +
         Num(kRight - kLeft) + "\" height=\"" + Num(kBottom - kTop) + "\"/></clipPath>\n<g clip-path=\"url(#area)\">\n";
  for (std::size_t k = 0; k < series.size(); ++k) {
    const PlotSeries& s = series[k];
    const std::string colour = Colour(k);
    std::string path;
    for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (!x.Drawable(s.x[i]) || !y.Drawable(s.y[i])) continue;
      const double px = x.ToPixel(s.x[i]), py = y.ToPixel(s.y[i]);
      if (spec.scatter) {
        svg += "<circle cx=\"" + Num(px) + "\" cy=\"" + Num(py) + "\" r=\"2\" fill=\"" + colour +
               "\" fill-opacity=\"0.35\"/>\n";
        continue;
      }
      path += (path.empty() ? "M" : " L") + Num(px) + "," + Num(py);
      svg += "<circle cx=\"" + Num(px) + "\" cy=\"" + Num(py) + "\" r=\"3.5\" fill=\"" + colour + "\"/>\n";
      if (i < s.err.size() && s.err[i] > 0 && std::isfinite(s.err[i])) {
        const double lo = y.log ? std::max(s.y[i] - s.err[i], s.y[i] * 1e-3) : s.y[i] - s.err[i];
        const double top = y.ToPixel(s.y[i] + s.err[i]), bottom = y.ToPixel(lo);
        svg += "<path d=\"M" + Num(px) + "," + Num(top) + " L" + Num(px) + "," + Num(bottom) + " M" + Num(px - 4) +
               "," + Num(top) + " L" + Num(px + 4) + "," + Num(top) + " M" + Num(px - 4) + "," + Num(bottom) + " L" +
               Num(px + 4) + "," + Num(bottom) + "\" stroke=\"" + colour + "\" fill=\"none\"/>\n";
      }
    }
    if (!path.empty()) {
      svg += "<path d=\"" + path + "\" stroke=\"" + colour + "\" stroke-width=\"2\"" + Dash(k) + " fill=\"none\"/>\n";
    }
  }
  svg += "</g>\n";
  // Legend.
  for (std::size_t k = 0; k < series.size(); ++k) {
    const std::string colour = Colour(k);
    const double py = kTop + 10 + 20 * static_cast<double>(k);
    if (k < kColourCount) {
      svg += "<rect x=\"" + Num(kRight + 20) + "\" y=\"" + Num(py - 8) + "\" width=\"14\" height=\"10\" fill=\"" +
             colour + "\"/>\n";
    } else {
      svg += "<path d=\"M" + Num(kRight + 18) + "," + Num(py - 3) + " L" + Num(kRight + 36) + "," + Num(py - 3) +
             "\" stroke=\"" + colour + "\" stroke-width=\"3\"" + Dash(k) + "/>\n";
    }
    svg += "<text x=\"" + Num(kRight + 40) + "\" y=\"" + Num(py + 1) + "\">" + EscapeMarkup(series[k].name) + "</text>\n";
  }
  svg += "</svg>\n";
  return svg;
}

Status WriteSvg(const std::string& path, const PlotSpec& spec, const std::vector<PlotSeries>& series) {
  const std::string svg = RenderSvg(spec, series);
  return base::WriteFileDurably(path, std::vector<std::uint8_t>(svg.begin(), svg.end()));
}

}  // namespace ldpgraph
