#include "solver/distribution.h"

#include <omp.h>

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "engine/marking.h"
#include "solver/bot.h"

namespace penk {
namespace {

// Column v-1 of the result is face v: the sheet's own labelling. The sheet
// must be a solitaire sheet (SolitaireCodes accepted it).
ColumnCodes CodesInPlace(const Sheet& sheet) {
  ColumnCodes codes{};
  for (int v = 1; v <= kColumns; ++v) {
    uint32_t rows = ColumnRows(sheet.circled, v);
    codes[v - 1] = sheet.ColumnClosed(v) ? static_cast<uint8_t>(kClosedBase + rows) : OpenCode(rows);
  }
  return codes;
}

// After circling `cells` (R3.2); a column with no free cell left is closed (R5.1).
ColumnCodes CodesAfterMarking(ColumnCodes codes, uint32_t cells) {
  for (int v = 1; v <= kColumns; ++v)
    if (uint32_t rows = ColumnRows(cells, v)) codes[v - 1] = OpenCode(CodeRows(codes[v - 1]) | rows);
  return codes;
}

// After a failure crossing column `face` (R3.5).
ColumnCodes CodesAfterFailure(ColumnCodes codes, int face) {
  codes[face - 1] = static_cast<uint8_t>(kClosedBase + CodeRows(codes[face - 1]));
  return codes;
}

// For each roll r, the keep chosen with n rerolls left: the highest
// TurnValues::KeepValue among the sub-multisets of r, the lowest keep index
// among equal values -- the first best in DiceSpace::SubKeeps order, which is
// ascending, i.e. exactly RankActions' stable ranking. Found as a running
// lexicographic maximum up the lattice (every sub-multiset of k is k itself or
// a sub-multiset of k minus one die), O(924 * 6).
void BestKeeps(const TurnValues& t, int n, int16_t* out) {
  const DiceSpace& space = DiceSpace::Get();
  double best_value[kNumKeeps];
  int16_t best[kNumKeeps];
  for (int k = 0; k < kNumKeeps; ++k) {
    double v = k < kNumKeepsBelowSix ? t.keep[n - 1][k] : t.roll[0][k - kNumKeepsBelowSix];
    int16_t b = static_cast<int16_t>(k);
    for (int f = 0; f < kFaces; ++f) {
      int16_t sub = space.Remove(k, f);
      if (sub == kNoKeep) continue;
      if (best_value[sub] > v || (best_value[sub] == v && best[sub] < b)) {
        v = best_value[sub];
        b = best[sub];
      }
    }
    best_value[k] = v;
    best[k] = b;
  }
  for (int r = 0; r < kNumRolls; ++r) out[r] = best[r + kNumKeepsBelowSix];
}

class Optimal : public TurnPolicy {
 public:
  explicit Optimal(const SolitaireTable& table)
      : table_(table), value_(MarkingCatalog::Get().size()) {}
  std::unique_ptr<TurnPolicy> Clone() const override { return std::make_unique<Optimal>(table_); }

  void Decide(const ColumnCodes& codes, TurnChoices& out) override {
    const MarkingCatalog& catalog = MarkingCatalog::Get();
    const Sheet sheet = SheetOfCodes(codes);
    const uint32_t blocked = ~sheet.free();
    for (int id = 0; id < catalog.size(); ++id)
      value_[id] = (catalog.cells(id) & blocked)
                       ? kIllegal
                       : table_.ValueOfCodes(CodesAfterMarking(codes, catalog.cells(id)));
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
      int best = -1;
      for (uint16_t id : catalog.ForRoll(r))  // canonical order, as LegalMarkings
        if (value_[id] != kIllegal && (best < 0 || value_[id] > value_[best])) best = id;
      if (best >= 0) {
        turn_.roll[0][r] = value_[best];
        out.next[r] = CodesAfterMarking(codes, catalog.cells(best));
        out.failure[r] = false;
      } else {
        turn_.roll[0][r] = fail_value;
        out.next[r] = CodesAfterFailure(codes, fail_face);
        out.failure[r] = true;
      }
    }
    SolveTurn(turn_);
    for (int n = 1; n <= kRerolls; ++n) BestKeeps(turn_, n, out.keep[n - 1].data());
  }

 private:
  const SolitaireTable& table_;
  std::vector<double> value_;
  TurnValues turn_;
};

class Greedy : public TurnPolicy {
 public:
  explicit Greedy(const Rules& rules) : rules_(rules), gain_(MarkingCatalog::Get().size()) {}
  std::unique_ptr<TurnPolicy> Clone() const override { return std::make_unique<Greedy>(rules_); }

