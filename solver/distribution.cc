#include "solver/distribution.h"

#include <omp.h>

#include <algorithm>
#include <bit>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "engine/dispatch.h"
#include "engine/marking.h"
#include "engine/rng.h"
#include "solver/advisor.h"

namespace penk {
namespace {


class Optimal : public TurnPolicy {
 public:
  explicit Optimal(const SolitaireTable& table) : table_(table) {}
  std::unique_ptr<TurnPolicy> Clone() const override { return std::make_unique<Optimal>(table_); }
  uint32_t blocked_rows() const override { return table_.blocked_rows(); }
  void Decide(const ColumnCodes& codes, TurnChoices& out) override {
    DecideOptimalTurn(table_, codes, turn_[0], out);
  }
  void DecideBatch(const ColumnCodes* codes, int count, TurnChoices* out) override {
    DecideOptimalTurns(table_, codes, count, turn_.data(), out);
  }

 private:
  const SolitaireTable& table_;
  std::array<TurnValues, kTurnBatch> turn_;
};

// One position's transitions: successor (state index, or -(score + 1) for a
// finished game) and probability, one entry per distinct action in the order
// of the first roll taking it (two actions may reach the same position).
struct Transition {
  int32_t dest;
  int32_t free;  // free cells of a live successor
  double p;
};
struct PositionResult {
  std::vector<Transition> next;
  double failure = 0;  // probability that the turn is a failure (R3.5)
  double multi = 0;    // probability that it circles more than one cell
};

// One thread's policy and scratch space.
struct Worker {
  std::unique_ptr<TurnPolicy> policy;
  std::array<TurnChoices, kTurnBatch> choices;
  std::vector<double> action_mass;  // by catalog id, then failures by face
  std::vector<int> order;

  explicit Worker(const TurnPolicy& p)
      : policy(p.Clone()), action_mass(MarkingCatalog::Get().size() + kColumns + 1, 0.0) {}

  // The transitions of count <= kTurnBatch positions, decided together.
  std::array<std::array<double, kNumRolls>, kTurnBatch> masses;

  void Transitions(const ColumnCodes* codes, int count, const Rules& rules,
                   PositionResult* out) {
    policy->DecideBatch(codes, count, choices.data());
    FinalRollMasses(choices.data(), count, masses.data());
    for (int j = 0; j < count; ++j) Transitions(codes[j], choices[j], masses[j], rules, out[j]);
  }

  void Transitions(const ColumnCodes& codes, const Rules& rules, PositionResult& out) {
    policy->Decide(codes, choices[0]);
    Transitions(codes, choices[0], FinalRollMass(choices[0]), rules, out);
  }

