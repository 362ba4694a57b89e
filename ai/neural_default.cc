#include "ai/neural_default.h"

#include "absl/strings/str_cat.h"
#include "ai/embedded_data.h"
#include "ai/neural_features.h"

namespace penk {

absl::StatusOr<std::shared_ptr<const NeuralNet>> BuiltInNeuralNet() {
  static const absl::StatusOr<std::shared_ptr<const NeuralNet>> net =
      []() -> absl::StatusOr<std::shared_ptr<const NeuralNet>> {
    const absl::string_view bytes = EmbeddedNeuralNet();
    if (bytes.empty())
      return absl::FailedPreconditionError(absl::StrCat(
          "this program was built without ", kNeuralNetFile,
          " (the neural player's net; see docs/AI.md for the command that trains it)"));
    absl::StatusOr<NeuralNet> parsed =
        NeuralNet::Parse(bytes, kNeuralNetFile, kReadableNetInputs);
    if (!parsed.ok()) return parsed.status();
    return std::make_shared<const NeuralNet>(*std::move(parsed));
  }();
  return net;
}

absl::StatusOr<std::shared_ptr<const NeuralNet>> NetFor(std::shared_ptr<const NeuralNet> net,
                                                        const Rules& rules) {
  if (rules.line_min != Rules{}.line_min)
    return absl::InvalidArgumentError(absl::StrCat(
        "the neural net is trained for line-min=", Rules{}.line_min, " only (R6.5); got ",
        FormatRules(rules), ": use expert"));
  if (!net) return BuiltInNeuralNet();
  absl::StatusOr<FeatureLayout> layout = FeatureLayoutOf(net->layout());
  if (!layout.ok()) return layout.status();
  if (layout->count() != net->inputs())
    return absl::InvalidArgumentError(absl::StrCat("a net of ", net->inputs(),
                                                   " inputs; its feature layout ", layout->id,
                                                   " has ", layout->count()));
  return net;
}

}  // namespace penk
