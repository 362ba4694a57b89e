#include "solver/distribution.h"

#include <omp.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "engine/dispatch.h"
#include "engine/marking.h"
#include "engine/rng.h"
#include "solver/advisor.h"
#include "solver/marking_lanes.h"
#include "solver/smaller_keeps.h"

namespace penk {
namespace {


class Optimal : public TurnPolicy {
 public:
  explicit Optimal(const SolitaireTable& table) : decider_(table) {}
  std::unique_ptr<TurnPolicy> Clone() const override {
    return std::make_unique<Optimal>(decider_.table());
  }
  uint32_t blocked_rows() const override { return decider_.table().blocked_rows(); }
  void Decide(const ColumnCodes& codes, TurnChoices& out) override {
    decider_.Turn(codes, turn_, out);
  }
  void DecideBatch(const ColumnCodes* codes, int count, TurnChoices* out) override {
    decider_.Choices(codes, count, out);
  }
  const int32_t* Successors() const override { return decider_.successors(); }

 private:
  OptimalDecider decider_;
  TurnValues turn_;
};

// One position's transitions: successor (state index, or -(score + 1) for a
// finished game) and probability, one entry per action with mass, markings
// in catalog order then failures by face (two actions may reach the same
// position).
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

// The slot of an action in a per-action array: a marking's catalog id, then
// failures by face.
inline int ActionSlot(int action, int markings) {
  return action >= 0 ? action : markings - action;
}

// Each action's mass in a decided turn, by ActionSlot (zero between
// positions).
struct ActionSums {
  // Whole vectors of kTurnBatch slots (the padding stays 0), for
  // PositionTransitions' compaction.
  std::vector<double> mass = std::vector<double>(
      (MarkingCatalog::Get().size() + kColumns + kTurnBatch) / kTurnBatch * kTurnBatch, 0.0);
};

// For each mask of kTurnBatch consecutive slots, the offsets of those in the
// mask, ascending, 16 bits each from the lowest: the compaction's table.
constexpr std::array<uint64_t, 1 << kTurnBatch> kCompactOffsets = [] {
  std::array<uint64_t, 1 << kTurnBatch> t{};
  for (int mask = 0; mask < (1 << kTurnBatch); ++mask)
    for (int i = 0, n = 0; i < kTurnBatch; ++i)
      if (mask >> i & 1) t[mask] |= static_cast<uint64_t>(i) << (16 * n++);
  return t;
}();

// The masses of every roll of count <= kTurnBatch decided turns added to
// their actions' sums, in roll order per lane (deterministic). Lanes inside
// rolls: consecutive rolls often take the same action, and one lane's
// additions to it are a chain through memory; four lanes' overlap.
PENK_HOT void AddRolls(const TurnChoices* choices, const std::array<double, kNumRolls>* masses,
                       int count, ActionSums* sums) {
  const int markings = MarkingCatalog::Get().size();
  for (int r = 0; r < kNumRolls; ++r)
    for (int j = 0; j < count; ++j)
      sums[j].mass[ActionSlot(choices[j].action[r], markings)] += masses[j][r];
}

// One position's transitions from the masses of its actions (ActionSums,
// cleared on return), in action slot order: the actions with mass found by a
// branch-free compaction, not a branch per roll ("is this action new",
// mispredicted at random, most of the time of the transitions, perf).
// PENK_HOT: the popcounts and the codes' arithmetic inline, in the clones
// (out of them, every popcount was a library call).
// `successors`, when the policy found them (TurnPolicy::Successors, this
// position's lane), spares the live successors' codes and index.
PENK_HOT void PositionTransitions(const ColumnCodes& codes, int free, uint32_t blocked_rows,
                                  const Rules& rules, const int32_t* successors, ActionSums& sums,
                                  PositionResult& out) {
  static_assert(kTurnBatch == 4, "the compaction packs four 16-bit offsets");
  const MarkingCatalog& catalog = MarkingCatalog::Get();
  const int slots = static_cast<int>(sums.mass.size());
  int16_t order[kMaxCatalogMarkings + kColumns + 1 + kTurnBatch];
  int actions = 0;
  // Compacted without branches, four slots at a time: their mask of slots
  // with mass, its offsets from the table, the first slot added to each,
  // stored whole (the ones past the count are overwritten or ignored). One
  // slot at a time, a chain through the count, was most of this function.
  for (int slot = 0; slot < slots; slot += kTurnBatch) {
    Lanes m;
    std::memcpy(&m, &sums.mass[slot], sizeof m);
    const LaneInts with_mass = m != 0;
    const int mask = static_cast<int>((with_mass[0] & 1) | (with_mass[1] & 2) |
                                      (with_mass[2] & 4) | (with_mass[3] & 8));
    const uint64_t offsets = kCompactOffsets[mask] + slot * 0x0001000100010001ull;
    std::memcpy(&order[actions], &offsets, sizeof offsets);
    actions += std::popcount(static_cast<unsigned>(mask));
  }
  out.next.clear();
  out.failure = 0;
  out.multi = 0;
  for (int i = 0; i < actions; ++i) {
    const int slot = order[i];
    const double p = sums.mass[slot];
    sums.mass[slot] = 0;
    ColumnCodes next;
    int next_free;
    if (slot < catalog.size()) {
      const uint32_t cells = catalog.cells(slot);
      next_free = free - std::popcount(cells);  // R3.2: a circled cell was free
      if (std::popcount(cells) > 1) out.multi += p;
      if (successors && successors[slot * kTurnBatch] >= 0) {
        out.next.push_back({successors[slot * kTurnBatch], next_free, p});
        continue;
      }
      next = CodesAfterMarking(codes, cells, blocked_rows);
    } else {
      next = CodesAfterFailure(codes, slot - catalog.size());
      next_free = -1;  // counted below if the game goes on
      out.failure += p;
    }
    SortCodes(next);
    if (CodeClosed(next[3])) {  // two closed columns: the game is over (R5.2)
      out.next.push_back({-(ScoreOfCodes(next, rules) + 1), 0, p});
    } else {
      if (next_free < 0) next_free = FreeCellCount(next, blocked_rows);
      out.next.push_back({static_cast<int32_t>(StateIndex(next)), next_free, p});
    }
  }
}

// One thread's policy and scratch space.
struct Worker {
  std::unique_ptr<TurnPolicy> policy;
  std::array<TurnChoices, kTurnBatch> choices;
  std::array<ActionSums, kTurnBatch> sums;  // per lane
  // The transitions of count <= kTurnBatch positions, decided together.
  std::array<std::array<double, kNumRolls>, kTurnBatch> masses;

