// Placeholder of the feature layout the evaluation network reads (issue 21):
// only the two constants that the net loader and `penk neural check` need.
// The real file comes with ai/neural_features.cc, which sets them.
#ifndef PENK_AI_NEURAL_FEATURES_H_
#define PENK_AI_NEURAL_FEATURES_H_

#include <cstdint>

namespace penk {

// set by neural_features.cc's layout
inline constexpr uint32_t kFeatureLayout = 1;
inline constexpr int kFeatureCount = 226;

}  // namespace penk

#endif  // PENK_AI_NEURAL_FEATURES_H_
