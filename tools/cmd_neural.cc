// `penk neural`: the learned evaluation network (issue 21, docs/AI.md "The
// evaluation network: file and trainer").
//
//   penk neural selfplay --out FILE [--player expert] [--players 2,3,4]
//                        [--variants default,penk-lines=columns] [--games N]
//                        [--seed S] [--threads T] [--net FILE]
//   penk neural check NET [--against CHECK.json]
//   penk neural curve CURVE.json --svg OUT.svg
//
// `selfplay` writes the trainer's data (ai/selfplay.h): seeded, the same
// bytes whatever the thread count, memory bounded by a block of games.
// `check` loads a net file as the players would (every check of
// ai/neural_net.h) and prints its shape and checksum; with --against, it
// evaluates the trainer's check positions (tools/train_neural.py --check)
// and exits 1 if any output differs from the trainer's by more than 1e-5:
// the proof that the C++ forward pass is the trained model. `curve` draws
// the trainer's --curve JSON. One function per subcommand registers it.
#include <cstdio>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <chrono>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "ai/neural_check.h"
#include "ai/selfplay.h"
#include "ai/simulate.h"
#include "solver/table_cache.h"
#include "tables/progress_line.h"
#include "ai/neural_features.h"
#include "ai/neural_net.h"
#include "engine/quoted_input.h"
#include "nlohmann/json.hpp"
#include "tools/charts.h"
#include "tools/cli_common.h"

