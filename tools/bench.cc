// Micro-benchmarks of the solver (Google Benchmark). Run:
//   build/penk_bench                         # everything (builds the table once, ~10 s)
//   build/penk_bench --benchmark_filter=Hint --benchmark_repetitions=9
// Figures and the machine are in docs/PERFORMANCE.md.
#include <benchmark/benchmark.h>

#include <filesystem>

#include "engine/dice_space.h"
#include "engine/rng.h"
#include "solver/advisor.h"
#include "solver/solitaire_dp.h"
#include "tables/table_file.h"
#include "tables/table_store.h"

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

}  // namespace
}  // namespace penk

BENCHMARK_MAIN();
