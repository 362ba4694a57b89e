#include "tools/charts.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/score.h"
#include "tools/svg_chart.h"

namespace penk::cli {

std::string ScoreDistributionSvg(const ScoreDistribution& d, const std::string& title,
                                 const std::string& label, const ScoreDistribution* overlay,
                                 const std::string& overlay_label) {
  int max_score = 0;
  double max_p = 0;
  for (int s = 0; s <= kMaxScore; ++s) {
    if (d.pmf[s] > 1e-9) max_score = s;
    max_p = std::max(max_p, d.pmf[s]);
    if (overlay) {
      if (overlay->pmf[s] > 1e-9) max_score = std::max(max_score, s);
      max_p = std::max(max_p, overlay->pmf[s]);
    }
  }
  const int x_max = std::max(10, (max_score + 10) / 10 * 10);
  // A y grid step of 0.5%, 1%, 2% or 5% of probability.
  double step = max_p > 0.04 ? 0.01 : 0.005;
  if (max_p > 0.1) step = 0.02;
  if (max_p > 0.25) step = 0.05;
  const double y_max = std::ceil(max_p / step + 1e-9) * step;
  const double W = 860, H = 440, left = 60, right = 20, top = 50, bottom = 60;
  const double pw = W - left - right, ph = H - top - bottom;
  // Score s is the bar from X(s) to X(s + 1).
  const LinearScale X{0, x_max + 1.0, left, left + pw}, Y{0, y_max, top + ph, top};
  const std::string kBar = "#4a7ebb", kOverlay = "#d9534f";
  SvgChart c(W, H);
  c.Text(W / 2, 22, title, TextStyle().Anchor("middle").Size(15));
  for (double p = 0; p <= y_max + 1e-12; p += step) {
    c.Line(left, Y(p), W - right, Y(p), Stroke("#ddd"));
    c.Text(left - 6, Y(p) + 4, absl::StrFormat("%g%%", std::round(p * 1000) / 10), TextStyle().Anchor("end"));
  }
  const int tick = x_max > 100 ? 20 : 10;
  for (int s = 0; s <= x_max; s += tick) {
    c.Line(X(s + 0.5), top + ph, X(s + 0.5), top + ph + 5, Stroke("#333"));
    c.Text(X(s + 0.5), top + ph + 19, absl::StrCat(s), TextStyle().Anchor("middle"));
  }
  const double bw = X(1) - X(0);
  for (int s = 0; s <= x_max && s <= kMaxScore; ++s)
    if (d.pmf[s] > 0)
      c.Rect(X(s) + bw * 0.1, Y(d.pmf[s]), bw * 0.8, Y(0) - Y(d.pmf[s]), kBar,
             absl::StrFormat("%d: %.4f%%", s, 100 * d.pmf[s]));
  if (overlay) {
    std::vector<std::pair<double, double>> steps;
    for (int s = 0; s <= x_max && s <= kMaxScore; ++s) {
      steps.push_back({X(s), Y(overlay->pmf[s])});
      steps.push_back({X(s + 1), Y(overlay->pmf[s])});
    }
    c.Polyline(steps, Stroke(kOverlay, 1.5));
  }
  // Means as dashed vertical lines.
  auto mean_line = [&](const ScoreDistribution& x, const std::string& colour) {
    c.Line(X(x.Mean() + 0.5), top, X(x.Mean() + 0.5), top + ph, Stroke(colour, 0, "5,4"));
  };
  mean_line(d, "#1f3f66");
  if (overlay) mean_line(*overlay, kOverlay);
  c.Line(left, top + ph, W - right, top + ph, Stroke("#333"));
  c.Text(left + pw / 2, H - 18, "final score", TextStyle().Anchor("middle"));
  c.Text(16, top + ph / 2, "probability", TextStyle().Anchor("middle").Rotate(-90));
  // Legend.
  const double lx = W - right - 330, ly = top + 10;
  c.Rect(lx, ly, 14, 10, kBar);
  c.Text(lx + 20, ly + 10, absl::StrFormat("%s: mean %.2f, sd %.2f", label, d.Mean(), d.StdDev()));
  if (overlay) {
    c.Line(lx, ly + 23, lx + 14, ly + 23, Stroke(kOverlay, 1.5));
    c.Text(lx + 20, ly + 28,
           absl::StrFormat("%s: mean %.2f, sd %.2f", overlay_label, overlay->Mean(),
                           overlay->StdDev()));
  }
  c.Text(lx + 20, ly + (overlay ? 46 : 28), "dashed: means", TextStyle().Fill("#555"));
  return c.Svg();
}

std::string ReliabilitySvg(const std::vector<std::pair<std::string, ReliabilityTable>>& tables,
                           const std::string& title) {
  constexpr double kW = 520, kH = 520, kL = 60, kT = 40, kS = 400;  // the plot: a square of kS
  static const std::string kColours[] = {"#d62728", "#1f77b4", "#2ca02c", "#9467bd"};
  const LinearScale X{0, 1, kL, kL + kS}, Y{0, 1, kT + kS, kT};
  SvgChart c(kW, kH);
  c.Text(kL, 22, title, TextStyle().Size(14));
  for (int i = 0; i <= 10; ++i) {
    const double p = i / 10.0;
    c.Line(X(p), Y(0), X(p), Y(1), Stroke("#ddd"));
    c.Line(X(0), Y(p), X(1), Y(p), Stroke("#ddd"));
    c.Text(X(p), Y(0) + 16, absl::StrFormat("%g", p), TextStyle().Anchor("middle"));
    c.Text(X(0) - 6, Y(p) + 4, absl::StrFormat("%g", p), TextStyle().Anchor("end"));
  }
  c.Line(X(0), Y(0), X(1), Y(1), Stroke("#888", 0, "4 4"));
  c.Text(X(0.5), kT + kS + 36, "predicted win chance (bucket mean)", TextStyle().Anchor("middle"));
  c.Text(16, Y(0.5), "observed win share (k tied: 1/k each)", TextStyle().Anchor("middle").Rotate(-90));
  for (size_t k = 0; k < tables.size(); ++k) {
    const std::string& colour = kColours[k % 4];
    const ReliabilityTable& t = tables[k].second;
    std::vector<std::pair<double, double>> points;
    for (const BucketStats& b : t.buckets) {
      if (b.positions == 0) continue;
      points.push_back({X(b.predicted), Y(b.observed)});
      c.Line(X(b.predicted), Y(b.ci_low), X(b.predicted), Y(b.ci_high), Stroke(colour));
      c.Circle(X(b.predicted), Y(b.observed), 3, colour);
    }
    c.Polyline(points, Stroke(colour));
    c.Text(kL + 10, kT + 16 + 16 * static_cast<double>(k),
           absl::StrFormat("%s: Brier %.4f, %lld positions", tables[k].first, t.brier,
                           static_cast<long long>(t.positions)),
           TextStyle().Fill(colour));
  }
  return c.Svg();
}

}  // namespace penk::cli

