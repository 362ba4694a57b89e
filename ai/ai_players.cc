#include "ai/ai_players.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/dice_space.h"
#include "engine/marking.h"
#include "engine/quoted_input.h"
#include "engine/score.h"
#include "solver/score_spread.h"
#include "solver/table_cache.h"
#include "ai/name_options.h"
#include "ai/win_ranking.h"

namespace penk {
namespace {

// Tie-breakers added to win-probability leaves, far below any real difference
// of probability: prefer a higher final score, then a higher worth margin,
// then more circled cells. Markings often tie on the rest (a cell that scores
// nothing yet); ranked among them by the solitaire value (the ranking rule,
// ai/win_ranking.h) expert won 53.0% against greedy, by circling more
// cells 64.9% (5,000 games each, docs/AI.md). A turn circles at most 3
// cells, so the last term never outweighs a point of final score.
constexpr double kFinalScoreTieBreak = 1e-9;
constexpr double kMarginTieBreak = 1e-7;
constexpr double kCircledTieBreak = 1e-10;

// Standard normal distribution function.
double Phi(double x) { return 0.5 * std::erfc(-x * M_SQRT1_2); }

uint32_t LineCells(uint32_t rows, uint32_t columns) {
  uint32_t cells = 0;
  for (int i = 1; i <= 5; ++i) {
    if (rows >> (i - 1) & 1) cells |= RowMask(i);
    if (columns >> (i - 1) & 1) cells |= ColumnMask(i);
  }
  return cells;
}

}  // namespace

// ---------------------------------------------------------------------------
// optimal

OptimalPlayer::OptimalPlayer(std::shared_ptr<TableCache> tables)
    : tables_(std::move(tables)), turn_(std::make_unique<TurnValues>()) {}

double OptimalPlayer::MarkValue(uint32_t cells) const {
  const ColumnCodes next = CodesAfterMarking(codes_, cells, table_->blocked_rows());
  return ValueOrThrow(*table_, next);  // a partial table's gap: TableUnavailable
}

double OptimalPlayer::FailValue(int face) const {
  return ValueOrThrow(*table_, CodesAfterFailure(codes_, face));  // R3.5
}

void OptimalPlayer::Solve(const Sheet& sheet, const Rules& rules) {
  if (solved_ && sheet_ == sheet && rules_ == rules) return;
  absl::StatusOr<SolitairePosition> position = PositionOfSheet(sheet);
  // Every sheet of a game is a position (R3.5, R4.2); anything else is valued
  // as if no row were blocked.
  solved_ = false;  // stays false if the table cannot be had (TableUnavailable)
  table_ = tables_->GetOrThrow(rules, position.ok() ? position->blocked_rows : 0);
  codes_ = CodesInPlace(sheet);
  sheet_ = sheet;
  rules_ = rules;
  FinalRollValues(
      sheet, [&](uint32_t cells) { return MarkValue(cells); },
      [&](int face) { return FailValue(face); }, turn_->roll[0].data());
  SolveTurn(*turn_);
  solved_ = true;
}

double OptimalPlayer::StartValue(const Sheet& sheet, const Rules& rules) {
  Solve(sheet, rules);
  return turn_->start;
}

double OptimalPlayer::ValueAfter(const Sheet& sheet, const Rules& rules, uint32_t cells,
                                 int face) {
  Solve(sheet, rules);
  return cells ? MarkValue(cells) : FailValue(face);
}

Action OptimalPlayer::Decide(const Game& game) {
  const Sheet& sheet = game.sheet(game.current());
  Solve(sheet, game.rules());
  if (game.phase() == Phase::kKeep)
    return Action::Keep(DiceSpace::Get().keep(
        turn_->BestKeep(game.rerolls_left(), DiceSpace::Get().RollIndex(game.dice()))));
  const std::vector<uint32_t> markings = LegalMarkings(sheet, game.dice());
  if (!markings.empty()) {
    uint32_t best = markings.front();
    double best_value = MarkValue(best);
    for (uint32_t cells : markings)
      if (double v = MarkValue(cells); v > best_value) best = cells, best_value = v;
    return Action::Mark(best);
  }
  int best = 0;
  double best_value = 0;
  for (int v : FailureColumns(sheet))  // R3.5
    if (double x = FailValue(v); best == 0 || x > best_value) best = v, best_value = x;
  return Action::Fail(best);
}

// ---------------------------------------------------------------------------
// expert

namespace {

absl::StatusOr<ExpertParams> ParseTurnSearchName(absl::string_view name, absl::string_view kind,
                                                 ExpertParams p) {
  absl::StatusOr<std::vector<std::pair<std::string, double>>> options =
      ParseNameOptions(name, kind);
  if (!options.ok()) return options.status();
  for (const auto& [key, x] : *options) {
    if (key == "lambda") p.lambda = x;
    else if (key == "sigma" && x > 0) p.sigma = x;
    else if (key == "horizon") p.horizon = x;
    else if (key == "lopp") p.lambda_opp = x;
    else if (key == "relative") p.relative = x != 0;
    else if (key == "opp") p.opponents = x != 0;
    else if (key == "final") p.exact_final = x != 0;
    else if (key == "race") p.race = x != 0;
    else
      return absl::InvalidArgumentError(absl::StrCat(
          "unknown ", kind, " option ", QuotedInput(absl::StrCat(key, "=", x)),
          "; known: lambda, lopp, relative, sigma (>0), horizon, opp, final, race"));
  }
  return p;
}

}  // namespace

absl::StatusOr<ExpertParams> ParseExpertName(absl::string_view name) {
  return ParseTurnSearchName(name, "expert", ExpertParams{});
}

absl::StatusOr<ExpertParams> ParseNeuralName(absl::string_view name) {
  ExpertParams p;
  // The net sees the opponents' sheets itself: no hand-made denial term, so
  // their solitaire values are not looked up for it.
  p.lambda_opp = 0;
  return ParseTurnSearchName(name, "neural", p);
}

double ShareAgainstFinalTurn(const Sheet& sheet, int threshold, const Rules& rules,
                             TurnValues& turn) {
  const int base = Score(sheet, rules);
  auto beat = [threshold](int score) {  // R6.4: a tie shares the win
    return score > threshold ? 1.0 : score == threshold ? 0.5 : 0.0;
  };
  if (sheet.free() == 0) return 1 - beat(base);  // R3.6: no turn to play
  FinalRollValues(
      sheet,
      [&](uint32_t cells) {
        Sheet after = sheet;
        after.circled |= cells;
        return beat(Score(after, rules));
      },
      [&](int) { return beat(base); },  // R3.5: a failure scores nothing
      turn.roll[0].data());
  SolveTurn(turn);
  return 1 - turn.start;
}

ExpertPlayer::ExpertPlayer(std::shared_ptr<TableCache> tables, const ExpertParams& params,
                           std::string name, std::shared_ptr<const NeuralNet> net)
    : tables_(tables),
      params_(params),
      name_(std::move(name)),
      turn_(std::make_unique<TurnValues>()),
      scratch_turn_(std::make_unique<TurnValues>()),
      effects_(1024),
      solitaire_(std::move(tables)),
      net_(std::move(net)) {
  if (net_) {
    // NetFor refuses a net of a layout this program cannot compute.
    absl::StatusOr<FeatureLayout> layout = FeatureLayoutOf(net_->layout());
    if (!layout.ok() || layout->count() != net_->inputs())
      throw std::invalid_argument(absl::StrCat("expert: a net of ", net_->inputs(),
                                               " inputs, feature layout ", net_->layout()));
    layout_ = *layout;
  }
}

double ExpertPlayer::Worth(const Sheet& sheet) {  // an opponent's
  const double score = Score(sheet, key_.rules);
  const double lambda = params_.lambda_opp < 0 ? params_.lambda : params_.lambda_opp;
  if (lambda == 0) return score;
  return score + lambda * (SolitaireValueOfSheet(*tables_, sheet, key_.rules) - score);
}

const ExpertPlayer::LinesEffect& ExpertPlayer::Effect(uint32_t rows, uint32_t columns) {
  LinesEffect& e = effects_[rows | columns << 5];
  if (e.known) return e;
  const uint32_t lines = LineCells(rows, columns);
  e.ends = false;
  for (int q = 0; q < key_.players; ++q) {
    Sheet s = key_.sheets[q];
    if (q != key_.me) {
      s.crossed |= s.free() & lines;  // R4.2
      e.ends = e.ends || s.ClosedColumns() >= 2;  // R5.2
      e.worth[q] = Worth(params_.opponents ? s : key_.sheets[q]) - potential_now_[q];
    }
    e.sheets[q] = s;
  }
  e.net_delta.clear();
  if (net_) {
    for (int q = 0; q < key_.players; ++q) {
      if (q == key_.me || e.sheets[q] == key_.sheets[q]) continue;
      const int at = SlotOf(q, next_mover_, key_.players) * layout_.slot_features;
      float slot[kMaxSlotFeatures];
      WriteSlotFeatures(layout_, e.sheets[q],
                        SolitaireValueOfSheet(*tables_, e.sheets[q], key_.rules), NextTurns(q),
                        key_.rules, slot);
      for (int i = 0; i < layout_.slot_features; ++i)
        if (slot[i] != base_[at + i]) e.net_delta.emplace_back(at + i, slot[i] - base_[at + i]);
    }
  }
  e.known = true;
  return e;
}

int ExpertPlayer::NextTurns(int seat) const {
  // In our turn of a round, the seats before ours have played one turn more
  // than we have (R5.2: a round goes in seat order); after it, we have too.
  return seat <= key_.me ? key_.turns + 1 : key_.turns;
}

void ExpertPlayer::PrepareNet() {
  NeuralPosition p;
  p.players = key_.players;
  next_mover_ = (key_.me + 1) % key_.players;
  p.mover = next_mover_;
  p.last_round = false;  // the net is asked only where the game goes on
  p.rules = key_.rules;
  for (int q = 0; q < key_.players; ++q) {
    p.sheets[q] = key_.sheets[q];
    p.turns[q] = NextTurns(q);
    p.values[q] = SolitaireValueOfSheet(*tables_, p.sheets[q], key_.rules);
  }
  base_ = FeaturesOf(layout_, p);
  net_->Begin(base_.data(), base_acc_);
}

NeuralOutput ExpertPlayer::NetLeaf(const Sheet& me, ColumnCodes next, const LinesEffect& effect) {
  leaf_acc_ = base_acc_;
  const int mine = SlotOf(key_.me, next_mover_, key_.players);
  const int at = mine * layout_.slot_features;
  float slot[kMaxSlotFeatures];
  // Live (two closed columns end the game and are valued exactly), so a full
  // table has a value.
  WriteSlotFeatures(layout_, me, ValueOrThrow(*my_table_, next), key_.turns + 1, key_.rules,
                    slot);
  for (int i = 0; i < layout_.slot_features; ++i)
    if (slot[i] != base_[at + i]) net_->Add(leaf_acc_, at + i, slot[i] - base_[at + i]);
  for (const auto& [i, delta] : effect.net_delta) net_->Add(leaf_acc_, i, delta);
  return net_->Finish(leaf_acc_, key_.players);
}

double ExpertPlayer::LeafScore(uint32_t cells, int face, bool net_score) {
  const uint32_t key = cells ? cells : kFailKey | static_cast<uint32_t>(face);
  auto it = leaf_figures_.find(key);
  if (it == leaf_figures_.end()) {
    Leaf(cells, face);
    it = leaf_figures_.find(key);
  }
  return net_score ? it->second.net_score : it->second.score;
}

void ExpertPlayer::SolveScores() {
  if (scores_solved_) return;
  const Sheet& mine = key_.sheets[key_.me];
  // Each final roll: the score of its best marking by win share, the first
  // in canonical order among equal shares (FinalRollValues' maximum).
  if (!score_turn_) score_turn_ = std::make_unique<TurnValues>();
  std::array<double, kNumRolls> best;
  best.fill(kIllegal);
  double* score0 = score_turn_->roll[0].data();
  const MarkingCatalog& catalog = MarkingCatalog::Get();
  ForEachMarking(catalog.Avoiding(~mine.free()), [&](int id) {
    const uint32_t cells = catalog.cells(id);
    const double w = Leaf(cells, 0);
    const double sc = LeafScore(cells, 0);
    for (uint16_t r : catalog.RollsOf(id))
      if (w > best[r]) best[r] = w, score0[r] = sc;
  });
  double fail_win = kIllegal, fail_score = 0;
  for (int v = 1; v <= kColumns; ++v)  // R3.5: the failure of the best share
    if (!mine.ColumnClosed(v))
      if (const double w = Leaf(0, v); w > fail_win) fail_win = w, fail_score = LeafScore(0, v);
  for (int r = 0; r < kNumRolls; ++r)
    if (best[r] == kIllegal) score0[r] = fail_score;
  TurnChoices choices;
  for (int n = 1; n <= kRerolls; ++n) BestKeeps(*turn_, n, choices.keep[n - 1].data());
  MeansOfTurn(choices, *score_turn_);
  scores_solved_ = true;
}

double ExpertPlayer::MarkScore(const ExpertView& view, uint32_t cells) {
  Prepare(view);
  return net_ ? LeafScore(cells, 0) : std::nan("");
}

double ExpertPlayer::FailScore(const ExpertView& view, int face) {
  Prepare(view);
  return net_ ? LeafScore(0, face) : std::nan("");
}

double ExpertPlayer::MarkNetScore(const ExpertView& view, uint32_t cells) {
  Prepare(view);
  return net_ ? LeafScore(cells, 0, true) : std::nan("");
}

double ExpertPlayer::FailNetScore(const ExpertView& view, int face) {
  Prepare(view);
  return net_ ? LeafScore(0, face, true) : std::nan("");
}

double ExpertPlayer::KeepScore(const ExpertView& view, const Dice& roll, int rerolls,
                               const Dice& keep) {
  Prepare(view);
  if (!net_) return std::nan("");
  SolveScores();
  const DiceSpace& space = DiceSpace::Get();
  return score_turn_->KeepValue(rerolls, space.RollIndex(roll), space.KeepIndex(keep));
}

double ExpertPlayer::BeatShare(const Sheet& sheet, int threshold) {
  const uint64_t key = (static_cast<uint64_t>(sheet.circled) << 33) |
                       (static_cast<uint64_t>(sheet.crossed) << 8) |
                       static_cast<uint64_t>(threshold & 0xff);
  auto it = beat_cache_.find(key);
  if (it != beat_cache_.end()) return it->second;
  if (beat_cache_.size() > 200000) beat_cache_.clear();
  const double share = ShareAgainstFinalTurn(sheet, threshold, key_.rules, *scratch_turn_);
  beat_cache_.emplace(key, share);
  return share;
}

double ExpertPlayer::FinalShare(int my_score, const LinesEffect& effect) {
  // R5.2: seats before ours have played their last turn; later seats play one
  // more. Each later seat is modelled alone, playing to beat our score (exact
  // with two players; with more, their PENKs on each other are ignored).
  // R6.4 as Winners::Share: with k winners each has 1/k. The scores of the
  // seats before ours are known, so their ties count exactly; each later
  // seat's share against our score (a tie half: exact when it is the one
  // other winner) multiplies in, as the model of independent opponents has it.
  double share = 1;
  int tied = 0;
  for (int q = 0; q < key_.players; ++q) {
    if (q == key_.me) continue;
    if (q < key_.me) {
      const int s = Score(effect.sheets[q], key_.rules);
      if (s > my_score) return 0;
      if (s == my_score) ++tied;
    } else {
      share *= BeatShare(effect.sheets[q], my_score);
    }
  }
  return share / (1 + tied);
}

double ExpertPlayer::Leaf(uint32_t cells, int face) {
  // With a net, each leaf of the solved turn is evaluated once: the hint's
  // ranking and expected scores read it again (FinalRollValues asks each
  // marking once).
  const uint32_t key = cells ? cells : kFailKey | static_cast<uint32_t>(face);
  if (net_)
    if (auto it = leaf_figures_.find(key); it != leaf_figures_.end()) return it->second.win;
  Sheet me = key_.sheets[key_.me];
  uint32_t rows = 0, columns = 0;
  ColumnCodes next = my_codes_;
  if (cells) {
    CompletedLines(me, cells, key_.rules, &rows, &columns);  // R4.1
    me.circled |= cells;
    next = CodesAfterMarking(next, cells, my_table_->blocked_rows());
  } else {
    me.crossed |= me.free() & ColumnMask(face);  // R3.5
    next = CodesAfterFailure(next, face);
  }
  const int score = Score(me, key_.rules);
  const LinesEffect& effect = Effect(rows, columns);
  // Do we play again? Not in the last round, nor when this turn starts it.
  const bool starts_last = me.ClosedColumns() >= 2 || effect.ends;
  if ((key_.last_round && params_.exact_final) || (!key_.last_round && starts_last && params_.race)) {
    const double win = FinalShare(score, effect) + kFinalScoreTieBreak * score +
                       kCircledTieBreak * std::popcount(me.circled);
    if (net_) leaf_figures_[key] = {win, static_cast<double>(score), std::nan("")};  // our final score (R5.2)
    return win;
  }
  if (net_ && key_.players > 1) {
    const NeuralOutput out = NetLeaf(me, next, effect);
    const int mine = SlotOf(key_.me, next_mover_, key_.players);
    const double win = out.win[mine] + kCircledTieBreak * std::popcount(me.circled);
    leaf_figures_[key] = {win, CalibratedScore(out.score[mine], key_.players, key_.turns, score_map_),
                          out.score[mine]};
    return win;
  }
  double worth = score;
  if (params_.lambda != 0 && me.ClosedColumns() < 2) {
    // Live (two closed columns are handled above), so a full table has a value.
    worth += params_.lambda * (ValueOrThrow(*my_table_, next) - score);
  }
  double estimate = 1, margin = 0;
  for (int q = 0; q < key_.players; ++q) {
    if (q == key_.me) continue;
    estimate *= Phi((worth - effect.worth[q]) / scale_);
    margin += worth - effect.worth[q];
  }
  return estimate + kMarginTieBreak * margin / (key_.players - 1) +
         kCircledTieBreak * std::popcount(me.circled);
}

ExpertView ExpertView::Of(const Game& game) {
  ExpertView key;
  key.players = game.players();
  key.me = game.current();
  key.last_round = game.last_round();
  key.turns = game.turns(game.current());
  key.rules = game.rules();
  for (int q = 0; q < game.players(); ++q) key.sheets[q] = game.sheet(q);
  return key;
}

void ExpertPlayer::Prepare(const ExpertView& key) {
  if (solved_ && key == key_) return;
  if (!(key.rules == key_.rules)) beat_cache_.clear();
  solved_ = false;  // stays false if a table cannot be had (TableUnavailable)
  key_ = key;
  const Sheet& mine = key_.sheets[key_.me];
  absl::StatusOr<SolitairePosition> position = PositionOfSheet(mine);
  my_table_ = tables_->GetOrThrow(key_.rules, position.ok() ? position->blocked_rows : 0);
  my_codes_ = CodesInPlace(mine);
  scale_ = params_.sigma * std::sqrt(std::max(1.0, params_.horizon - key_.turns));
  for (LinesEffect& e : effects_) e.known = false;
  leaf_figures_.clear();
  scores_solved_ = false;
  if (net_ && key_.players > 1) PrepareNet();
  for (int q = 0; q < key_.players; ++q)
    potential_now_[q] = params_.relative && q != key_.me
                            ? Worth(key_.sheets[q]) - Score(key_.sheets[q], key_.rules)
                            : 0;
  FinalRollValues(
      mine, [&](uint32_t cells) { return Leaf(cells, 0); },
      [&](int face) { return Leaf(0, face); }, turn_->roll[0].data());
  SolveTurn(*turn_);
  solved_ = true;
}

double ExpertPlayer::MarkValue(const ExpertView& view, uint32_t cells) {
  Prepare(view);
  return Leaf(cells, 0);
}

double ExpertPlayer::FailValue(const ExpertView& view, int face) {
  Prepare(view);
  return Leaf(0, face);
}

double ExpertPlayer::KeepValue(const ExpertView& view, const Dice& roll, int rerolls,
                               const Dice& keep) {
  Prepare(view);
  const DiceSpace& space = DiceSpace::Get();
  return turn_->KeepValue(rerolls, space.RollIndex(roll), space.KeepIndex(keep));
}

double ExpertPlayer::MarkValue(const Game& game, uint32_t cells) {
  return MarkValue(ExpertView::Of(game), cells);
}

double ExpertPlayer::FailValue(const Game& game, int face) {
  return FailValue(ExpertView::Of(game), face);
}

double ExpertPlayer::KeepValue(const Game& game, const Dice& keep) {
  return KeepValue(ExpertView::Of(game), game.dice(), game.rerolls_left(), keep);
}

Action ExpertPlayer::Decide(const Game& game) {
  if (game.players() == 1) return solitaire_.Decide(game);  // solitaire: own score is all
  return Ranked(game).front().action;
}

std::vector<WinRankedAction> ExpertPlayer::Ranked(const Game& game) {
  Prepare(ExpertView::Of(game));
  // The ranking rule with opponents (ai/win_ranking.h), as `penk hint
  // --opponent` ranks: the win estimate, and only among actions tied on it the
  // exact solitaire value, then fewer dice rerolled.
  const DiceSpace& space = DiceSpace::Get();
  const int r = space.RollIndex(game.dice());
  const int rerolls = game.phase() == Phase::kKeep ? game.rerolls_left() : 0;
  std::vector<WinRankedAction> actions;
  for (const Action& a : game.LegalActions()) {
    double win = 0;
    switch (a.kind) {
      case Action::kKeep: win = turn_->KeepValue(rerolls, r, space.KeepIndex(a.keep)); break;
      case Action::kMark: win = Leaf(a.cells, 0); break;
      case Action::kFail: win = Leaf(0, a.face); break;  // R3.5
    }
    actions.push_back({a, win, std::nan("")});
  }
  const size_t tied = SortByWin(actions);
  if (tied > 1) {
    const Sheet& sheet = game.sheet(game.current());
    absl::StatusOr<std::vector<RankedAction>> solitaire =
        RankActions(*my_table_, sheet, game.dice(), rerolls, FinishedSheet::kLastTurns);
    if (solitaire.ok())
      for (size_t i = 0; i < tied; ++i)
        for (const RankedAction& s : *solitaire)
          if (s.action == actions[i].action) actions[i].value = s.value;
    // Only the tied head needs the solitaire order; the rest stays by win.
    std::vector<WinRankedAction> head(actions.begin(), actions.begin() + tied);
    OrderByWinRule(head);
    std::copy(head.begin(), head.end(), actions.begin());
  }
  last_value_ = actions.front().win;
  return actions;
}

}  // namespace penk
