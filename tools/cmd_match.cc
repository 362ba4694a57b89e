// `penk match`: a duplicate match between AI players (issue 11, ai/match.h).
//
//   penk match A B [C D] --games N [--sprt elo0=E0,elo1=E1[,alpha=a,beta=b]]
//              [--seed S] [--threads T] [--net P=FILE ...] [--json] [--rules ...]
//
// Each deal is played once per seat rotation with the same dice per seat
// position. Per player: win share (k tied winners: 1/k each) with its 95% interval from the
// deals, mean score; with two players the Elo difference (logistic) with its
// interval and the pentanomial counts of deal scores; with --sprt the LLR
// against its bounds, stopping at H0 or H1. Progress goes to stderr.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "ai/ai_players.h"
#include "ai/bot.h"
#include "ai/match.h"
#include "ai/neural_features.h"
#include "ai/neural_net.h"
#include "engine/quoted_input.h"
#include "solver/table_cache.h"
#include "nlohmann/json.hpp"
#include "ai/player_list.h"
#include "tables/progress_line.h"
#include "tools/cli_common.h"

namespace penk::cli {
namespace {

struct MatchArgs {
  std::vector<std::string> players, nets;
  std::string sprt, rules;
  int64_t games = 1000;
  uint64_t seed = 1;
  int threads = 1;
  bool json = false;
  size_t table_cache_mb = TableCache::kDefaultCapMegabytes;
};

// "elo0=0,elo1=5[,alpha=0.05,beta=0.05]".
SprtBounds ParseSprt(const std::string& text) {
  SprtBounds b;
  bool has0 = false, has1 = false;
  for (absl::string_view part : absl::StrSplit(text, ',')) {
    std::vector<absl::string_view> kv = absl::StrSplit(part, absl::MaxSplits('=', 1));
    double x;
    const std::string key = absl::AsciiStrToLower(absl::StripAsciiWhitespace(kv[0]));
    if (kv.size() != 2 || !absl::SimpleAtod(absl::StripAsciiWhitespace(kv[1]), &x) ||
        !std::isfinite(x))
      throw UsageError{absl::StrCat("--sprt takes elo0=E0,elo1=E1[,alpha=A,beta=B] with numbers; got ",
                                    QuotedInput(text))};
    if (key == "elo0") b.elo0 = x, has0 = true;
    else if (key == "elo1") b.elo1 = x, has1 = true;
    else if (key == "alpha") b.alpha = x;
    else if (key == "beta") b.beta = x;
    else
      throw UsageError{absl::StrCat("--sprt: unknown key ", QuotedInput(key),
                                    "; keys: elo0, elo1, alpha, beta")};
  }
  if (!has0 || !has1) throw UsageError{"--sprt needs both elo0 and elo1, e.g. elo0=0,elo1=10"};
  return b;
}

// JSON has no infinity: an Elo beyond every finite one (a 100% score) is
// written as +-10000.
double JsonElo(double e) { return std::isfinite(e) ? e : (e > 0 ? 10000 : -10000); }

const char* SprtName(SprtResult r) {
  return r == SprtResult::kH0 ? "H0" : r == SprtResult::kH1 ? "H1" : "null";
}

void RunMatchCommand(const MatchArgs& a) {
  MatchOptions o;
  absl::StatusOr<std::vector<std::string>> players =
      ParsePlayerList(a.players, PlayerListBounds{.min_players = 2});
  if (!players.ok()) throw UsageError{absl::StrCat("players: ", players.status().message())};
  o.players = *std::move(players);
  if (a.games < 1 || a.games > kMaxMatchGames)
    throw UsageError{absl::StrCat("--games must be 1..", kMaxMatchGames, "; got ", a.games)};
  if (a.threads < 1 || a.threads > kMaxMatchThreads)
    throw UsageError{absl::StrCat("--threads must be 1..", kMaxMatchThreads, "; got ", a.threads)};
  if (!a.sprt.empty()) {
    if (o.players.size() != 2) throw UsageError{"--sprt compares two players; give exactly two"};
    o.sprt = ParseSprt(a.sprt);
  }
  o.games = a.games;
  o.seed = a.seed;
  o.threads = a.threads;
  o.rules = OrFail(ParseRules(a.rules));
  o.tables = CommandTableCache(a.table_cache_mb);
  // "--net P=FILE": player P (1-based, in the list's order) evaluates with
  // FILE; its name in the report says which file.
  std::vector<std::string> net_files(o.players.size());
  for (const std::string& spec : a.nets) {
    std::vector<std::string> kv = absl::StrSplit(spec, absl::MaxSplits('=', 1));
    int p = 0;
    if (kv.size() != 2 || !absl::SimpleAtoi(kv[0], &p) || p < 1 ||
        p > static_cast<int>(o.players.size()) || kv[1].empty())
      throw UsageError{absl::StrCat("--net takes P=FILE, P a player's place in the list (1..",
                                    o.players.size(), "); got ", QuotedInput(spec))};
    if (!net_files[p - 1].empty())
      throw UsageError{absl::StrCat("--net: player ", p, " is given two nets")};
    net_files[p - 1] = kv[1];
    o.nets.resize(o.players.size());
    o.nets[p - 1] = std::make_shared<const NeuralNet>(
        OrFail(NeuralNet::Load(kv[1], kReadableNetInputs)));
  }
  for (const std::string& name : o.players)  // load the first table before the clock starts
    if (BotNeedsTables(name)) {
      OrFail(o.tables->Get(TableKey{o.rules, 0, "", {}}).status());
      break;
    }
  const auto start = std::chrono::steady_clock::now();
  ProgressLine progress("", "deals");
  o.progress = [&](int64_t deals, int64_t total, double llr) {
    progress.Update(deals, total,
                    o.sprt ? absl::StrFormat("  LLR %.3f [%.3f, %.3f]", llr, o.sprt->lower(),
                                             o.sprt->upper())
                           : "");
  };
  MatchResult r = OrFail(RunMatch(o));
  for (size_t p = 0; p < r.players.size(); ++p)
    if (!net_files[p].empty()) r.players[p].name += absl::StrCat(" [", net_files[p], "]");
  // An SPRT may stop before the last deal: the line is ended here.
  progress.Update(r.deals, r.deals);
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const bool two = r.players.size() == 2;
  if (a.json) {
    // seed and rules make the record reproducible (`penk data ladder` reads it).
    std::string s = absl::StrFormat(R"({"games":%d,"deals":%d,"seed":%d,"rules":%s,"players":[)",
                                    r.games, r.deals, a.seed,
                                    nlohmann::json(FormatRules(o.rules)).dump());
    for (size_t i = 0; i < r.players.size(); ++i) {
      const MatchPlayer& p = r.players[i];
      absl::StrAppendFormat(&s,
                            R"(%s{"name":%s,"win_rate":%.6f,"win_ci95":[%.6f,%.6f],"mean_score":%.4f})",
                            i ? "," : "", nlohmann::json(p.name).dump(), p.win_rate, p.win_ci_low,
                            p.win_ci_high, p.mean_score);
    }
    s += "]";
    if (two) {
      absl::StrAppendFormat(&s, R"(,"elo":%.2f,"elo_ci95":[%.2f,%.2f],"pentanomial":[%d,%d,%d,%d,%d])",
                            JsonElo(r.elo.elo), JsonElo(r.elo.elo_low), JsonElo(r.elo.elo_high),
                            r.pentanomial[0], r.pentanomial[1], r.pentanomial[2],
                            r.pentanomial[3], r.pentanomial[4]);
    }
    if (o.sprt)
      absl::StrAppendFormat(&s, R"(,"sprt":{"elo0":%g,"elo1":%g,"llr":%.4f,"lower":%.4f,"upper":%.4f,"result":%s})",
                            o.sprt->elo0, o.sprt->elo1, r.llr, o.sprt->lower(), o.sprt->upper(),
                            r.sprt == SprtResult::kContinue ? "null"
                                                           : absl::StrCat("\"", SprtName(r.sprt), "\""));
    std::printf("%s}\n", s.c_str());
    return;
  }
  std::printf("%s in %s (duplicate: same dice per seat, seats rotated), seed %llu, rules %s, %s, "
              "%.1f s\n",
              Plural(r.games, "game", "games").c_str(), Plural(r.deals, "deal", "deals").c_str(),
              static_cast<unsigned long long>(a.seed), FormatRules(o.rules).c_str(),
              Plural(a.threads, "thread", "threads").c_str(), secs);
  std::printf("%-24s %8s %19s %10s\n", "player", "win", "95% CI", "score");
  for (const MatchPlayer& p : r.players)
    std::printf("%-24s %7.2f%% [%6.2f%%, %6.2f%%] %10.3f\n", p.name.c_str(), 100 * p.win_rate,
                100 * p.win_ci_low, 100 * p.win_ci_high, p.mean_score);
  if (two) {
    std::printf("Elo of %s over %s: %+.1f [%+.1f, %+.1f] (logistic, 95%%)\n",
                r.players[0].name.c_str(), r.players[1].name.c_str(), r.elo.elo, r.elo.elo_low,
                r.elo.elo_high);
    std::printf("deal scores 0, 0.5, 1, 1.5, 2 (pentanomial): %lld %lld %lld %lld %lld\n",
                static_cast<long long>(r.pentanomial[0]), static_cast<long long>(r.pentanomial[1]),
                static_cast<long long>(r.pentanomial[2]), static_cast<long long>(r.pentanomial[3]),
                static_cast<long long>(r.pentanomial[4]));
  }
  if (o.sprt)
    std::printf("SPRT elo0=%g elo1=%g alpha=%g beta=%g: LLR %.3f in [%.3f, %.3f]: %s\n",
                o.sprt->elo0, o.sprt->elo1, o.sprt->alpha, o.sprt->beta, r.llr, o.sprt->lower(),
                o.sprt->upper(),
                r.sprt == SprtResult::kH1   ? "H1 accepted"
                : r.sprt == SprtResult::kH0 ? "H0 accepted"
                                            : "no decision within --games");
}

}  // namespace

void RegisterMatch(CLI::App& app) {
  auto args = std::make_shared<MatchArgs>();
  CLI::App* m = app.add_subcommand(
      "match", "a duplicate match: every deal played once per seat rotation with the same dice");
  m->add_option("players", args->players,
                absl::StrCat("2-4 players from ", AllowedPlayerNames(false),
                             " (expert:key=value..., master:key=value... for measurements)"))
      ->required();
  m->add_option("--games", args->games,
                absl::StrCat("number of games, 1..", kMaxMatchGames,
                             ", rounded up to whole deals (memory does not grow with it)"))
      ->default_val(1000);
  m->add_option("--sprt", args->sprt,
                "two players: stop when the SPRT accepts H0 (Elo = elo0) or H1 (Elo = elo1), "
                "e.g. elo0=0,elo1=10 (alpha = beta = 0.05 unless given)");
  m->add_option("--seed", args->seed, "random seed (same seed: same result, any thread count)")
      ->default_val(1)
      ->check(SeedNotNegative());
  m->add_option("--threads", args->threads,
                absl::StrCat("OpenMP threads across deals, 1..", kMaxMatchThreads))
      ->default_val(1);
  m->add_option("--net", args->nets,
                "P=FILE: player P (1-based, in the list's order) evaluates with the net FILE "
                "instead of the built-in one (neural, master on neural); repeatable");
  m->add_flag("--json", args->json, "one JSON object instead of a table");
  AddRulesOption(m, &args->rules);
  AddTableCacheOption(m, &args->table_cache_mb);
  m->callback([args] { RunMatchCommand(*args); });
}

}  // namespace penk::cli
