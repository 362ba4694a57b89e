#include "ai/sprt.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace penk {
namespace {

// Mean and variance of the per-game deal score x = (deal score) / 2, i.e.
// 0, 1/4, 1/2, 3/4, 1, over the counted deals; empty cells count `empty`.
void Moments(const Pentanomial& counts, double empty, double* n, double* mean, double* var) {
  double c[5], total = 0;
  for (int i = 0; i < 5; ++i) {
    c[i] = counts[i] > 0 ? static_cast<double>(counts[i]) : empty;
    total += c[i];
  }
  double m = 0;
  for (int i = 0; i < 5; ++i) m += c[i] * (i / 4.0);
  m /= total;
  double v = 0;
  for (int i = 0; i < 5; ++i) v += c[i] * (i / 4.0 - m) * (i / 4.0 - m);
  *n = total;
  *mean = m;
  *var = v / total;
}

}  // namespace

double EloOfScore(double s) {
  if (s <= 0) return -std::numeric_limits<double>::infinity();
  if (s >= 1) return std::numeric_limits<double>::infinity();
  return -400.0 * std::log10(1.0 / s - 1.0);
}

double ScoreOfElo(double elo) { return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0)); }

EloEstimate EloOfPentanomial(const Pentanomial& counts) {
  double n, m, v;
  Moments(counts, 0, &n, &m, &v);
  EloEstimate e;
  if (n <= 0) return e;
  const double half = kZ95 * std::sqrt(v / n);
  e.score = m;
  e.score_low = std::max(0.0, m - half);
  e.score_high = std::min(1.0, m + half);
  e.elo = EloOfScore(e.score);
  e.elo_low = EloOfScore(e.score_low);
  e.elo_high = EloOfScore(e.score_high);
  return e;
}

double SprtBounds::lower() const { return std::log(beta / (1 - alpha)); }
double SprtBounds::upper() const { return std::log((1 - beta) / alpha); }

namespace {

// The distribution closest to `p` (Kullback-Leibler) with mean per-game
// score `s`: p_i / (1 + lambda (x_i - s)), lambda the root of
// sum p_i (x_i - s) / (1 + lambda (x_i - s)) = 0, which decreases in lambda
// on the interval where every weight stays positive; found by bisection.
std::array<double, 5> ClosestWithMean(const std::array<double, 5>& p, double s) {
  double lo = -1 / (1 - s), hi = 1 / s;  // 1 + lambda (x - s) > 0 for x in [0, 1]
  for (int it = 0; it < 80; ++it) {  // 2^-80 of the interval: past double precision
    const double mid = (lo + hi) / 2;
    double f = 0;
    for (int i = 0; i < 5; ++i) f += p[i] * (i / 4.0 - s) / (1 + mid * (i / 4.0 - s));
    (f > 0 ? lo : hi) = mid;
  }
  const double lambda = (lo + hi) / 2;
  std::array<double, 5> q{};
  for (int i = 0; i < 5; ++i) q[i] = p[i] / (1 + lambda * (i / 4.0 - s));
  return q;
}

}  // namespace

double SprtLlr(const Pentanomial& counts, double elo0, double elo1) {
  // fishtest's regularisation: an empty cell counts 1e-3 deals.
  std::array<double, 5> p{};
  double n = 0;
  for (int i = 0; i < 5; ++i) n += p[i] = counts[i] > 0 ? static_cast<double>(counts[i]) : 1e-3;
  for (double& x : p) x /= n;
  const std::array<double, 5> p0 = ClosestWithMean(p, ScoreOfElo(elo0));
  const std::array<double, 5> p1 = ClosestWithMean(p, ScoreOfElo(elo1));
  double llr = 0;
  for (int i = 0; i < 5; ++i) llr += p[i] * std::log(p1[i] / p0[i]);
  return n * llr;
}

double SprtLlrNormal(const Pentanomial& counts, double elo0, double elo1) {
  double n, m, v;
  Moments(counts, 1e-3, &n, &m, &v);
  const double s0 = ScoreOfElo(elo0), s1 = ScoreOfElo(elo1);
  return n * (s1 - s0) * (2 * m - s0 - s1) / (2 * v);
}

SprtResult SprtDecision(const Pentanomial& counts, const SprtBounds& b) {
  const double llr = SprtLlr(counts, b.elo0, b.elo1);
  if (llr >= b.upper()) return SprtResult::kH1;
  if (llr <= b.lower()) return SprtResult::kH0;
  return SprtResult::kContinue;
}

}  // namespace penk
