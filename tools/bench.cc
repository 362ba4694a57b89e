// Micro-benchmarks of the solver (Google Benchmark). Run:
//   build/penk_bench                         # everything (builds the table once, ~10 s)
//   build/penk_bench --benchmark_filter=Hint --benchmark_repetitions=9
//   build/penk_bench --benchmark_filter=MasterDecision  # master's decision times
// Figures and the machine are in docs/PERFORMANCE.md.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <filesystem>
#include <memory>

#include "engine/dice.h"
#include "engine/dice_space.h"
#include "engine/game.h"
#include "engine/rng.h"
#include "engine/score.h"
#include "ai/ai_players.h"
#include "ai/bot.h"
#include "ai/master.h"
#include "ai/neural_default.h"
#include "ai/neural_features.h"
#include "solver/advisor.h"
#include "solver/distribution.h"
#include "solver/solitaire_dp.h"
#include "tables/table_file.h"
#include "tables/value_check.h"
#include "solver/table_cache.h"
#include "tables/table_store.h"
#include "protocol/dispatch.h"
#include "protocol/protocol.h"

namespace penk {
namespace {

// The default table, built on first use and kept for every benchmark.
const SolitaireTable& Table() {
  static const SolitaireTable* table = [] {
    absl::StatusOr<SolitaireTable> t = LoadOrBuildTable(Rules{}, "");
    if (!t.ok()) {
      std::fprintf(stderr, "%s\n", std::string(t.status().message()).c_str());
      std::exit(1);
    }
    return new SolitaireTable(*std::move(t));
  }();
  return *table;
}

// Mid-game sheets a player meets: random live solitaire positions.
std::vector<Sheet> SampleSheets(int n) {
  Rng rng(1);
  std::vector<Sheet> out;
  while (static_cast<int>(out.size()) < n) {
    Sheet s;
    int circled = rng.Below(18);
    while (std::popcount(s.circled) < circled) s.circled |= 1u << rng.Below(25);
    if (s.ClosedColumns() == 0) out.push_back(s);
  }
  return out;
}

// One request through the dispatcher (protocol/dispatch.h), the table in
// memory: protocol 2 (arg 2) runs it on the caller's thread as HandleLine
// does; protocol 3 (arg 3) starts a thread for it and the reply comes back
// through the emit callback. The difference is what requests in flight cost.
void BM_RequestRoundTrip(benchmark::State& state) {
  protocol::Session session;
  std::mutex mutex;
  std::condition_variable answered;
  int replies = 0;
  protocol::Dispatcher dispatcher(session, [&](const std::string&, bool reply) {
    std::lock_guard<std::mutex> lock(mutex);
    replies += reply;
    answered.notify_all();
  });
  auto ask = [&](const std::string& line) {
    std::unique_lock<std::mutex> lock(mutex);
    const int want = replies + 1;
    lock.unlock();
    dispatcher.Submit(line);
    lock.lock();
    answered.wait(lock, [&] { return replies >= want; });
  };
  if (state.range(0) == 3) ask(R"({"id":0,"cmd":"hello","protocol":3})");
  const std::string hint = R"({"id":1,"cmd":"hint","roll":"11335J","top":1})";
  ask(hint);  // the table loaded once, outside the timing
  for (auto _ : state) ask(hint);
}
BENCHMARK(BM_RequestRoundTrip)->Arg(2)->Arg(3)->Unit(benchmark::kMicrosecond)->UseRealTime();

void BM_TableBuild(benchmark::State& state) {
  for (auto _ : state) {
    SolitaireTable t = BuildSolitaireTable(Rules{});
    benchmark::DoNotOptimize(t.values().data());
  }
  state.counters["states/s"] =
      benchmark::Counter(static_cast<double>(kNumSolitaireStates) * state.iterations(),
                         benchmark::Counter::kIsRate);
}
BENCHMARK(BM_TableBuild)->Unit(benchmark::kSecond)->Iterations(1)->UseRealTime();

void BM_TableLoad(benchmark::State& state) {
  Table();
  const std::string path = DefaultTablePath(Rules{});
  for (auto _ : state) {
    absl::StatusOr<SolitaireTable> t = ReadTable(path, Rules{});
    benchmark::DoNotOptimize(t->values().data());
  }
  state.SetBytesProcessed(state.iterations() * kNumSolitaireStates * sizeof(double));
}
BENCHMARK(BM_TableLoad)->Unit(benchmark::kMillisecond)->UseRealTime();

// The part of the load that checks the numbers (issue 20, item 12): one pass
// in index order over the 1,808,664 entries.
void BM_TableValueCheck(benchmark::State& state) {
  const SolitaireTable& table = Table();
  for (auto _ : state) {
    absl::Status s = CheckTableValues(table.values(), table.max_free(), 0,
                                      ValueBounds{0, kMaxScore, "an expected score"});
    benchmark::DoNotOptimize(s);
  }
}
BENCHMARK(BM_TableValueCheck)->Unit(benchmark::kMillisecond)->UseRealTime();

// One whole turn solved on a sheet: every roll, keep and marking.
void BM_TurnSolve(benchmark::State& state) {
  const SolitaireTable& table = Table();
  std::vector<Sheet> sheets = SampleSheets(64);
  size_t i = 0;
  for (auto _ : state) {
    absl::StatusOr<TurnValues> t = SolveSolitaireTurn(table, sheets[i++ % sheets.size()]);
    benchmark::DoNotOptimize(t->start);
  }
}
BENCHMARK(BM_TurnSolve)->Unit(benchmark::kMicrosecond);

// `penk hint` after load: rank the keeps (rerolls 2) or markings (rerolls 0).
void BM_Hint(benchmark::State& state) {
  const SolitaireTable& table = Table();
  const int rerolls = static_cast<int>(state.range(0));
  std::vector<Sheet> sheets = SampleSheets(64);
  const DiceSpace& space = DiceSpace::Get();
  size_t i = 0;
  for (auto _ : state) {
    auto ranked = RankActions(table, sheets[i % sheets.size()], space.roll(i * 37 % kNumRolls), rerolls);
    benchmark::DoNotOptimize(ranked->data());
    ++i;
  }
}
BENCHMARK(BM_Hint)->Arg(2)->Arg(0)->Unit(benchmark::kMicrosecond);

// Greedy's decisions (issue 24, item 1: a benchmark, not a timed test): the
// first decision of a turn solves the turn (BM_GreedyFirstDecision, a fresh
// bot on each sheet), the others reuse it; BM_GreedyGame plays whole
// solitaire games, items = decisions (the mean per decision is 1 / the rate).
void BM_GreedyFirstDecision(benchmark::State& state) {
  const std::vector<Sheet> sheets = SampleSheets(64);
  const Dice roll = *ParseRoll("11335J");
  size_t i = 0;
  for (auto _ : state) {
    GreedyBot bot;
    benchmark::DoNotOptimize(bot.ChooseKeep(sheets[i++ % sheets.size()], roll, 2, Rules{}));
  }
}
BENCHMARK(BM_GreedyFirstDecision)->Unit(benchmark::kMicrosecond);

void BM_GreedyGame(benchmark::State& state) {
  int64_t decisions = 0;
  uint64_t seed = 1;
  for (auto _ : state) {
    Game game = *Game::Create(1, Rules{}, seed++);
    GreedyBot bot;
    while (!game.over()) {
      (void)game.Apply(bot.Decide(game));
      ++decisions;
    }
  }
  state.SetItemsProcessed(decisions);
}
BENCHMARK(BM_GreedyGame)->Unit(benchmark::kMillisecond);

// The exact distributions' per-position work (issue 13, item 1), four
// positions at a time as PropagateScores does: the optimal decision of every
// roll (OptimalDecider::Turns: final rolls, then SolveTurnsWithKeeps), its turn
// part alone, and the forward dice law of the decided turns
// (FinalRollMasses). BM_TurnStartValues is the table build's turn part on
// the same final-roll values. Per batch of four.
struct DecidedBatches {
  std::vector<std::array<ColumnCodes, kTurnBatch>> codes;
  std::vector<std::array<TurnValues, kTurnBatch>> turns;
  std::vector<std::array<TurnChoices, kTurnBatch>> choices;
  static const DecidedBatches& Get() {
    static const DecidedBatches* const batches = [] {
      auto* b = new DecidedBatches;
      const std::vector<Sheet> sheets = SampleSheets(64);
      OptimalDecider decider(Table());
      for (size_t i = 0; i + kTurnBatch <= sheets.size(); i += kTurnBatch) {
        b->codes.emplace_back();
        b->turns.emplace_back();
        b->choices.emplace_back();
        for (int j = 0; j < kTurnBatch; ++j) b->codes.back()[j] = CodesInPlace(sheets[i + j]);
        decider.Turns(b->codes.back().data(), kTurnBatch, b->turns.back().data(),
                      b->choices.back().data());
      }
      return b;
    }();
    return *batches;
  }
};

void BM_DecideTurns(benchmark::State& state) {
  const DecidedBatches& b = DecidedBatches::Get();
  std::array<TurnValues, kTurnBatch> turns;
  std::array<TurnChoices, kTurnBatch> choices;
  OptimalDecider decider(Table());
  size_t i = 0;
  for (auto _ : state) {
    decider.Turns(b.codes[i++ % b.codes.size()].data(), kTurnBatch, turns.data(), choices.data());
    benchmark::DoNotOptimize(choices.data());
  }
}
BENCHMARK(BM_DecideTurns)->Unit(benchmark::kMicrosecond);

// The distributions' decisions: the keeps and markings alone, no values.
void BM_DecideChoices(benchmark::State& state) {
  const DecidedBatches& b = DecidedBatches::Get();
  std::array<TurnChoices, kTurnBatch> choices;
  OptimalDecider decider(Table());
  size_t i = 0;
  for (auto _ : state) {
    decider.Choices(b.codes[i++ % b.codes.size()].data(), kTurnBatch, choices.data());
    benchmark::DoNotOptimize(choices.data());
  }
}
BENCHMARK(BM_DecideChoices)->Unit(benchmark::kMicrosecond);

void BM_SolveTurnsWithKeeps(benchmark::State& state) {
  const DecidedBatches& b = DecidedBatches::Get();
  std::vector<std::array<TurnValues, kTurnBatch>> turns = b.turns;
  std::array<std::array<std::array<int16_t, kNumRolls>, kRerolls>, kTurnBatch> keeps;
  size_t i = 0;
  for (auto _ : state) {
    std::array<TurnValues, kTurnBatch>& batch = turns[i++ % turns.size()];
    TurnValues* t[kTurnBatch];
    std::array<std::array<int16_t, kNumRolls>, kRerolls>* k[kTurnBatch];
    for (int j = 0; j < kTurnBatch; ++j) t[j] = &batch[j], k[j] = &keeps[j];
    SolveTurnsWithKeeps(t, kTurnBatch, k);
    benchmark::DoNotOptimize(keeps.data());
  }
}
BENCHMARK(BM_SolveTurnsWithKeeps)->Unit(benchmark::kMicrosecond);

void BM_TurnStartValues(benchmark::State& state) {
  const DecidedBatches& b = DecidedBatches::Get();
  size_t i = 0;
  double start[kTurnBatch];
  for (auto _ : state) {
    const std::array<TurnValues, kTurnBatch>& batch = b.turns[i++ % b.turns.size()];
    const double* final[kTurnBatch];
    for (int j = 0; j < kTurnBatch; ++j) final[j] = batch[j].roll[0].data();
    TurnStartValues(final, kTurnBatch, start);
    benchmark::DoNotOptimize(start);
  }
}
BENCHMARK(BM_TurnStartValues)->Unit(benchmark::kMicrosecond);

void BM_FinalRollMasses(benchmark::State& state) {
  const DecidedBatches& b = DecidedBatches::Get();
  std::array<std::array<double, kNumRolls>, kTurnBatch> masses;
  size_t i = 0;
  for (auto _ : state) {
    FinalRollMasses(b.choices[i++ % b.choices.size()].data(), kTurnBatch, masses.data());
    benchmark::DoNotOptimize(masses.data());
  }
}
BENCHMARK(BM_FinalRollMasses)->Unit(benchmark::kMicrosecond);

// The decision-time counters of a player's benchmark, in milliseconds.
void ReportDecisionTimes(benchmark::State& state, std::vector<double>& ms) {
  if (ms.empty()) return state.SkipWithError("no decision timed");
  std::sort(ms.begin(), ms.end());
  auto quantile = [&](double q) { return ms[std::min(ms.size() - 1, static_cast<size_t>(q * ms.size()))]; };
  state.counters["median_ms"] = quantile(0.5);
  state.counters["p90_ms"] = quantile(0.9);
  state.counters["p99_ms"] = quantile(0.99);
  state.counters["max_ms"] = ms.back();
}

// One seeded game of `player` in seat seed mod players against expert in
// the others; each of its decisions' milliseconds appended to `ms`.
void TimeOneSeatsDecisions(benchmark::State& state, const std::shared_ptr<TableCache>& tables,
                           int players, uint64_t seed, Player& player, std::vector<double>& ms) {
  Game game = *Game::Create(players, Rules{}, seed);
  const int seat = static_cast<int>(seed % players);
  ExpertPlayer expert(tables);
  while (!game.over()) {
    if (game.current() != seat) {
      if (!game.Apply(expert.Decide(game)).ok()) state.SkipWithError("expert: illegal");
      continue;
    }
    const auto t0 = std::chrono::steady_clock::now();
    const Action a = player.Decide(game);
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    if (!game.Apply(a).ok()) state.SkipWithError("illegal decision");
  }
}

// Issue 11's budget for `master`: on 2 threads, median decision <= 250 ms
// and 99th percentile <= 1 s. Plays seeded whole games of master (2 rollout
// threads) against expert in the other seats and times every decision of
// master's; the counters are milliseconds. Arg: the number of players.
void BM_MasterDecision(benchmark::State& state) {
  const int players = static_cast<int>(state.range(0));
  auto tables = std::make_shared<TableCache>(FileTableLoader("", /*allow_build=*/true), size_t{512} << 20);
  std::vector<double> ms;
  int64_t rolled = 0, decisions = 0;
  for (auto _ : state) {
    for (uint64_t seed = 1; seed <= 12; ++seed) {
      MasterPlayer master(tables, MasterParams{.threads = 2});
      TimeOneSeatsDecisions(state, tables, players, seed, master, ms);
      rolled += master.stats().rolled;
      decisions += master.stats().decisions;
    }
  }
  ReportDecisionTimes(state, ms);
  state.counters["decisions"] = static_cast<double>(decisions);
  state.counters["rolled_out"] = static_cast<double>(rolled) / decisions;
}
BENCHMARK(BM_MasterDecision)->Arg(2)->Arg(4)->Unit(benchmark::kSecond)->Iterations(1)->UseRealTime();

// Issue 21's budget for `neural`: median decision <= 5 ms on 2 cores. The
// same seeded games as BM_MasterDecision (neural in one seat, expert in the
// others), every decision of neural's timed, first table loads included;
// the counters are milliseconds. Arg: the number of players.
void BM_NeuralDecision(benchmark::State& state) {
  const int players = static_cast<int>(state.range(0));
  auto tables = std::make_shared<TableCache>(FileTableLoader("", /*allow_build=*/true), size_t{512} << 20);
  std::vector<double> ms;
  for (auto _ : state) {
    for (uint64_t seed = 1; seed <= 40; ++seed) {
      std::unique_ptr<Player> neural = *MakeBot("neural", Rules{}, 0, tables);
      TimeOneSeatsDecisions(state, tables, players, seed, *neural, ms);
    }
  }
  ReportDecisionTimes(state, ms);
  state.counters["decisions"] = static_cast<double>(ms.size());
}
BENCHMARK(BM_NeuralDecision)->Arg(2)->Arg(3)->Arg(4)->Unit(benchmark::kSecond)->Iterations(1)->UseRealTime();

// One evaluation of the net (issue 21): a whole forward pass, and the
// incremental leaf (Begin once, Add a few changed inputs, Finish), the cost
// the neural player pays per leaf of its turn search.
void BM_NeuralEvaluate(benchmark::State& state) {
  absl::StatusOr<std::shared_ptr<const NeuralNet>> net = BuiltInNeuralNet();
  if (!net.ok()) return state.SkipWithError(std::string(net.status().message()).c_str());
  NeuralFeatures f{};
  for (int i = 0; i < (*net)->inputs(); i += 3) f[i] = 1;
  for (auto _ : state) benchmark::DoNotOptimize((*net)->Evaluate(f.data(), 2));
}
BENCHMARK(BM_NeuralEvaluate);

void BM_NeuralLeaf(benchmark::State& state) {
  absl::StatusOr<std::shared_ptr<const NeuralNet>> net = BuiltInNeuralNet();
  if (!net.ok()) return state.SkipWithError(std::string(net.status().message()).c_str());
  NeuralFeatures f{};
  for (int i = 0; i < (*net)->inputs(); i += 3) f[i] = 1;
  NeuralNet::Accumulator base, acc;
  (*net)->Begin(f.data(), base);
  for (auto _ : state) {
    acc = base;
    for (int i = 0; i < 8; ++i) (*net)->Add(acc, 7 * i + 1, 1.0f);  // a marking: ~8 inputs change
    benchmark::DoNotOptimize((*net)->Finish(acc, 2));
  }
}
BENCHMARK(BM_NeuralLeaf);

}  // namespace
}  // namespace penk

BENCHMARK_MAIN();