  void Decide(const ColumnCodes& codes, TurnChoices& out) override {
    const MarkingCatalog& catalog = MarkingCatalog::Get();
    const DiceSpace& space = DiceSpace::Get();
    const Sheet sheet = SheetOfCodes(codes);
    for (int n = 1; n <= kRerolls; ++n)
      for (int r = 0; r < kNumRolls; ++r)
        out.keep[n - 1][r] = static_cast<int16_t>(
            space.KeepIndex(bot_.ChooseKeep(sheet, space.roll(r), n, rules_)));
    // GreedyBot::ChooseMarking: the first legal marking of the largest gain
    // (R6), canonical order; the gain is computed once per catalog marking.
    const uint32_t blocked = ~sheet.free();
    const int base = ScoreOfCodes(codes, rules_);
    for (int id = 0; id < catalog.size(); ++id)
      gain_[id] = (catalog.cells(id) & blocked)
                      ? -1
                      : ScoreOfCodes(CodesAfterMarking(codes, catalog.cells(id)), rules_) - base;
    const int fail_face = GreedyBot::ChooseFailureColumn(sheet);
    for (int r = 0; r < kNumRolls; ++r) {
      int best = -1;
      for (uint16_t id : catalog.ForRoll(r))
        if (gain_[id] >= 0 && (best < 0 || gain_[id] > gain_[best])) best = id;
      out.failure[r] = best < 0;
      out.next[r] = best >= 0 ? CodesAfterMarking(codes, catalog.cells(best))
                              : CodesAfterFailure(codes, fail_face);
    }
  }

 private:
  Rules rules_;
  GreedyBot bot_;
  std::vector<int> gain_;
};

// One position's transitions: successor (state index, or -(score + 1) for a
// finished game) and probability, merged by successor.
struct Transition {
  int32_t dest;
  int32_t free;  // free cells of a live successor
  double p;
};
struct PositionResult {
  std::vector<Transition> next;
  double failure = 0;  // probability that the turn is a failure (R3.5)
};

void Transitions(TurnPolicy& policy, const ColumnCodes& codes, const Rules& rules,
                 TurnChoices& choices, PositionResult& out) {
  policy.Decide(codes, choices);
  const std::array<double, kNumRolls> mass = FinalRollMass(choices);
  out.next.clear();
  out.failure = 0;
  for (int r = 0; r < kNumRolls; ++r) {
    if (mass[r] == 0) continue;
    ColumnCodes next = choices.next[r];
    SortCodes(next);
    if (CodeClosed(next[3]))  // two closed columns: the game is over (R5.2)
      out.next.push_back({-(ScoreOfCodes(next, rules) + 1), 0, mass[r]});
    else
      out.next.push_back({static_cast<int32_t>(StateIndex(next)), FreeCellCount(next), mass[r]});
    if (choices.failure[r]) out.failure += mass[r];
  }
  // Merge equal successors; the stable sort keeps the roll order within one,
  // so the sums are always taken in the same order.
  std::stable_sort(out.next.begin(), out.next.end(),
                   [](const Transition& a, const Transition& b) { return a.dest < b.dest; });
  size_t w = 0;
  for (size_t i = 0; i < out.next.size(); ++i) {
    if (w > 0 && out.next[w - 1].dest == out.next[i].dest)
      out.next[w - 1].p += out.next[i].p;
    else
      out.next[w++] = out.next[i];
  }
  out.next.resize(w);
}

}  // namespace

std::unique_ptr<TurnPolicy> OptimalPolicy(const SolitaireTable& table) {
  return std::make_unique<Optimal>(table);
}

std::unique_ptr<TurnPolicy> GreedyPolicy(const Rules& rules) {
  return std::make_unique<Greedy>(rules);
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
  absl::StatusOr<ColumnCodes> canonical = SolitaireCodes(sheet);
  if (!canonical.ok()) return canonical.status();
  ScoreDistribution dist;
  if (ClosedCount(*canonical) >= 2) {  // R5.2: already over
    dist.pmf[Score(sheet, rules)] = 1;
    return dist;
  }
  const int threads = std::max(1, omp_get_max_threads());
  std::vector<std::unique_ptr<TurnPolicy>> policies;
  for (int i = 0; i < threads; ++i) policies.push_back(policy.Clone());
  std::vector<TurnChoices> choices(threads);

  std::vector<double> mass(kNumSolitaireStates, 0.0);
  std::vector<char> seen(kNumSolitaireStates, 0);
  std::vector<std::vector<int32_t>> layer(kRows * kColumns + 1);
  auto apply = [&](double m, int free, const PositionResult& res) {
    ++dist.positions;
    dist.turn_at[free] += m;
    dist.failure_at[free] += m * res.failure;
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
    Transitions(*policies[0], CodesInPlace(sheet), rules, choices[0], res);
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
        const int t = omp_get_thread_num();
        Transitions(*policies[t], StateOfIndex(positions[begin + i]), rules, choices[t],
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
