// The CLI's charts, all drawn by the one SVG writer (tools/svg_chart.h):
// the final-score distribution of `penk distribution --svg`, the
// reliability diagram of `penk calibrate --svg` and the training curve of
// `penk neural curve`. ai/, solver/ and the trainer give the figures; only
// the CLI draws them.
#ifndef PENK_TOOLS_CHARTS_H_
#define PENK_TOOLS_CHARTS_H_

#include <string>
#include <utility>
#include <vector>

#include "ai/calibration.h"
#include "solver/distribution.h"

namespace penk::cli {

// The pmf as a bar chart (a bar per score, its probability as a tooltip);
// `overlay` (if any) is drawn as a step line; dashed lines at the means; a
// legend with each one's label, mean and standard deviation.
std::string ScoreDistributionSvg(const ScoreDistribution& d, const std::string& title,
                                 const std::string& label, const ScoreDistribution* overlay,
                                 const std::string& overlay_label);

// The reliability diagram: one curve per table through its buckets'
// (mean prediction, observed share) with their 95% intervals, names and
// Brier scores in the legend, and the diagonal of a perfect estimate.
std::string ReliabilitySvg(const std::vector<std::pair<std::string, ReliabilityTable>>& tables,
                           const std::string& title);

// One epoch of tools/train_neural.py's curve (its --curve JSON).
struct TrainingEpoch {
  int epoch = 0;
  double train_loss = 0, val_logloss = 0, val_brier = 0, val_score_mae = 0;
};

// The training curve: four panels by epoch, one above the other (their
// scales differ): the validation log loss of the win shares, the validation
// Brier score, the validation score error in points, and the training loss
// (which adds the score term, so it is not comparable with the log loss).
std::string TrainingCurveSvg(const std::vector<TrainingEpoch>& epochs, const std::string& title);

}  // namespace penk::cli

#endif  // PENK_TOOLS_CHARTS_H_