  explicit Worker(const TurnPolicy& p) : policy(p.Clone()) {}

  // Positions of one layer (`free` free cells), decided together.
  void Transitions(const ColumnCodes* codes, int count, int free, const Rules& rules,
                   PositionResult* out) {
    policy->DecideBatch(codes, count, choices.data());
    FinalRollMasses(choices.data(), count, masses.data());
    AddRolls(choices.data(), masses.data(), count, sums.data());
    const int32_t* const successors = policy->Successors();
    for (int j = 0; j < count; ++j)
      PositionTransitions(codes[j], free, policy->blocked_rows(), rules,
                          successors ? successors + j : nullptr, sums[j], out[j]);
  }

  // The first position, played on the sheet as given.
  void Transitions(const ColumnCodes& codes, int free, const Rules& rules, PositionResult& out) {
    policy->Decide(codes, choices[0]);
    masses[0] = FinalRollMass(choices[0]);
    AddRolls(choices.data(), masses.data(), 1, sums.data());
    PositionTransitions(codes, free, policy->blocked_rows(), rules, nullptr, sums[0], out);
  }
};

}  // namespace

// An OptimalDecider's buffers (on the heap: about 120 KB; not zeroed, each
// decision writes what it reads).
struct DecideScratch {
  MarkingLanes lanes;
  alignas(64) Lanes final[kNumRolls];
  alignas(64) LaneInts action[kNumRolls];
  PositionMarkings legal;  // DecideFinalRoll's, one position
};

namespace {

// The final rolls' values and actions of OptimalDecider's turns, for count <=
// kTurnBatch positions, one per SIMD lane, as SolveBatch finds the DP's
// (solver/solitaire_dp.cc): each legal marking's successor looked up first
// (prefetched), then scattered to its rolls as a vector of lanes, the value
// and the marking taken by vector selects. One position at a time, the
// lookups in the scatter and a branch per (marking, roll) that the
// predictor could not learn were a third of `penk distribution` (perf).
// Per lane the same values in catalog order = canonical order with a strict
// >: each roll keeps the first best of its markings, as RankActions ranks.
//
// The values stay in s.final, failures included; with `turns` they are also
// written to turns[j]->roll[0].
PENK_HOT void DecideFinalRolls(const SolitaireTable& table, const ColumnCodes* codes, int count,
                               TurnValues* const* turns, TurnChoices* out, DecideScratch& s) {
  const MarkingCatalog& catalog = MarkingCatalog::Get();
  MarkingLanes& lanes = s.lanes;
  FindMarkingLanes(table, codes, count, lanes);
  for (int r = 0; r < kNumRolls; ++r) {
    s.final[r] = Lanes{} + kIllegal;
    s.action[r] = LaneInts{};
  }
  for (int i = 0; i < lanes.markings; ++i) {
    const Lanes v = lanes.value[i];
    const LaneInts id = LaneInts{} + lanes.marking[i];
    for (uint16_t r : catalog.RollsOf(lanes.marking[i])) {
      const LaneInts take = v > s.final[r];
      s.final[r] = take ? v : s.final[r];
      s.action[r] = take ? id : s.action[r];
    }
  }
  // R3.5: per lane the first best failure column among FailureColumns (by
  // face), worked out only if some roll forms no legal group.
  Lanes fail_value;
  LaneInts fail_face;
  BestFailures(table, codes, count, lanes, s.final, fail_value, fail_face);
  const LaneInts fail_action = -fail_face;
  for (int r = 0; r < kNumRolls; ++r) {
    const LaneInts fails = s.final[r] == kIllegal;
    s.final[r] = fails ? fail_value : s.final[r];
    s.action[r] = fails ? fail_action : s.action[r];
  }
  for (int j = 0; j < count; ++j) {
    for (int r = 0; r < kNumRolls; ++r) out[j].action[r] = static_cast<int16_t>(s.action[r][j]);
    if (turns)
      for (int r = 0; r < kNumRolls; ++r) turns[j]->roll[0][r] = s.final[r][j];
  }
}

// DecideFinalRolls for one position (OptimalDecider::Turn: a hint's turn,
// a game's decision), without the lanes: with one position in four lanes
// their vector work is four times the need, and it was a third of a hint
// with its sd (perf, BM_RequestRoundTrip/2). The successors are found as
// the advisor's hint finds them (FindPositionMarkings); the same values,
// maxima in the same order (strict >, catalog order) and the same first
// best failure by face: bit for bit its lane's values and actions.
PENK_HOT void DecideFinalRoll(const SolitaireTable& table, const ColumnCodes& codes,
                              TurnValues& turn, TurnChoices& out, DecideScratch& s) {
  const MarkingCatalog& catalog = MarkingCatalog::Get();
  const double* const values = table.values().data();
  const Sheet sheet = SheetOfCodes(codes, table.blocked_rows());
  PositionMarkings& legal = s.legal;
  FindPositionMarkings(table, codes, sheet, legal);
  double* const final = turn.roll[0].data();
  int16_t* const action = out.action.data();
  std::fill(final, final + kNumRolls, kIllegal);
  std::fill(action, action + kNumRolls, int16_t{0});
  for (int i = 0; i < legal.count; ++i) {
    const double v = legal.Value(values, i);
    const int16_t id = static_cast<int16_t>(legal.marking[i]);
    for (uint16_t r : catalog.RollsOf(legal.marking[i]))
      if (v > final[r]) {
        final[r] = v;
        action[r] = id;
      }
  }
  // R3.5: the first best failure column by face, found once, for the rolls
  // that form no legal group.
  int face = 0;
  double failure = kIllegal;
  bool failure_known = false;
  for (int r = 0; r < kNumRolls; ++r) {
    if (final[r] != kIllegal) continue;
    if (!failure_known) {
      for (int v = 1; v <= kColumns; ++v) {
        if (sheet.ColumnClosed(v)) continue;
        const double x = table.ValueOfCodes(CodesAfterFailure(codes, v));
        if (face == 0 || x > failure) {
          face = v;
          failure = x;
        }
      }
      failure_known = true;
    }
    final[r] = failure;
    action[r] = static_cast<int16_t>(-face);
  }
}

}  // namespace

// Not value-initialised (make_unique would zero its 120 KB at every
// decider: a hint makes one).
OptimalDecider::OptimalDecider(const SolitaireTable& table)
    : table_(table), scratch_(new DecideScratch) {}

OptimalDecider::~OptimalDecider() = default;

void OptimalDecider::Turn(const ColumnCodes& codes, TurnValues& turn, TurnChoices& out) {
  DecideFinalRoll(table_, codes, turn, out, *scratch_);
  SolveTurn(turn);
  for (int n = 1; n <= kRerolls; ++n) BestKeeps(turn, n, out.keep[n - 1].data());
}

void OptimalDecider::Turns(const ColumnCodes* codes, int count, TurnValues* turns,
                           TurnChoices* out) {
  TurnValues* t[kTurnBatch];
  std::array<std::array<int16_t, kNumRolls>, kRerolls>* keeps[kTurnBatch];
  for (int j = 0; j < count; ++j) {
    t[j] = &turns[j];
    keeps[j] = &out[j].keep;
  }
  DecideFinalRolls(table_, codes, count, t, out, *scratch_);
  SolveTurnsWithKeeps(t, count, keeps);
}

void OptimalDecider::Choices(const ColumnCodes* codes, int count, TurnChoices* out) {
  // The final-roll values stay in the lanes they are found in.
  std::array<std::array<int16_t, kNumRolls>, kRerolls>* keeps[kTurnBatch];
  for (int j = 0; j < count; ++j) keeps[j] = &out[j].keep;
  DecideFinalRolls(table_, codes, count, nullptr, out, *scratch_);
  TurnKeepsOfLanes(final_values(), count, keeps);
}

const double* OptimalDecider::final_values() const {
  return reinterpret_cast<const double*>(scratch_->final);
}

const int32_t* OptimalDecider::successors() const { return scratch_->lanes.successor; }

std::unique_ptr<TurnPolicy> OptimalPolicy(const SolitaireTable& table) {
  return std::make_unique<Optimal>(table);
}

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
  // keeps is per lane, the pull (three quarters of the work) is shared. The
  // same additions in the same order as FinalRollMass.
  //
  // One lattice of all 924 keeps: the rolls' slots hold the masses held
  // before a reroll stage, and during its scatter the mass that stops there
  // (all six kept, R2.2: a roll's only six-dice keep is itself), so every
  // roll's mass goes to lattice[its keep] with no branch (a branch on "does
  // it stop", mispredicted at random, was a third of the scatter's time,
  // perf). The stopped masses then move to `final`, and the pull adds to
  // zeroed slots (0 + x is x: the same values).
  const DiceSpace& space = DiceSpace::Get();
  const SmallerKeeps& smaller = SmallerKeeps::Get();
  alignas(32) Lanes lattice[kNumKeeps], final[kNumRolls];
  Lanes* const held = lattice + kNumKeepsBelowSix;
  for (int r = 0; r < kNumRolls; ++r) {
    held[r] = Lanes{} + space.RollProbability(r);  // R2.1
    final[r] = Lanes{};
  }
  for (int n = kRerolls; n >= 1; --n) {  // R2.2
    for (int k = 0; k < kNumKeepsBelowSix; ++k) {
      lattice[k] = Lanes{};
      asm volatile("" ::: "memory");  // vector stores, not `rep stos` (see FinalRollMass)
    }
    // Lanes inside rolls: consecutive rolls often choose the same keep, and
    // one lane's additions to it are a chain through memory (a store, then
    // a load of it); four lanes' chains overlap. Per lane the same additions
    // in the same order. A roll's slot is emptied before its lanes add: the
    // one that stops adds its mass back.
    for (int r = 0; r < kNumRolls; ++r) {
      const Lanes h = held[r];
      held[r] = Lanes{};
      for (int j = 0; j < count; ++j) lattice[choices[j].keep[n - 1][r]][j] += h[j];
    }
    for (int r = 0; r < kNumRolls; ++r) {
      final[r] += held[r];
      held[r] = Lanes{};
    }
    // The pull: a keep adds a sixth of its smaller keeps' masses to its own.
    ForEachRun(smaller, [&](auto links, const SmallerKeeps::Run& run) [[gnu::always_inline]] {
      for (int i = run.begin; i < run.end; ++i) {
        const int k = smaller.by_count[i];
        const int16_t* const from = smaller.keep + smaller.begin[k];
        Lanes in = Lanes{};
        for (int f = 0; f < decltype(links)::value; ++f) in += lattice[from[f]];
        lattice[k] += in * (1.0 / 6.0);
      }
    });
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
    workers[0]->Transitions(CodesInPlace(sheet), sheet.FreeCount(), rules, res);
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
          workers[omp_get_thread_num()]->Transitions(codes, n, f, rules, &out[i]);
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
