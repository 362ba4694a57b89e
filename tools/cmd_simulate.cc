// `penk simulate`: a tournament between AI players (issue 4).
//
//   penk simulate --players expert,greedy --games 20000 [--seed S] [--threads T]
//                 [--json] [--rules ...]
//
// Seats rotate from game to game; per player: win rate (k tied winners have
// 1/k each, R6.4) with its 95% interval, mean and sd of the final score, mean number of
// turns. A progress bar goes to stderr. With one player it is solitaire.
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "ai/ai_players.h"
#include "engine/quoted_input.h"
#include "ai/bot.h"
#include "ai/simulate.h"
#include "solver/table_cache.h"
#include "tables/table_store.h"
#include "nlohmann/json.hpp"
#include "ai/player_list.h"
#include "tables/progress_line.h"
#include "tools/cli_common.h"

namespace penk::cli {

namespace {

struct SimulateArgs {
  std::string players, rules;
  int64_t games = 1000;
  uint64_t seed = 1;
  int threads = 1;
  bool json = false;
  size_t table_cache_mb = TableCache::kDefaultCapMegabytes;
};

void RunSimulate(const SimulateArgs& a) {
  SimulationOptions o;
  absl::StatusOr<std::vector<std::string>> players = ParsePlayerList(a.players, PlayerListBounds{});
  if (!players.ok()) throw UsageError{absl::StrCat("--players: ", players.status().message())};
  o.players = *std::move(players);
  if (o.players.size() > static_cast<size_t>(kMaxPlayers))
    throw UsageError{absl::StrCat("--players: a game has 1 to 4 players (R1.4); got ",
                                  o.players.size())};
  if (a.games < 1 || a.games > kMaxSimulatedGames)
    throw UsageError{absl::StrCat("--games must be 1..", kMaxSimulatedGames, "; got ", a.games)};
  if (a.threads < 1 || a.threads > kMaxSimulationThreads)
    throw UsageError{
        absl::StrCat("--threads must be 1..", kMaxSimulationThreads, "; got ", a.threads)};
  o.games = a.games;
  o.seed = a.seed;
  o.threads = a.threads;
  o.rules = OrFail(ParseRules(a.rules));
  o.tables = CommandTableCache(a.table_cache_mb);
  for (const std::string& name : o.players)  // load the first table before the clock starts
    if (BotNeedsTables(name)) {
      OrFail(o.tables->Get(TableKey{o.rules, 0, "", {}}).status());
      break;
    }
  const auto start = std::chrono::steady_clock::now();
  ProgressLine progress("", "games");
  o.progress = [&](int64_t done, int64_t total) { progress.Update(done, total); };
  SimulationResult r = OrFail(Simulate(o));
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (a.json) {
    std::string s = absl::StrFormat(R"({"games":%d,"players":[)", r.games);
    for (size_t i = 0; i < r.players.size(); ++i) {
      const PlayerResult& p = r.players[i];
      absl::StrAppendFormat(
          &s,
          R"(%s{"name":%s,"win_rate":%.6f,"win_ci95":[%.6f,%.6f],"mean_score":%.4f,"sd_score":%.4f,"mean_turns":%.4f})",
          i ? "," : "", nlohmann::json(p.name).dump(), p.win_rate, p.win_ci_low, p.win_ci_high,
          p.mean_score, p.sd_score, p.mean_turns);
    }
    std::printf("%s]}\n", s.c_str());
    return;
  }
  std::printf("%s, %s, seed %llu, rules %s, %s, %.1f s (%.2f ms/game)\n",
              Plural(r.games, "game", "games").c_str(),
              Plural(static_cast<long long>(r.players.size()), "player", "players").c_str(),
              static_cast<unsigned long long>(a.seed), FormatRules(o.rules).c_str(),
              Plural(a.threads, "thread", "threads").c_str(), secs, 1000 * secs / r.games);
  std::printf("%-24s %8s %19s %10s %8s %8s\n", "player", "win", "95% CI", "score", "sd", "turns");
  for (const PlayerResult& p : r.players)
    std::printf("%-24s %7.2f%% [%6.2f%%, %6.2f%%] %10.3f %8.3f %8.3f\n", p.name.c_str(),
                100 * p.win_rate, 100 * p.win_ci_low, 100 * p.win_ci_high, p.mean_score,
                p.sd_score, p.mean_turns);
  if (r.players.size() == 1)
    std::printf("solitaire: mean score %.3f +- %.3f (95%%)\n", r.players[0].mean_score,
                1.959963984540054 * r.players[0].sd_score / std::sqrt(static_cast<double>(r.games)));
}

}  // namespace

void RegisterSimulate(CLI::App& app) {
  auto args = std::make_shared<SimulateArgs>();
  CLI::App* sim = app.add_subcommand(
      "simulate", "a tournament: N seeded games between AI players, seats rotated");
  sim->add_option("--players", args->players,
                  absl::StrCat("1-4 comma-separated players from ", AllowedPlayerNames(false)))
      ->required();
  sim->add_option("--games", args->games,
                  absl::StrCat("number of games, 1..", kMaxSimulatedGames,
                               " (memory does not grow with it)"))
      ->default_val(1000);
  sim->add_option("--seed", args->seed, "random seed (same seed and threads: same result)")
      ->default_val(1)
      ->check(SeedNotNegative());
  sim->add_option("--threads", args->threads,
                  absl::StrCat("OpenMP threads across games, 1..", kMaxSimulationThreads))
      ->default_val(1);
  sim->add_flag("--json", args->json, "one JSON object instead of a table");
  AddRulesOption(sim, &args->rules);
  AddTableCacheOption(sim, &args->table_cache_mb);
  sim->callback([args] { RunSimulate(*args); });
}

}  // namespace penk::cli
