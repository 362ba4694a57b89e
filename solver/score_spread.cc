#include "solver/score_spread.h"

#include <omp.h>

#include <atomic>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "engine/dice_space.h"
#include "engine/dispatch.h"
#include "engine/marking.h"
#include "engine/score.h"
#include "solver/lanes.h"

namespace penk {
namespace {

// The variance (and, for a target policy, the mean) after each final roll:
// that of the position its chosen action leads to (a finished game: 0 and its
// score). Distinct actions are looked up once.
struct SuccessorMoments {
  std::vector<double> var, mean;  // by slot: catalog id, then failures by face
  std::vector<uint32_t> stamp;
  uint32_t now = 0;

  SuccessorMoments()
      : var(MarkingCatalog::Get().size() + kColumns + 1), mean(var.size()),
        stamp(var.size(), 0) {}

  // `means_out` null: the variances only. Roll r's go to out[r * stride].
  // `successors`, when the decision found them (OptimalDecider::successors,
  // this position's lane), spares the live successors' codes and index.
  void Fill(const SpreadTable& spreads, const ColumnCodes& codes, const TurnChoices& choices,
            double* var_out, double* means_out, int stride = 1,
            const int32_t* successors = nullptr) {
    const MarkingCatalog& catalog = MarkingCatalog::Get();
    if (++now == 0) {  // wrapped: forget every stamp
      std::fill(stamp.begin(), stamp.end(), 0);
      now = 1;
    }
    for (int r = 0; r < kNumRolls; ++r) {
      const int a = choices.action[r];
      const int slot = a >= 0 ? a : catalog.size() - a;
      if (stamp[slot] != now) {
        stamp[slot] = now;
        const int32_t index = successors && a >= 0 ? successors[a * kTurnBatch] : -1;
        if (index >= 0) {  // a live position: its entries
          var[slot] = spreads.variances()[index];
          if (means_out) mean[slot] = spreads.means()[index];
        } else {
          const ColumnCodes after =
              a >= 0 ? CodesAfterMarking(codes, catalog.cells(a), spreads.blocked_rows())
                     : CodesAfterFailure(codes, -a);
          var[slot] = spreads.VarianceOfCodes(after);
          if (means_out) mean[slot] = spreads.MeanOfCodes(after);
        }
      }
      var_out[r * stride] = var[slot];
      if (means_out) means_out[r * stride] = mean[slot];
    }
  }
};

// One thread's decisions and scratch space.
struct SpreadWorker {
  OptimalDecider decider;
  TurnValues turn;
  TurnChoices choices[kTurnBatch];
  TurnValues means;  // a target policy's means of the last Variance (else unused)
  TurnSpread spread;
  SuccessorMoments successors;
  // A batch's means (a target table's: its own are probabilities) and
  // variances after each final roll, in lanes.
  alignas(64) double mean0[kNumRolls * kTurnBatch];
  alignas(64) double var0[kNumRolls * kTurnBatch];

  explicit SpreadWorker(const SolitaireTable& values) : decider(values) {}

  // The variance at `codes`, the whole turn kept (`turn`, `means`,
  // `spread`); its mean in *mean when not null.
  double Variance(const SpreadTable& spreads, const ColumnCodes& codes, double* mean = nullptr) {
    decider.Turn(codes, turn, choices[0]);
    turn_means_are_values_ = !spreads.objective().is_target();
    successors.Fill(spreads, codes, choices[0], spread.var_roll[0].data(),
                    turn_means_are_values_ ? nullptr : means.roll[0].data());
    if (!turn_means_are_values_) MeansOfTurn(choices[0], means);
    SpreadOfTurn(Means(), choices[0], spread);
    if (mean) *mean = Means().start;
    return spread.start;
  }

  // The variances (and a target table's means, mean_out) of count <=
  // kTurnBatch positions, decided together and spread one per SIMD lane
  // (SpreadOfTurns).
  void Variances(const SpreadTable& spreads, const ColumnCodes* codes, int count, double* out,
                 double* mean_out) {
    const bool target = spreads.objective().is_target();
    decider.Choices(codes, count, choices);
    for (int j = 0; j < kTurnBatch; ++j) {
      const int p = j < count ? j : 0;  // idle lanes repeat lane 0
      successors.Fill(spreads, codes[p], choices[p], var0 + j, target ? mean0 + j : nullptr,
                      kTurnBatch, decider.successors() + p);
    }
    // An expected-score table's means after the final rolls are its values.
    SpreadOfTurns(target ? mean0 : decider.final_values(), var0, choices, count, out, mean_out);
  }

