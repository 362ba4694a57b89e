#include "solver/distribution.h"

#include <omp.h>

#include <algorithm>
#include <bit>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "engine/marking.h"
#include "engine/rng.h"
#include "solver/advisor.h"

namespace penk {
namespace {


// For each roll r, the keep chosen with n rerolls left: TurnValues::BestKeep,
// the front of RankActions' ranking.
void BestKeeps(const TurnValues& t, int n, int16_t* out) {
  for (int r = 0; r < kNumRolls; ++r) out[r] = static_cast<int16_t>(t.BestKeep(n, r));
}

class Optimal : public TurnPolicy {
 public:
  explicit Optimal(const SolitaireTable& table)
      : table_(table), value_(MarkingCatalog::Get().size()) {}
  std::unique_ptr<TurnPolicy> Clone() const override { return std::make_unique<Optimal>(table_); }
  uint32_t blocked_rows() const override { return table_.blocked_rows(); }

  void Decide(const ColumnCodes& codes, TurnChoices& out) override {
    const MarkingCatalog& catalog = MarkingCatalog::Get();
    const uint32_t rows = table_.blocked_rows();
    const Sheet sheet = SheetOfCodes(codes, rows);
    const uint32_t blocked = ~sheet.free();
    for (int id = 0; id < catalog.size(); ++id)
      value_[id] = (catalog.cells(id) & blocked)
                       ? kIllegal
                       : table_.ValueOfCodes(CodesAfterMarking(codes, catalog.cells(id), rows));
    // R3.5: the first best failure column among FailureColumns (by face).
    int fail_face = 0;
    double fail_value = kIllegal;
    for (int v : FailureColumns(sheet)) {
      double x = table_.ValueOfCodes(CodesAfterFailure(codes, v));
      if (fail_face == 0 || x > fail_value) {
        fail_face = v;
        fail_value = x;
      }
    }
    for (int r = 0; r < kNumRolls; ++r) {
      // The first best in canonical order (as LegalMarkings); illegal
      // markings are -inf and never win. Branch-free: the hot loop.
      int best = -1;
      double best_value = kIllegal;
      for (uint16_t id : catalog.ForRoll(r)) {
        const double x = value_[id];
        const bool take = x > best_value;
        best_value = take ? x : best_value;
        best = take ? id : best;
      }
      turn_.roll[0][r] = best >= 0 ? best_value : fail_value;
      out.action[r] = static_cast<int16_t>(best >= 0 ? best : -fail_face);
    }
    SolveTurn(turn_);
    for (int n = 1; n <= kRerolls; ++n) BestKeeps(turn_, n, out.keep[n - 1].data());
  }

 private:
  const SolitaireTable& table_;
  std::vector<double> value_;
  TurnValues turn_;
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
  TurnChoices choices;
  std::vector<double> action_mass;  // by catalog id, then failures by face
  std::vector<int> order;

  explicit Worker(const TurnPolicy& p)
      : policy(p.Clone()), action_mass(MarkingCatalog::Get().size() + kColumns + 1, 0.0) {}

  void Transitions(const ColumnCodes& codes, const Rules& rules, PositionResult& out) {
    const MarkingCatalog& catalog = MarkingCatalog::Get();
    const uint32_t blocked_rows = policy->blocked_rows();
    policy->Decide(codes, choices);
    const std::array<double, kNumRolls> mass = FinalRollMass(choices);
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

std::unique_ptr<TurnPolicy> OptimalPolicy(const SolitaireTable& table) {
  return std::make_unique<Optimal>(table);
}

std::array<double, kNumRolls> FinalRollMass(const TurnChoices& choices) {
  const DiceSpace& space = DiceSpace::Get();
  std::array<double, kNumRolls> held, final{};
  for (int r = 0; r < kNumRolls; ++r) held[r] = space.RollProbability(r);  // R2.1
  for (int n = kRerolls; n >= 1; --n) {  // R2.2
    double lattice[kNumKeeps] = {};
    for (int r = 0; r < kNumRolls; ++r) {
      int k = choices.keep[n - 1][r];
      if (k >= kNumKeepsBelowSix)
        final[r] += held[r];  // all six kept: stop rolling
      else
        lattice[k] += held[r];
    }
    // Keeps are numbered by size: every keep's mass is complete before it is
    // pushed to its supersets, one rerolled die at a time.
    for (int k = 0; k < kNumKeepsBelowSix; ++k)
      if (lattice[k] != 0) {
        const double share = lattice[k] * (1.0 / 6.0);
        for (int f = 0; f < kFaces; ++f) lattice[space.Add(k, f)] += share;
      }
    for (int r = 0; r < kNumRolls; ++r) held[r] = lattice[r + kNumKeepsBelowSix];
  }
  for (int r = 0; r < kNumRolls; ++r) final[r] += held[r];
  return final;
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
                                                  const TurnPolicy& policy) {
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
  constexpr size_t kChunk = 4096;
  std::vector<PositionResult> results(kChunk);
  for (int f = kRows * kColumns; f >= 0; --f) {
    std::vector<int32_t>& positions = layer[f];
    std::sort(positions.begin(), positions.end());
    for (size_t begin = 0; begin < positions.size(); begin += kChunk) {
      const size_t count = std::min(kChunk, positions.size() - begin);
#pragma omp parallel for schedule(dynamic, 8)
      for (size_t i = 0; i < count; ++i) {
        workers[omp_get_thread_num()]->Transitions(StateOfIndex(positions[begin + i]), rules,
                                                   results[i]);
      }
      for (size_t i = 0; i < count; ++i) apply(mass[positions[begin + i]], f, results[i]);
    }
    std::vector<int32_t>().swap(positions);
  }
  return dist;
}

absl::StatusOr<ScoreDistribution> OptimalScoreDistribution(const SolitaireTable& table,
                                                           const Sheet& sheet) {
  absl::StatusOr<double> v = table.Value(sheet);  // validates the sheet and the table's depth
  if (!v.ok()) return v.status();
  std::unique_ptr<TurnPolicy> policy = OptimalPolicy(table);
  return PropagateScores(sheet, table.rules(), *policy);
}

}  // namespace penk