namespace penk::cli {
namespace {

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError{absl::StrCat("cannot read ", QuotedInput(path))};
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// `check` fails with exit code 1 (a refused or differing net is a result,
// not a usage error): one line on stderr.
[[noreturn]] void CheckFailed(const std::string& line) {
  std::fflush(stdout);
  std::fprintf(stderr, "penk: %s\n", line.c_str());
  std::exit(1);
}

void RunCheck(const std::string& net_path, const std::string& against) {
  absl::StatusOr<NeuralNet> net = NeuralNet::Load(net_path, kReadableNetInputs);
  if (!net.ok()) CheckFailed(std::string(net.status().message()));
  std::printf("%s: layout %u, %d-%d-%d-%d, %zu bytes, checksum %016llx\n", net_path.c_str(),
              net->layout(), net->inputs(), net->hidden1(), net->hidden2(), kNeuralOutputs,
              net->file_bytes(), static_cast<unsigned long long>(net->checksum()));
  if (against.empty()) return;
  std::ifstream in(against, std::ios::binary);
  if (!in) CheckFailed(absl::StrCat("cannot read ", QuotedInput(against)));
  std::stringstream text;
  text << in.rdbuf();
  absl::StatusOr<std::vector<NeuralCheckPosition>> positions =
      ParseNeuralCheck(text.str(), against, net->layout(), net->inputs());
  if (!positions.ok()) CheckFailed(std::string(positions.status().message()));
  const NeuralCheckDifference d = CompareNeuralCheck(*net, *positions);
  std::printf("%s: %zu positions, max |difference| %.3g on win shares, %.3g on scores / %g\n",
              against.c_str(), positions->size(), d.win, d.score, kNeuralScoreScale);
  if (d.Max() > kNeuralCheckTolerance)
    CheckFailed(absl::StrFormat("%s differs from %s by %.3g, more than %g", net_path, against,
                                d.Max(), kNeuralCheckTolerance));
}

void AddCheck(CLI::App* neural) {
  auto net = std::make_shared<std::string>(), against = std::make_shared<std::string>();
  CLI::App* c = neural->add_subcommand(
      "check", "load a net file, print its shape and checksum; compare it with the trainer's outputs");
  c->add_option("net", *net, "the net file (tools/train_neural.py --out)")->required();
  c->add_option("--against", *against,
                "the trainer's check file (--check): exit 1 if an output differs by more than 1e-5");
  c->callback([net, against] { RunCheck(*net, *against); });
}

// The trainer's curve JSON, or a one-line error naming the file and what
// was wrong.
std::vector<TrainingEpoch> ParseCurve(const std::string& text, const std::string& what) {
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  auto bad = [&](const std::string& why) {
    return UsageError{absl::StrCat(QuotedInput(what), ": ", why)};
  };
  if (j.is_discarded()) throw bad("not JSON");
  if (!j.is_object() || !j.contains("epochs") || !j["epochs"].is_array() || j["epochs"].empty())
    throw bad("not a training curve (expected a non-empty \"epochs\" array)");
  std::vector<TrainingEpoch> epochs;
  for (const nlohmann::json& e : j["epochs"]) {
    const std::string at = absl::StrCat("epoch entry ", epochs.size() + 1);
    if (!e.is_object() || !e.contains("epoch") || !e["epoch"].is_number_integer())
      throw bad(at + ": no integer \"epoch\"");
    TrainingEpoch t;
    t.epoch = e["epoch"].get<int>();
    if (!epochs.empty() && t.epoch <= epochs.back().epoch) throw bad(at + ": epochs must increase");
    const std::pair<const char*, double*> fields[] = {{"train_loss", &t.train_loss},
                                                      {"val_logloss", &t.val_logloss},
                                                      {"val_brier", &t.val_brier},
                                                      {"val_score_mae", &t.val_score_mae}};
    for (const auto& [key, out] : fields) {
      if (!e.contains(key) || !e[key].is_number() || !std::isfinite(e[key].get<double>()))
        throw bad(absl::StrCat(at, ": \"", key, "\" must be a finite number"));
      *out = e[key].get<double>();
    }
    epochs.push_back(t);
  }
  return epochs;
}

void RunCurve(const std::string& curve, const std::string& svg) {
  const std::vector<TrainingEpoch> epochs = ParseCurve(ReadText(curve), curve);
  const std::string text = TrainingCurveSvg(epochs, "Evaluation network training: " + curve);
  std::ofstream out(svg, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) throw UsageError{absl::StrCat("cannot write ", QuotedInput(svg))};
  std::printf("%s: %zu epochs drawn\n", svg.c_str(), epochs.size());
}

void AddCurve(CLI::App* neural) {
  auto curve = std::make_shared<std::string>(), svg = std::make_shared<std::string>();
  CLI::App* c = neural->add_subcommand("curve", "draw the trainer's training curve as an SVG");
  c->add_option("curve", *curve, "the trainer's curve file (tools/train_neural.py --curve)")->required();
  c->add_option("--svg", *svg, "the SVG file to write")->required();
  c->callback([curve, svg] { RunCurve(*curve, *svg); });
}

struct SelfPlayArgs {
  std::string out, player = "expert", players = "2,3,4", variants = "default", net;
  int64_t games = 1000;
  uint64_t seed = 1;
  int threads = 1;
  uint32_t layout = kNewestFeatureLayout.id;
  int opening_rounds = 0;
  std::string opening_players = "random,greedy,solitaire,expert";
  size_t table_cache_mb = TableCache::kDefaultCapMegabytes;
};

void RunSelfPlay(const SelfPlayArgs& a) {
  SelfPlayOptions o;
  o.player = a.player;
  o.players.clear();
  for (absl::string_view part : absl::StrSplit(a.players, ',')) {
    int n = 0;
    if (!absl::SimpleAtoi(part, &n) || n < 2 || n > kMaxPlayers)
      throw UsageError{absl::StrCat("--players: a list of player counts 2..4, e.g. 2,3,4; got ",
                                    QuotedInput(part))};
    o.players.push_back(n);
  }
  o.variants.clear();
  for (absl::string_view part : absl::StrSplit(a.variants, ',')) {
    if (part == "default") {
      o.variants.push_back(Rules{});
      continue;
    }
    absl::StatusOr<Rules> rules = ParseRules(part);
    if (!rules.ok()) throw UsageError{absl::StrCat("--variants: ", rules.status().message())};
    o.variants.push_back(*rules);
  }
  o.games = a.games;
  o.seed = a.seed;
  o.threads = a.threads;
  o.tables = CommandTableCache(a.table_cache_mb);
  o.layout = a.layout;
  o.opening_rounds = a.opening_rounds;
  for (absl::string_view part : absl::StrSplit(a.opening_players, ','))
    o.opening_players.emplace_back(part);
  if (!a.net.empty())
    o.net = std::make_shared<const NeuralNet>(
        OrFail(NeuralNet::Load(a.net, kReadableNetInputs)));
  ProgressLine progress("self-play ", "games");
  o.progress = [&](int64_t done, int64_t total) { progress.Update(done, total); };
  const auto start = std::chrono::steady_clock::now();
  const SelfPlaySummary s = OrFail(WriteSelfPlay(o, a.out));
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%s: %lld games, %lld positions, player %s, seed %llu, %.1f s\n", a.out.c_str(),
              static_cast<long long>(s.games), static_cast<long long>(s.rows), a.player.c_str(),
              static_cast<unsigned long long>(a.seed), secs);
}

void AddSelfPlay(CLI::App* neural) {
  auto args = std::make_shared<SelfPlayArgs>();
  CLI::App* c = neural->add_subcommand(
      "selfplay", "seeded self-play games written as training rows (features and outcomes)");
  c->add_option("--out", args->out, "the data file to write")->required();
  c->add_option("--player", args->player, "the player in every seat")->default_val("expert");
  c->add_option("--layout", args->layout,
                "the feature layout written (ai/neural_features.h), whatever the player's net reads")
      ->default_val(kNewestFeatureLayout.id)
      ->check(CLI::Range(1u, kNewestFeatureLayout.id));
  c->add_option("--players", args->players, "player counts, game g has the (g mod size)-th")
      ->default_val("2,3,4");
  c->add_option("--variants", args->variants,
                "rule variants cycled over games: default or a --rules text, comma-separated")
      ->default_val("default");
  c->add_option("--games", args->games, absl::StrCat("games, 1..", kMaxSelfPlayGames))
      ->default_val(1000);
  c->add_option("--seed", args->seed, "random seed (same options: same bytes)")
      ->default_val(1)
      ->check(SeedNotNegative());
  c->add_option("--threads", args->threads, "OpenMP threads across games")->default_val(1);
  c->add_option("--net", args->net, "a net file for a player that uses one (default: built in)");
  c->add_option("--opening-rounds", args->opening_rounds,
                "exploring openings: each game's first 1..R rounds (drawn per game) played by "
                "--opening-players, rows only after them (0: none)")
      ->default_val(0)
      ->check(CLI::Range(0, kMaxOpeningRounds));
  c->add_option("--opening-players", args->opening_players,
                "with --opening-rounds: each seat's opening player, drawn per game and seat")
      ->default_val("random,greedy,solitaire,expert");
  AddTableCacheOption(c, &args->table_cache_mb);
  c->callback([args] { RunSelfPlay(*args); });
}

}  // namespace

void RegisterNeural(CLI::App& app) {
  CLI::App* neural = app.add_subcommand(
      "neural",
      "the learned evaluation network: self-play data, check a net file, draw its training curve");
  neural->require_subcommand(1);
  AddSelfPlay(neural);
  AddCheck(neural);
  AddCurve(neural);
}

}  // namespace penk::cli