  // The means of Variance's turn: the value table's for the expected score;
  // a target table's are probabilities, so the policy's means are carried
  // down the decided turn from the successors' (the table's means()).
  const TurnValues& Means() const { return turn_means_are_values_ ? turn : means; }

 private:
  bool turn_means_are_values_ = true;
};

absl::Status CheckPair(const SolitaireTable& values, const SpreadTable& spreads) {
  if (values.objective() != spreads.objective())
    return absl::InvalidArgumentError(absl::StrCat(
        "the spread table is for objective ", FormatObjective(spreads.objective()),
        "; the value table for ", FormatObjective(values.objective())));
  if (values.objective().is_target() &&
      spreads.means().size() != static_cast<size_t>(spreads.index().size()))
    return absl::InvalidArgumentError("the spread table of a target objective has no means");
  if (values.rules() != spreads.rules() || values.blocked_rows() != spreads.blocked_rows() ||
      values.max_free() != spreads.max_free())
    return absl::InvalidArgumentError(absl::StrCat(
        "the spread table is for rules ", FormatRules(spreads.rules()), ", blocked rows mask ",
        spreads.blocked_rows(), ", depth ", spreads.max_free(), "; the value table for ",
        FormatRules(values.rules()), ", ", values.blocked_rows(), ", ", values.max_free()));
  return absl::OkStatus();
}

}  // namespace

double SpreadTable::VarianceOfCodes(ColumnCodes c) const {
  SortCodes(c);
  if (CodeClosed(c[3])) return 0;  // two closed columns: over (R5.2), the score is known
  return variances_[index_.Of(c)];
}

double SpreadTable::MeanOfCodes(ColumnCodes c) const {
  SortCodes(c);
  if (CodeClosed(c[3])) return ScoreOfCodes(c, rules_);  // over (R5.2): its score (R6)
  return means_[index_.Of(c)];
}

PENK_HOT void MeansOfTurn(const TurnChoices& choices, TurnValues& t) {
  const DiceSpace& space = DiceSpace::Get();
  double mean[kNumKeeps];
  for (int n = 1; n <= kRerolls; ++n) {
    for (int r = 0; r < kNumRolls; ++r) mean[kNumKeepsBelowSix + r] = t.roll[n - 1][r];
    // A keep rerolls one die at a time (the turn solver's lattice).
    for (int k = kNumKeepsBelowSix - 1; k >= 0; --k) {
      double acc = 0;
      for (int f = 0; f < kFaces; ++f) acc += mean[space.Add(k, f)];
      mean[k] = acc * (1.0 / 6.0);
    }
    std::copy(mean, mean + kNumKeepsBelowSix, t.keep[n - 1].begin());
    // Stopping (the whole roll) keeps the final roll's mean.
    for (int r = 0; r < kNumRolls; ++r) {
      const int k = choices.keep[n - 1][r];
      t.roll[n][r] = k >= kNumKeepsBelowSix ? t.roll[0][r] : mean[k];
    }
  }
  double start = 0;
  for (int r = 0; r < kNumRolls; ++r) start += space.RollProbability(r) * t.roll[kRerolls][r];
  t.start = start;
}

PENK_HOT void SpreadOfTurn(const TurnValues& t, const TurnChoices& choices, TurnSpread& s) {
  const DiceSpace& space = DiceSpace::Get();
  double mean[kNumKeeps], var[kNumKeeps];
  for (int n = 1; n <= kRerolls; ++n) {
    for (int r = 0; r < kNumRolls; ++r) {  // the rolls after this reroll: n - 1 left
      mean[kNumKeepsBelowSix + r] = t.roll[n - 1][r];
      var[kNumKeepsBelowSix + r] = s.var_roll[n - 1][r];
    }
    // A keep rerolls one die at a time (as the turn solver's lattice): its
    // six outcomes are equally likely.
    for (int k = kNumKeepsBelowSix - 1; k >= 0; --k) {
      const double m = t.keep[n - 1][k];
      double acc = 0;
      for (int f = 0; f < kFaces; ++f) {
        const int c = space.Add(k, f);
        const double d = mean[c] - m;
        acc += var[c] + d * d;
      }
      mean[k] = m;
      var[k] = acc * (1.0 / 6.0);
    }
    std::copy(var, var + kNumKeepsBelowSix, s.var_keep[n - 1].begin());
    // Through each roll's decision unchanged: stopping keeps the final roll's.
    for (int r = 0; r < kNumRolls; ++r) {
      const int k = choices.keep[n - 1][r];
      s.var_roll[n][r] = k >= kNumKeepsBelowSix ? s.var_roll[0][r] : var[k];
    }
  }
  double start = 0;
  for (int r = 0; r < kNumRolls; ++r) {
    const double d = t.roll[kRerolls][r] - t.start;
    start += space.RollProbability(r) * (s.var_roll[kRerolls][r] + d * d);
  }
  s.start = start;
}

namespace {

// One keep of SpreadOfTurns' lattice: its mean, as the turn solver's keep
// value (the same sum in the same order), and its variance by total variance,
// from its six outcomes, one more die each, at outcome[Add(k, f) - offset].
[[gnu::always_inline]] inline void SpreadOfKeep(const DiceSpace& space, int k, int offset,
                                                const Lanes* outcome_mean,
                                                const Lanes* outcome_var, Lanes& mean,
                                                Lanes& var) {
  const Lanes sixth = Lanes{} + 1.0 / 6.0;
  Lanes m = outcome_mean[space.Add(k, 0) - offset];
  for (int f = 1; f < kFaces; ++f) m += outcome_mean[space.Add(k, f) - offset];
  m *= sixth;
  Lanes acc = Lanes{};
  for (int f = 0; f < kFaces; ++f) {
    const int c = space.Add(k, f) - offset;
    const Lanes d = outcome_mean[c] - m;
    acc += outcome_var[c] + d * d;
  }
  mean = m;
  var = acc * sixth;
}

}  // namespace

PENK_HOT void SpreadOfTurns(const double* mean0, const double* var0, const TurnChoices* choices,
                            int count, double* var_start, double* mean_start) {
  static_assert(kTurnBatch == 4, "Lanes initialisers assume 4 lanes");
  const DiceSpace& space = DiceSpace::Get();
  // Keeps are numbered by size: those of five dice, whose outcomes are
  // rolls, come last below six.
  static const int first_of_five = [&] {
    int k = 0;
    while (space.keep(k).size() < kDice - 1) ++k;
    return k;
  }();
  const Lanes* const m0 = reinterpret_cast<const Lanes*>(mean0);
  const Lanes* const v0 = reinterpret_cast<const Lanes*>(var0);
  // Every keep's mean and variance, the rolls' (six dice kept: stopping)
  // those of the final roll; and the rolls' before the current reroll,
  // m_roll and v_roll (m0 and v0 before the first). 59 KB per batch.
  alignas(64) Lanes mean[kNumKeeps], var[kNumKeeps], m_roll[kNumRolls], v_roll[kNumRolls];
  std::copy(m0, m0 + kNumRolls, mean + kNumKeepsBelowSix);
  std::copy(v0, v0 + kNumRolls, var + kNumKeepsBelowSix);
  const Lanes* rolls_mean = m0;
  const Lanes* rolls_var = v0;
  for (int n = 1; n <= kRerolls; ++n) {
    for (int k = kNumKeepsBelowSix - 1; k >= first_of_five; --k)
      SpreadOfKeep(space, k, kNumKeepsBelowSix, rolls_mean, rolls_var, mean[k], var[k]);
    for (int k = first_of_five - 1; k >= 0; --k)
      SpreadOfKeep(space, k, 0, mean, var, mean[k], var[k]);
    // Through each roll's decision: its chosen keep's, or stopping the
    // final roll's.
    for (int r = 0; r < kNumRolls; ++r)
      for (int j = 0; j < kTurnBatch; ++j) {
        const int k = choices[j < count ? j : 0].keep[n - 1][r];  // idle lanes repeat lane 0
        m_roll[r][j] = mean[k][j];
        v_roll[r][j] = var[k][j];
      }
    rolls_mean = m_roll;
    rolls_var = v_roll;
  }
  Lanes start = Lanes{};
  for (int r = 0; r < kNumRolls; ++r) start += space.RollProbability(r) * m_roll[r];
  Lanes v = Lanes{};
  for (int r = 0; r < kNumRolls; ++r) {
    const Lanes d = m_roll[r] - start;
    v += space.RollProbability(r) * (v_roll[r] + d * d);
  }
  for (int j = 0; j < count; ++j) {
    var_start[j] = v[j];
    if (mean_start) mean_start[j] = start[j];
  }
}

SpreadTable BuildSpreadTable(const SolitaireTable& values, const BuildProgress& progress) {
  const uint32_t blocked_rows = values.blocked_rows();
  std::vector<std::vector<int32_t>> layers(kRows * kColumns + 1);
  int64_t total = 0;
  const PositionIndex& index = values.index();
  for (int64_t i = 0; i < index.size(); ++i) {
    const ColumnCodes codes = index.CodesOf(i);
    const int f = FreeCellCount(codes, blocked_rows);
    if (f <= values.max_free()) {
      layers[f].push_back(static_cast<int32_t>(i));
      ++total;
    }
  }
  const bool target = values.objective().is_target();
  SpreadTable table(values.rules(), values.max_free(), blocked_rows,
                    std::vector<double>(index.size(), std::nan("")), values.objective(),
                    target ? std::vector<double>(index.size(), std::nan(""))
                           : std::vector<double>{});
  std::vector<double>& v = const_cast<std::vector<double>&>(table.variances());
  std::vector<double>& m = const_cast<std::vector<double>&>(table.means());
  int64_t done = 0;
  // Layers by free cells: every successor has fewer, so is solved before.
  for (const std::vector<int32_t>& layer : layers) {
#pragma omp parallel
    {
      auto worker = std::make_unique<SpreadWorker>(values);
#pragma omp for schedule(dynamic, 16)
      for (size_t i = 0; i < layer.size(); i += kTurnBatch) {
        const int n = static_cast<int>(std::min<size_t>(kTurnBatch, layer.size() - i));
        ColumnCodes codes[kTurnBatch];
        double out[kTurnBatch], mean[kTurnBatch];
        for (int j = 0; j < n; ++j) codes[j] = index.CodesOf(layer[i + j]);
        worker->Variances(table, codes, n, out, target ? mean : nullptr);
        for (int j = 0; j < n; ++j) v[layer[i + j]] = out[j];
        if (target)
          for (int j = 0; j < n; ++j) m[layer[i + j]] = mean[j];
        if (progress && omp_get_thread_num() == 0 && (i & 4095) == 0) progress(done + i, total);
      }
    }
    done += layer.size();
    if (progress) progress(done, total);
  }
  return table;
}

absl::StatusOr<double> SheetVariance(const SolitaireTable& values, const SpreadTable& spreads,
                                     const Sheet& sheet) {
  if (absl::Status s = CheckPair(values, spreads); !s.ok()) return s;
  absl::StatusOr<double> v = values.Value(sheet);  // validates the sheet and the depth
  if (!v.ok()) return v.status();
  if (sheet.ClosedColumns() >= 2) return 0.0;  // R5.2: over, the score is known
  auto worker = std::make_unique<SpreadWorker>(values);
  return worker->Variance(spreads, CodesInPlace(sheet));
}

absl::StatusOr<double> SheetMean(const SolitaireTable& values, const SpreadTable& spreads,
                                 const Sheet& sheet) {
  if (absl::Status s = CheckPair(values, spreads); !s.ok()) return s;
  absl::StatusOr<double> v = values.Value(sheet);
  if (!v.ok()) return v.status();
  if (!values.objective().is_target()) return *v;
  if (sheet.ClosedColumns() >= 2) return static_cast<double>(Score(sheet, values.rules()));  // R6
  auto worker = std::make_unique<SpreadWorker>(values);
  double mean = 0;
  worker->Variance(spreads, CodesInPlace(sheet), &mean);
  return mean;
}

absl::Status SpreadCoversSheet(const Sheet& sheet) {
  if (sheet.ClosedColumns() < 2) return absl::OkStatus();
  return absl::FailedPreconditionError(
      absl::StrCat("sheet ", FormatSheet(sheet),
                   " has two closed columns: spread tables cover live positions only, so its "
                   "last turn has no sd"));
}

namespace {

// What RankedMoments and RankWithMoments check before the turn is solved.
absl::Status CheckMomentsAsked(const SolitaireTable& values, const SpreadTable& spreads,
                               const Sheet& sheet, const Dice& roll, int rerolls) {
  if (absl::Status s = CheckPair(values, spreads); !s.ok()) return s;
  absl::StatusOr<double> v = values.Value(sheet);
  if (!v.ok()) return v.status();
  if (sheet.ClosedColumns() >= 2)
    return absl::FailedPreconditionError(absl::StrCat(
        "sheet ", FormatSheet(sheet), " has two closed columns: the game is over (R5.2)"));
  if (rerolls < 0 || rerolls > kRerolls || roll.size() != kDice)
    return absl::InvalidArgumentError("a roll of six dice and 0, 1 or 2 rerolls left expected");
  return absl::OkStatus();
}

// The moments after each of `ranked` with no reroll left: the markings'
// successors looked up.
std::vector<ActionMoments> MarkingMoments(const SolitaireTable& values, const SpreadTable& spreads,
                                          const Sheet& sheet,
                                          const std::vector<RankedAction>& ranked) {
  const bool target = values.objective().is_target();
  const ColumnCodes codes = CodesInPlace(sheet);
  std::vector<ActionMoments> out;
  for (const RankedAction& a : ranked) {
    const ColumnCodes after = a.action.kind == Action::kFail
                                  ? CodesAfterFailure(codes, a.action.face)
                                  : CodesAfterMarking(codes, a.action.cells, values.blocked_rows());
    out.push_back({target ? spreads.MeanOfCodes(after) : a.value,
                   std::sqrt(spreads.VarianceOfCodes(after))});
  }
  return out;
}

// The moments after each of `ranked` (keeps) from the worker's decided turn.
std::vector<ActionMoments> KeepMoments(const SpreadWorker& worker, const SolitaireTable& values,
                                       const Dice& roll, int rerolls,
                                       const std::vector<RankedAction>& ranked) {
  const bool target = values.objective().is_target();
  const TurnValues& means = worker.Means();
  const DiceSpace& space = DiceSpace::Get();
  const int r = space.RollIndex(roll);
  std::vector<ActionMoments> out;
  for (const RankedAction& a : ranked) {
    const int k = space.KeepIndex(a.action.keep);
    const bool stop = k >= kNumKeepsBelowSix;
    out.push_back({target ? (stop ? means.roll[0][r] : means.keep[rerolls - 1][k]) : a.value,
                   std::sqrt(stop ? worker.spread.var_roll[0][r]
                                  : worker.spread.var_keep[rerolls - 1][k])});
  }
  return out;
}

}  // namespace

absl::StatusOr<std::vector<ActionMoments>> RankedMoments(const SolitaireTable& values,
                                                         const SpreadTable& spreads,
                                                         const Sheet& sheet, const Dice& roll,
                                                         int rerolls,
                                                         const std::vector<RankedAction>& ranked) {
  if (absl::Status s = CheckMomentsAsked(values, spreads, sheet, roll, rerolls); !s.ok()) return s;
  if (rerolls == 0) return MarkingMoments(values, spreads, sheet, ranked);
  auto worker = std::make_unique<SpreadWorker>(values);
  worker->Variance(spreads, CodesInPlace(sheet));
  return KeepMoments(*worker, values, roll, rerolls, ranked);
}

absl::StatusOr<RankedWithMoments> RankWithMoments(const SolitaireTable& values,
                                                  const SpreadTable& spreads, const Sheet& sheet,
                                                  const Dice& roll, int rerolls) {
  if (absl::Status s = CheckMomentsAsked(values, spreads, sheet, roll, rerolls); !s.ok()) return s;
  RankedWithMoments out;
  if (rerolls == 0) {
    absl::StatusOr<std::vector<RankedAction>> ranked = RankActions(values, sheet, roll, 0);
    if (!ranked.ok()) return ranked.status();
    out.ranked = *std::move(ranked);
    out.moments = MarkingMoments(values, spreads, sheet, out.ranked);
    return out;
  }
  // The spread's decided turn holds the table's values of every keep, the
  // same numbers as RankActions' own solve of the turn (the final rolls'
  // maxima of the same lookups, then the same SolveTurn): ranked from it.
  auto worker = std::make_unique<SpreadWorker>(values);
  worker->Variance(spreads, CodesInPlace(sheet));
  out.ranked = RankActions(worker->turn, values, sheet, roll, rerolls);
  out.moments = KeepMoments(*worker, values, roll, rerolls, out.ranked);
  return out;
}

absl::StatusOr<std::vector<double>> ActionSds(const SolitaireTable& values,
                                              const SpreadTable& spreads, const Sheet& sheet,
                                              const Dice& roll, int rerolls,
                                              const std::vector<RankedAction>& ranked) {
  absl::StatusOr<std::vector<ActionMoments>> m =
      RankedMoments(values, spreads, sheet, roll, rerolls, ranked);
  if (!m.ok()) return m.status();
  std::vector<double> out;
  for (const ActionMoments& a : *m) out.push_back(a.sd);
  return out;
}

}  // namespace penk
