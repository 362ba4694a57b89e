// The CLI's two charts, both drawn by the one SVG writer (tools/svg_chart.h):
// the final-score distribution of `penk distribution --svg` and the
// reliability diagram of `penk calibrate --svg`. ai/ and solver/ return the
// figures; only the CLI draws them.
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

}  // namespace penk::cli

#endif  // PENK_TOOLS_CHARTS_H_
