// Statistics of paired matches (`penk match`), as fishtest measures engines:
// logistic Elo, pentanomial counts of deal scores, and the generalised SPRT.
//
// Elo model: logistic. A player scoring s per game (win 1, tie 1/2, loss 0,
// R6.4) is Elo(s) = -400 log10(1/s - 1) above its opponent, and Score(e) =
// 1 / (1 + 10^(-e/400)) is the inverse. (Not fishtest's "normalised" Elo,
// which divides by the per-game deviation: logistic Elo is the one a ladder of
// levels reads.)
//
// Pentanomial: a two-player deal is two games with the same dice, seats
// swapped (ai/match.h); its score for the first player is 0, 1/2, 1, 3/2 or
// 2, counted in five cells. The deal, not the game, is the independent
// sample: its variance is smaller than twice a game's because the dice luck
// of one game is returned in the other.
//
// SPRT: H0 "Elo = elo0" against H1 "Elo = elo1", fishtest's generalised
// SPRT on pentanomial counts (M. Van den Bergh, "A practical introduction to
// the GSPRT"): with p the observed frequencies of the five deal scores and,
// for i = 0, 1, p_i the distribution closest to p (Kullback-Leibler) whose
// mean per-game score is s_i = Score(elo_i),
//     LLR = N sum_j p(j) log(p_1(j) / p_0(j))     (N deals);
// H1 is accepted when LLR >= log((1 - beta) / alpha), H0 when
// LLR <= log(beta / (1 - alpha)). As fishtest does, an empty cell counts
// 1e-3 deals. For many deals it approaches the normal form
//     N (s1 - s0) (2 m - s0 - s1) / (2 v)
// (m the mean per-game score, v the per-deal variance of score / 2), kept
// as SprtLlrNormal; that form is not used to stop: with a few deals its
// variance estimate is near 0 and it would stop after one lucky deal.
#ifndef PENK_AI_SPRT_H_
#define PENK_AI_SPRT_H_

#include <array>
#include <cstdint>

namespace penk {

inline constexpr double kZ95 = 1.959963984540054;  // two-sided 95% normal quantile

// Logistic Elo of a per-game score s in (0, 1); +-infinity at 1 and 0.
double EloOfScore(double score);
// Per-game score of an Elo difference.
double ScoreOfElo(double elo);

// Counts of deal scores 0, 1/2, 1, 3/2, 2 (first player's side).
using Pentanomial = std::array<int64_t, 5>;

struct EloEstimate {
  double score = 0.5;           // mean per-game score
  double score_low = 0, score_high = 1;  // its 95% interval
  double elo = 0, elo_low = 0, elo_high = 0;  // the same in Elo (may be +-inf)
};
// Elo and its 95% interval from pentanomial counts (at least one deal).
EloEstimate EloOfPentanomial(const Pentanomial& counts);

enum class SprtResult { kContinue, kH0, kH1 };

struct SprtBounds {
  double elo0 = 0, elo1 = 5;
  double alpha = 0.05, beta = 0.05;
  double lower() const;  // log(beta / (1 - alpha))
  double upper() const;  // log((1 - beta) / alpha)
};

// The log-likelihood ratio of H1 against H0 after the deals counted.
double SprtLlr(const Pentanomial& counts, double elo0, double elo1);
// The normal approximation of SprtLlr (large N; not used to stop).
double SprtLlrNormal(const Pentanomial& counts, double elo0, double elo1);
// Where that ratio stands against the bounds.
SprtResult SprtDecision(const Pentanomial& counts, const SprtBounds& bounds);

}  // namespace penk

#endif  // PENK_AI_SPRT_H_