  void Transitions(const ColumnCodes& codes, const TurnChoices& choices,
                   const std::array<double, kNumRolls>& mass, const Rules& rules,
                   PositionResult& out) {
    const MarkingCatalog& catalog = MarkingCatalog::Get();
    const uint32_t blocked_rows = policy->blocked_rows();
    order.clear();
    for (int r = 0; r < kNumRolls; ++r) {
      if (mass[r] == 0) continue;
      const int a = choices.action[r];
      const int slot = a >= 0 ? a : catalog.size() - a;
      if (action_mass[slot] == 0) order.push_back(slot);
      action_mass[slot] += mass[r];  // in roll order: deterministic
    }
    out.next.clear();
    out.failure = 0;
    out.multi = 0;
    for (int slot : order) {
      const double p = action_mass[slot];
      action_mass[slot] = 0;
      ColumnCodes next = slot < catalog.size()
                             ? CodesAfterMarking(codes, catalog.cells(slot), blocked_rows)
                             : CodesAfterFailure(codes, slot - catalog.size());
      if (slot >= catalog.size()) out.failure += p;
      else if (std::popcount(catalog.cells(slot)) > 1) out.multi += p;
      SortCodes(next);
      if (CodeClosed(next[3]))  // two closed columns: the game is over (R5.2)
        out.next.push_back({-(ScoreOfCodes(next, rules) + 1), 0, p});
      else
        out.next.push_back({static_cast<int32_t>(StateIndex(next)),
                            FreeCellCount(next, blocked_rows), p});
    }
  }
};

}  // namespace

namespace {

// The final rolls' values and actions of DecideOptimalTurn.
PENK_HOT void DecideFinalRolls(const SolitaireTable& table, const ColumnCodes& codes,
                               TurnValues& turn, TurnChoices& out) {
  const MarkingCatalog& catalog = MarkingCatalog::Get();
  const uint32_t rows = table.blocked_rows();
  const Sheet sheet = SheetOfCodes(codes, rows);
  const uint32_t blocked = ~sheet.free();
  double* final = turn.roll[0].data();
  std::fill(final, final + kNumRolls, kIllegal);
  // Scattered from the legal markings to the rolls that form them (as
  // FinalRollValues), in catalog order = canonical order with a strict >:
  // each roll keeps the first best of its markings, as RankActions ranks.
  for (int id = 0; id < catalog.size(); ++id) {
    if (catalog.cells(id) & blocked) continue;
    const double x = table.ValueOfCodes(CodesAfterMarking(codes, catalog.cells(id), rows));
    for (uint16_t r : catalog.RollsOf(id)) {  // selects, not branches
      const bool take = x > final[r];
      final[r] = take ? x : final[r];
      out.action[r] = take ? static_cast<int16_t>(id) : out.action[r];
    }
  }
  // R3.5: the first best failure column among FailureColumns (by face),
  // worked out only if some roll forms no legal group.
  int fail_face = 0;
  double fail_value = kIllegal;
  for (int r = 0; r < kNumRolls; ++r) {
    if (final[r] != kIllegal) continue;
    if (fail_face == 0)
      for (int v : FailureColumns(sheet)) {
        const double x = table.ValueOfCodes(CodesAfterFailure(codes, v));
        if (fail_face == 0 || x > fail_value) {
          fail_face = v;
          fail_value = x;
        }
      }
    final[r] = fail_value;
    out.action[r] = static_cast<int16_t>(-fail_face);
  }
}

}  // namespace

void DecideOptimalTurn(const SolitaireTable& table, const ColumnCodes& codes, TurnValues& turn,
                       TurnChoices& out) {
  DecideFinalRolls(table, codes, turn, out);
  SolveTurn(turn);
  for (int n = 1; n <= kRerolls; ++n) BestKeeps(turn, n, out.keep[n - 1].data());
}

void DecideOptimalTurns(const SolitaireTable& table, const ColumnCodes* codes, int count,
                        TurnValues* turns, TurnChoices* out) {
  TurnValues* t[kTurnBatch];
  std::array<std::array<int16_t, kNumRolls>, kRerolls>* keeps[kTurnBatch];
  for (int j = 0; j < count; ++j) {
    DecideFinalRolls(table, codes[j], turns[j], out[j]);
    t[j] = &turns[j];
    keeps[j] = &out[j].keep;
  }
  SolveTurnsWithKeeps(t, count, keeps);
}

std::unique_ptr<TurnPolicy> OptimalPolicy(const SolitaireTable& table) {
  return std::make_unique<Optimal>(table);
}

namespace {

// For each keep, the keeps one die smaller (one per distinct face it holds):
// the mass of a keep after a reroll stage is pulled from them.
struct SmallerKeeps {
  int16_t begin[kNumKeeps + 1];
  int16_t keep[kNumKeeps * kFaces];
  SmallerKeeps() {
    const DiceSpace& space = DiceSpace::Get();
    int n = 0;
    for (int k = 0; k < kNumKeeps; ++k) {
      begin[k] = static_cast<int16_t>(n);
      for (int f = 0; f < kFaces; ++f)
        if (space.Remove(k, f) != kNoKeep) keep[n++] = space.Remove(k, f);
    }
    begin[kNumKeeps] = static_cast<int16_t>(n);
  }
  static const SmallerKeeps& Get() {
    static const SmallerKeeps* const links = new SmallerKeeps();
    return *links;
  }
};

}  // namespace

PENK_HOT std::array<double, kNumRolls> FinalRollMass(const TurnChoices& choices) {
  const DiceSpace& space = DiceSpace::Get();
  const SmallerKeeps& smaller = SmallerKeeps::Get();
  std::array<double, kNumRolls> held, final{};
  for (int r = 0; r < kNumRolls; ++r) held[r] = space.RollProbability(r);  // R2.1
  for (int n = kRerolls; n >= 1; --n) {  // R2.2
    // Zeroed by vector stores: a `= {}` (or a plain loop, recognised as one)
    // becomes `rep stos`, whose stores the scatter below reads back slowly
    // (a quarter of this function's time); the empty asm keeps the loop.
    typedef double Zeros __attribute__((vector_size(32)));
    alignas(32) double lattice[kNumKeeps];
    for (int k = 0; k < kNumKeeps; k += 4) {
      *reinterpret_cast<Zeros*>(&lattice[k]) = Zeros{};
      asm volatile("" ::: "memory");
    }
    for (int r = 0; r < kNumRolls; ++r) {
      int k = choices.keep[n - 1][r];
      if (k >= kNumKeepsBelowSix)
        final[r] += held[r];  // all six kept: stop rolling
      else
        lattice[k] += held[r];
    }
    // A keep rerolls one die at a time, each face 1/6: the mass of keep K is
    // its own plus a sixth of each keep one die smaller (K less one die of a
    // face it holds). Keeps are numbered by size, so those are complete
    // first. Pulled rather than pushed: one store per keep, no chain of
    // read-modify-writes through memory.
    for (int k = 1; k < kNumKeeps; ++k) {
      double in = 0;
      for (int i = smaller.begin[k]; i < smaller.begin[k + 1]; ++i) in += lattice[smaller.keep[i]];
      lattice[k] += in * (1.0 / 6.0);
    }
    for (int r = 0; r < kNumRolls; ++r) held[r] = lattice[r + kNumKeepsBelowSix];
  }
  for (int r = 0; r < kNumRolls; ++r) final[r] += held[r];
  return final;
}

PENK_HOT void FinalRollMasses(const TurnChoices* choices, int count,
                              std::array<double, kNumRolls>* out) {
  // FinalRollMass with one turn per SIMD lane: the scatter to each turn's
  // keeps is per lane, the pull (three quarters of the work) is shared.
  typedef double Lanes __attribute__((vector_size(kTurnBatch * sizeof(double))));
  const DiceSpace& space = DiceSpace::Get();
  const SmallerKeeps& smaller = SmallerKeeps::Get();
  alignas(32) Lanes held[kNumRolls], final[kNumRolls], lattice[kNumKeeps];
  for (int r = 0; r < kNumRolls; ++r) {
    held[r] = Lanes{} + space.RollProbability(r);  // R2.1
    final[r] = Lanes{};
  }
  for (int n = kRerolls; n >= 1; --n) {  // R2.2
    for (int k = 0; k < kNumKeeps; ++k) {
      lattice[k] = Lanes{};
      asm volatile("" ::: "memory");  // vector stores, not `rep stos` (see FinalRollMass)
    }
    for (int j = 0; j < count; ++j)
      for (int r = 0; r < kNumRolls; ++r) {
        const int k = choices[j].keep[n - 1][r];
        if (k >= kNumKeepsBelowSix)
          final[r][j] += held[r][j];  // all six kept: stop rolling
        else
          lattice[k][j] += held[r][j];
      }
    for (int k = 1; k < kNumKeeps; ++k) {
      Lanes in = Lanes{};
      for (int i = smaller.begin[k]; i < smaller.begin[k + 1]; ++i) in += lattice[smaller.keep[i]];
      lattice[k] += in * (1.0 / 6.0);
    }
    for (int r = 0; r < kNumRolls; ++r) held[r] = lattice[r + kNumKeepsBelowSix];
  }
  for (int j = 0; j < count; ++j)
    for (int r = 0; r < kNumRolls; ++r) out[j][r] = final[r][j] + held[r][j];
}

double ScoreDistribution::Total() const {
  double t = 0;
  for (double p : pmf) t += p;
  return t;
}

double ScoreDistribution::Mean() const {
  double m = 0;
  for (int s = 0; s <= kMaxScore; ++s) m += s * pmf[s];
  return m;
}

double ScoreDistribution::StdDev() const {
  const double mean = Mean();
  double var = 0;
  for (int s = 0; s <= kMaxScore; ++s) var += (s - mean) * (s - mean) * pmf[s];
  return std::sqrt(var);
}

int ScoreDistribution::Percentile(double p) const {
  double c = 0;
  for (int s = 0; s <= kMaxScore; ++s) {
    c += pmf[s];
    if (pmf[s] > 0 && c >= p - 1e-12) return s;
  }
  return kMaxScore;
}

double ScoreDistribution::AtLeast(int x) const {
  double t = 0;
  for (int s = std::max(x, 0); s <= kMaxScore; ++s) t += pmf[s];
  return t;
}

double ScoreDistribution::ExpectedTurns() const {
  double t = 0;
  for (double p : turn_at) t += p;
  return t;
}

double ScoreDistribution::ExpectedFailures() const {
  double t = 0;
  for (double p : failure_at) t += p;
  return t;
}

absl::StatusOr<ScoreDistribution> PropagateScores(const Sheet& sheet, const Rules& rules,
                                                  const TurnPolicy& policy,
                                                  const BuildProgress& progress) {
  absl::StatusOr<SolitairePosition> position = PositionOfSheet(sheet);
  if (!position.ok()) return position.status();
  ScoreDistribution dist;
  if (sheet.ClosedColumns() >= 2) {  // R5.2: already over
    dist.pmf[Score(sheet, rules)] = 1;
    return dist;
  }
  // The sheet's crossed rows must be the policy's (a row with no free cell
  // may count either way), as SolitaireTable::Value requires.
  uint32_t free_rows = 0;
  for (int k = 1; k <= kRows; ++k)
    if (sheet.free() & RowMask(k)) free_rows |= 1u << (k - 1);
  if ((position->blocked_rows & ~policy.blocked_rows()) || (policy.blocked_rows() & free_rows))
    return absl::InvalidArgumentError(absl::StrCat(
        "sheet ", FormatSheet(sheet), " has rows crossed by PENKs (R4.2) other than the ",
        "policy's: blocked rows mask ", position->blocked_rows, ", policy's ",
        policy.blocked_rows()));
  const int threads = std::max(1, omp_get_max_threads());
  std::vector<std::unique_ptr<Worker>> workers;
  for (int i = 0; i < threads; ++i) workers.push_back(std::make_unique<Worker>(policy));

  std::vector<double> mass(kNumSolitaireStates, 0.0);
  std::vector<char> seen(kNumSolitaireStates, 0);
  std::vector<std::vector<int32_t>> layer(kRows * kColumns + 1);
  auto apply = [&](double m, int free, const PositionResult& res) {
    ++dist.positions;
    dist.turn_at[free] += m;
    dist.failure_at[free] += m * res.failure;
    dist.multi_at[free] += m * res.multi;
    for (const Transition& t : res.next) {
      if (t.dest < 0) {
        dist.pmf[-t.dest - 1] += m * t.p;
        continue;
      }
      if (!seen[t.dest]) {
        seen[t.dest] = 1;
        layer[t.free].push_back(t.dest);
      }
      mass[t.dest] += m * t.p;
    }
  };

  // The first turn is played on the sheet as given (its own labelling).
  {
    PositionResult res;
    workers[0]->Transitions(CodesInPlace(sheet), rules, res);
    apply(1.0, sheet.FreeCount(), res);
  }
  // Chunks of a layer: while one thread adds chunk c - 1's masses (serial,
  // in a fixed order), the threads compute chunk c's transitions, which
  // depend on no mass (a layer's transitions only reach lower layers).
  constexpr size_t kChunk = 4096;
  std::vector<PositionResult> results[2] = {std::vector<PositionResult>(kChunk),
                                            std::vector<PositionResult>(kChunk)};
  for (int f = kRows * kColumns; f >= 0; --f) {
    std::vector<int32_t>& positions = layer[f];
    std::sort(positions.begin(), positions.end());
    const size_t chunks = (positions.size() + kChunk - 1) / kChunk;
    auto apply_chunk = [&](size_t c) {
      const size_t begin = c * kChunk, count = std::min(kChunk, positions.size() - begin);
      for (size_t i = 0; i < count; ++i) apply(mass[positions[begin + i]], f, results[c % 2][i]);
    };
    for (size_t c = 0; c < chunks; ++c) {
      const size_t begin = c * kChunk, count = std::min(kChunk, positions.size() - begin);
      std::vector<PositionResult>& out = results[c % 2];
#pragma omp parallel
      {
#pragma omp single nowait
        if (c > 0) apply_chunk(c - 1);
#pragma omp for schedule(dynamic, 2)
        for (size_t i = 0; i < count; i += kTurnBatch) {
          const int n = static_cast<int>(std::min<size_t>(kTurnBatch, count - i));
          ColumnCodes codes[kTurnBatch];
          for (int j = 0; j < n; ++j) codes[j] = StateOfIndex(positions[begin + i + j]);
          workers[omp_get_thread_num()]->Transitions(codes, n, rules, &out[i]);
        }
      }
    }
    if (chunks > 0) apply_chunk(chunks - 1);
    std::vector<int32_t>().swap(positions);
    if (progress && f <= sheet.FreeCount()) progress(sheet.FreeCount() + 1 - f, sheet.FreeCount() + 1);
  }
  return dist;
}

absl::StatusOr<ScoreDistribution> OptimalScoreDistribution(const SolitaireTable& table,
                                                           const Sheet& sheet,
                                                           const BuildProgress& progress) {
  absl::StatusOr<double> v = table.Value(sheet);  // validates the sheet and the table's depth
  if (!v.ok()) return v.status();
  std::unique_ptr<TurnPolicy> policy = OptimalPolicy(table);
  return PropagateScores(sheet, table.rules(), *policy, progress);
}

}  // namespace penk
