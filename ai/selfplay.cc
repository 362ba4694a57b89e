#include "ai/selfplay.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>

#include "absl/strings/str_cat.h"
#include "ai/bot.h"
#include "ai/dice_stream.h"
#include "ai/neural_features.h"
#include "ai/parallel_block.h"
#include "ai/player.h"
#include "ai/simulate.h"
#include "engine/game.h"

namespace penk {
namespace {

constexpr int64_t kBlockGames = 64;

struct GameRows {
  std::vector<float> floats;  // rows of layout.count() + kSelfPlayTargets
};

void Put32(char* p, uint32_t x) { std::memcpy(p, &x, 4); }

absl::StatusOr<GameRows> PlayOne(const SelfPlayOptions& o, const FeatureLayout& layout,
                                 int64_t g) {
  const int features = layout.count(), row_floats = features + kSelfPlayTargets;
  const int n = o.players[g % o.players.size()];
  const Rules& rules = o.variants[(g / o.players.size()) % o.variants.size()];
  const uint64_t seed = GameSeed(o.seed, g);
  GameRows out;
  try {
    std::vector<std::unique_ptr<Player>> seats;
    for (int s = 0; s < n; ++s) {
      absl::StatusOr<std::unique_ptr<Player>> bot =
          MakeBot(o.player, rules, seed ^ (0x9e3779b97f4a7c15ULL * (s + 1)), o.tables, o.net);
      if (!bot.ok()) return bot.status();
      seats.push_back(*std::move(bot));
    }
    // The exploring opening (SelfPlayOptions::opening_rounds): its length
    // and each seat's player, from the game's seed alone.
    int opening = 0;
    std::vector<std::unique_ptr<Player>> openers;
    if (o.opening_rounds > 0) {
      const uint64_t draw = MixBits(seed ^ 0x6f70656e696e67ULL);
      opening = 1 + static_cast<int>(draw % static_cast<uint64_t>(o.opening_rounds));
      for (int s = 0; s < n; ++s) {
        const uint64_t pick = MixBits(draw + static_cast<uint64_t>(s) + 1);
        absl::StatusOr<std::unique_ptr<Player>> bot =
            MakeBot(o.opening_players[pick % o.opening_players.size()], rules,
                    pick ^ 0x5bd1e995ULL, o.tables, o.net);
        if (!bot.ok()) return bot.status();
        openers.push_back(*std::move(bot));
      }
    }
    absl::StatusOr<Game> created = Game::Create(n, rules, seed);
    if (!created.ok()) return created.status();
    Game game = *std::move(created);
    std::vector<int> movers;
    int last_seat = -1, last_turns = -1;
    while (!game.over()) {
      const int seat = game.current();
      // The last seat closes each round: round L begins once it has played L turns.
      const bool in_opening = game.turns(n - 1) < opening;
      if (in_opening) {
        if (absl::Status st = PlayDecision(game, *openers[seat]); !st.ok())
          return absl::InternalError(absl::StrCat("game ", g, ": ", st.message()));
        continue;
      }
      if (seat != last_seat || game.turns(seat) != last_turns) {  // a turn starts
        last_seat = seat;
        last_turns = game.turns(seat);
        const NeuralFeatures f = FeaturesOf(layout, NeuralPosition::OfGame(game, *o.tables));
        out.floats.insert(out.floats.end(), f.begin(), f.begin() + features);
        out.floats.resize(out.floats.size() + kSelfPlayTargets);
        movers.push_back(seat);
      }
      if (absl::Status st = PlayDecision(game, *seats[seat]); !st.ok())
        return absl::InternalError(absl::StrCat("game ", g, ": ", st.message()));
    }
    const Winners winners = GameWinners(game);  // R6.4
    for (size_t r = 0; r < movers.size(); ++r) {
      float* t = out.floats.data() + r * row_floats + features;
      for (int s = 0; s < n; ++s) {
        const int slot = SlotOf(s, movers[r], n);
        t[slot] = static_cast<float>(winners.Share(game, s));
        t[4 + slot] = static_cast<float>(game.Score(s));
      }
      t[8] = static_cast<float>(n);
      t[9] = static_cast<float>(g);
    }
  } catch (const std::exception& e) {  // TableUnavailable, out of memory
    return absl::InternalError(absl::StrCat("game ", g, ": ", e.what()));
  }
  return out;
}

}  // namespace

absl::StatusOr<SelfPlaySummary> WriteSelfPlay(const SelfPlayOptions& o, const std::string& path) {
  if (o.games < 1 || o.games > kMaxSelfPlayGames)
    return absl::InvalidArgumentError(
        absl::StrCat("self-play games must be 1..", kMaxSelfPlayGames, "; got ", o.games));
  if (o.threads < 1 || o.threads > kMaxSimulationThreads)
    return absl::InvalidArgumentError(
        absl::StrCat("threads must be 1..", kMaxSimulationThreads, "; got ", o.threads));
  if (o.players.empty() || o.variants.empty())
    return absl::InvalidArgumentError("self-play needs at least one player count and one variant");
  for (int n : o.players)
    if (n < 2 || n > kMaxPlayers)
      return absl::InvalidArgumentError(
          absl::StrCat("self-play games have 2 to 4 players (the net values opponents); got ", n));
  if (!o.tables) return absl::FailedPreconditionError("self-play needs a table cache");
  absl::StatusOr<FeatureLayout> layout = FeatureLayoutOf(o.layout);
  if (!layout.ok()) return layout.status();
  if (absl::StatusOr<std::unique_ptr<Player>> bot =
          MakeBot(o.player, o.variants.front(), 0, o.tables, o.net);
      !bot.ok())
    return bot.status();
  if (o.opening_rounds < 0 || o.opening_rounds > kMaxOpeningRounds)
    return absl::InvalidArgumentError(absl::StrCat("opening rounds must be 0..",
                                                   kMaxOpeningRounds, "; got ", o.opening_rounds));
  if (o.opening_rounds > 0 && o.opening_players.empty())
    return absl::InvalidArgumentError("an exploring opening needs at least one opening player");
  for (const std::string& name : o.opening_players)
    if (absl::StatusOr<std::unique_ptr<Player>> bot =
            MakeBot(name, o.variants.front(), 0, o.tables, o.net);
        !bot.ok())
      return absl::InvalidArgumentError(
          absl::StrCat("opening player: ", bot.status().message()));

  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (!file)
    return absl::InvalidArgumentError(
        absl::StrCat("cannot write ", path, ": ", std::strerror(errno)));
  char header[kSelfPlayHeaderBytes] = {};
  std::memcpy(header, "PENKSELF", 8);
  Put32(header + 8, kSelfPlayVersion);
  Put32(header + 12, layout->id);
  Put32(header + 16, layout->count());
  Put32(header + 20, layout->count() + kSelfPlayTargets);
  // rows (bytes 24..31) stay 0 until the end: a killed writer's file says so.
  bool io_ok = std::fwrite(header, 1, sizeof header, file) == sizeof header;
  SelfPlaySummary summary;
  for (int64_t first = 0; first < o.games && io_ok; first += kBlockGames) {
    const int64_t count = std::min(kBlockGames, o.games - first);
    std::vector<GameRows> block(count);
    if (absl::Status st = PlayBlock(o.threads, first, count, block,
                                    [&](int64_t g) { return PlayOne(o, *layout, g); });
        !st.ok()) {
      std::fclose(file);
      return st;
    }
    for (const GameRows& rows : block) {
      io_ok = io_ok && std::fwrite(rows.floats.data(), sizeof(float), rows.floats.size(), file) ==
                           rows.floats.size();
      summary.rows += static_cast<int64_t>(rows.floats.size() / (layout->count() + kSelfPlayTargets));
    }
    summary.games = first + count;
    if (o.progress) o.progress(summary.games, o.games);
  }
  const uint64_t rows = static_cast<uint64_t>(summary.rows);
  io_ok = io_ok && std::fseek(file, 24, SEEK_SET) == 0 && std::fwrite(&rows, 8, 1, file) == 1;
  io_ok = std::fclose(file) == 0 && io_ok;
  if (!io_ok)
    return absl::InternalError(absl::StrCat("writing ", path, " failed: ", std::strerror(errno)));
  return summary;
}

}  // namespace penk