namespace penk::cli {
namespace {

// One panel of the training curve: the named series by epoch, in the band
// [top, top + height) of the canvas, its own y range from the values.
struct Series {
  std::string label, colour, dash;
  std::vector<double> values;
};

void CurvePanel(SvgChart& c, const std::vector<int>& epochs, const std::vector<Series>& series,
                const std::string& y_label, double top, double height) {
  constexpr double kLeft = 70, kWidth = 620;
  double lo = series[0].values[0], hi = lo;
  for (const Series& s : series)
    for (double v : s.values) lo = std::min(lo, v), hi = std::max(hi, v);
  const double pad = hi > lo ? (hi - lo) * 0.08 : std::max(std::abs(hi) * 0.05, 1e-3);
  lo -= pad, hi += pad;
  const LinearScale X{static_cast<double>(epochs.front()), static_cast<double>(epochs.back()),
                      kLeft, kLeft + kWidth};
  const LinearScale Y{lo, hi, top + height, top};
  for (int i = 0; i <= 4; ++i) {
    const double v = lo + (hi - lo) * i / 4;
    c.Line(kLeft, Y(v), kLeft + kWidth, Y(v), Stroke("#ddd"));
    c.Text(kLeft - 6, Y(v) + 4, absl::StrFormat("%.4g", v), TextStyle().Anchor("end"));
  }
  const int step = std::max(1, static_cast<int>(epochs.size()) / 10);
  for (size_t i = 0; i < epochs.size(); i += step)
    c.Text(X(epochs[i]), top + height + 16, absl::StrCat(epochs[i]), TextStyle().Anchor("middle"));
  c.Line(kLeft, top + height, kLeft + kWidth, top + height, Stroke("#333"));
  c.Text(16, top + height / 2, y_label, TextStyle().Anchor("middle").Rotate(-90));
  for (size_t k = 0; k < series.size(); ++k) {
    const Series& s = series[k];
    std::vector<std::pair<double, double>> points;
    for (size_t i = 0; i < epochs.size(); ++i) {
      points.push_back({X(epochs[i]), Y(s.values[i])});
      c.Circle(X(epochs[i]), Y(s.values[i]), 2.5, s.colour);
    }
    c.Polyline(points, Stroke(s.colour, 1.5, s.dash));
    c.Text(kLeft + kWidth - 10, top + 14 + 15 * static_cast<double>(k),
           absl::StrFormat("%s: last %.4g", s.label, s.values.back()),
           TextStyle().Anchor("end").Fill(s.colour));
  }
}

}  // namespace

std::string TrainingCurveSvg(const std::vector<TrainingEpoch>& epochs, const std::string& title) {
  constexpr double kW = 720, kPanel = 170, kGap = 50, kTop = 44;
  SvgChart c(kW, kTop + 4 * (kPanel + kGap));
  c.Text(kW / 2, 22, title, TextStyle().Anchor("middle").Size(15));
  if (epochs.empty()) return c.Svg();
  std::vector<int> x;
  Series val{"validation log loss", "#1f77b4", "", {}};
  Series train{"training loss (win cross-entropy + weight x score MSE)", "#555", "", {}};
  Series brier{"validation Brier", "#d62728", "", {}}, mae{"validation score MAE", "#2ca02c", "", {}};
  for (const TrainingEpoch& e : epochs) {
    x.push_back(e.epoch);
    val.values.push_back(e.val_logloss);
    train.values.push_back(e.train_loss);
    brier.values.push_back(e.val_brier);
    mae.values.push_back(e.val_score_mae);
  }
  CurvePanel(c, x, {val}, "log loss", kTop, kPanel);
  CurvePanel(c, x, {brier}, "Brier", kTop + kPanel + kGap, kPanel);
  CurvePanel(c, x, {mae}, "score error (points)", kTop + 2 * (kPanel + kGap), kPanel);
  CurvePanel(c, x, {train}, "training loss", kTop + 3 * (kPanel + kGap), kPanel);
  c.Text(kW / 2, kTop + 4 * (kPanel + kGap) - 14, "epoch", TextStyle().Anchor("middle"));
  return c.Svg();
}

}  // namespace penk::cli
