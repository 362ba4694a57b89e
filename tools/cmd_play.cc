// `penk play`: a whole game in the terminal, humans and built-in bots.
//
//   penk play --players human,bot [--seed N] [--rules ...] [--save FILE]
//   penk play --load FILE [--save FILE]
//
// Every turn shows whose turn it is, all sheets side by side, the scores, each
// roll and the rerolls left; bots print their decisions, humans are prompted
// on stdin (R7 notation). The seed is printed first so a game can be replayed;
// with only bots the whole output is a function of the seed and the rules.
// --save writes the game record (protocol/game_record_json.h) after every
// turn and on leaving; --load resumes the game of a record.
// Exit code: 0 after a finished game (or `q`), 1 on end of input, 2 on bad
// options.
#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "engine/game.h"
#include "engine/game_record.h"
#include "engine/marking.h"
#include "engine/quoted_input.h"
#include "engine/score.h"
#include "solver/advisor.h"
#include "ai/bot.h"
#include "solver/solitaire_state.h"
#include "solver/table_cache.h"
#include "ai/win_ranking.h"
#include "ai/name_options.h"
#include "ai/player_list.h"
#include "nlohmann/json.hpp"
#include "protocol/errors.h"
#include "protocol/game_record_json.h"
#include "protocol/hint.h"
#include "protocol/json_text.h"
#include "protocol/session.h"
#include "tools/cli_common.h"

namespace penk::cli {
namespace {

struct PlayArgs {
  std::string players, rules;
  std::string names;  // --names: one per seat, comma-separated (empty: none)
  uint64_t seed = 0;
  bool manual_dice = false;
  size_t table_cache_mb = TableCache::kDefaultCapMegabytes;
  std::string save, load;  // --save / --load: a game record file (empty: none)
};

// A record file is a few KB; a bigger one is not ours.
constexpr uintmax_t kMaxRecordFileBytes = 1 << 20;

// --save: the game record written to `path` through a temporary file
// beside it and a rename, so a crash or a quit mid-write leaves the last
// whole record, never half of one.
struct RecordSaver {
  std::string path;  // empty: --save not given
  const protocol::GameSession* game = nullptr;

  void operator()() const {
    if (path.empty() || !game) return;
    const std::string text = protocol::GameRecordJson(*game).dump() + "\n";
    WriteFileAtomically(path, text, "--save: ");
  }
};

struct Seat {
  std::string name;               // as given in --players (lower case)
  std::unique_ptr<Player> bot;    // null for a human
  std::string person;             // --names: who sits there (empty: none given)
};

// --names "Ann,Bob": one name per seat, in seat order, each 1..100
// printable characters without a comma; UsageError naming what is wrong.
std::vector<std::string> ParseNames(absl::string_view text, size_t seats) {
  std::vector<std::string> names;
  for (absl::string_view part : absl::StrSplit(text, ',')) {
    const std::string name(absl::StripAsciiWhitespace(part));
    if (name.empty() || name.size() > kMaxPlayerNameLength)
      throw UsageError{absl::StrCat("--names: each name is 1-", kMaxPlayerNameLength,
                                    " characters; got ", QuotedInput(text))};
    for (unsigned char ch : name)
      if (ch < 0x20 || ch == 0x7f)
        throw UsageError{absl::StrCat("--names: a name has a control character: ", QuotedInput(text))};
    names.push_back(name);
  }
  if (names.size() != seats)
    throw UsageError{absl::StrCat("--names: one name per player in --players (", seats,
                                  "); got ", names.size(), " in ", QuotedInput(text))};
  return names;
}

// "bot,human" -> validated, lower-case names; UsageError naming the bad entry.
std::vector<std::string> ParseSeatList(absl::string_view text) {
  absl::StatusOr<std::vector<std::string>> names =
      ParsePlayerList(text, PlayerListBounds{.allow_human = true});
  if (!names.ok()) throw UsageError{absl::StrCat("--players: ", names.status().message())};
  return *std::move(names);
}

std::string Label(const std::vector<Seat>& seats, int p) {
  if (!seats[p].person.empty()) return absl::StrCat(seats[p].person, " (", seats[p].name, ")");
  return absl::StrCat("player ", p + 1, " (", seats[p].name, ")");
}

// One sheet as a block of lines (R1.2): rows k = 1..5 with their points,
// columns = faces 1..5; '.' free, 'o' circled, 'x' crossed (R7.3).
std::vector<std::string> SheetBlock(const Game& game, const std::vector<Seat>& seats, int p) {
  std::vector<std::string> lines;
  const bool to_play = !game.over() && game.current() == p;
  lines.push_back(absl::StrCat("P", p + 1, " ", seats[p].person.empty() ? seats[p].name : seats[p].person,
                               to_play ? " (to play)" : ""));
  lines.push_back("k pts 1 2 3 4 5");
  const Sheet& s = game.sheet(p);
  for (int k = 1; k <= kRows; ++k) {
    std::string line = absl::StrFormat("%d %3d", k, kRowPoints[k - 1]);
    for (int v = 1; v <= kColumns; ++v) {
      const uint32_t bit = CellBit(v, k);
      line += ' ';
      line += (s.circled & bit) ? 'o' : (s.crossed & bit) ? 'x' : '.';
    }
    lines.push_back(line);
  }
  lines.push_back(absl::StrCat("score ", game.Score(p)));
  return lines;
}

void PrintSheets(const Game& game, const std::vector<Seat>& seats) {
  std::vector<std::vector<std::string>> blocks;
  for (int p = 0; p < game.players(); ++p) blocks.push_back(SheetBlock(game, seats, p));
  // Every block as wide as the widest, so the grids do not move between turns.
  size_t width = 0;
  for (const std::vector<std::string>& block : blocks)
    for (const std::string& l : block) width = std::max(width, l.size());
  for (size_t line = 0; line < blocks[0].size(); ++line) {
    std::string out;
    for (size_t b = 0; b < blocks.size(); ++b) {
      std::string cell = blocks[b][line];
      if (b + 1 < blocks.size()) cell.resize(width + 4, ' ');
      out += cell;
    }
    std::printf("%s\n", out.c_str());
  }
}

std::string RollLine(const Game& game, int roll_number) {
  std::string left = game.phase() == Phase::kKeep
                         ? Plural(game.rerolls_left(), "reroll left", "rerolls left")
                         : "final";
  return absl::StrFormat("roll %d: %s  (%s)", roll_number, FormatDice(game.dice()), left);
}

// Words joined and wrapped at ~78 columns, continuation lines indented.
std::string Wrap(const std::vector<std::string>& words, size_t indent) {
  std::string out, line;
  for (const std::string& w : words) {
    if (!line.empty() && indent + line.size() + 1 + w.size() > 78) {
      absl::StrAppend(&out, line, "\n", std::string(indent, ' '));
      line.clear();
    }
    if (!line.empty()) line += ' ';
    line += w;
  }
  return out + line;
}

// An example keep out of `roll`: its most frequent face 1-5 and its jollies.
std::string KeepExample(const Dice& roll) {
  int face = 0;
  for (int f = 1; f < kNumberFaces; ++f)
    if (roll.count[f] > roll.count[face]) face = f;
  Dice keep;
  keep.count[face] = roll.count[face];
  keep.count[kJolly] = roll.count[kJolly];
  return FormatDice(keep);
}

// The advisor's ranked options for the decision now: the hint of every door
// (protocol/hint.h) for the player to move -- the exact expected final
// score under optimal solitaire play and, with opponents, expert's estimate
// of the probability of winning, in the ranking of `penk hint --opponent`
// and of expert's own decisions (ai/win_ranking.h).
void PrintRankedOptions(const Game& game, const std::shared_ptr<TableCache>& tables) {
  constexpr size_t kShown = 12;
  const bool multi = game.players() > 1;
  const int rerolls = game.phase() == Phase::kKeep ? game.rerolls_left() : 0;
  protocol::SessionOptions options;
  options.shared_tables = tables;  // the tables the AI seats use
  protocol::Session session(options);
  nlohmann::ordered_json answer;
  try {
    protocol::HintQuestion q = protocol::HintQuestionOfGame(game);
    q.top = kShown;
    answer = protocol::AnswerHint(session, q, &game);
  } catch (const protocol::EngineError& e) {
    std::printf("  advisor: not available: %s\n", e.message.c_str());
    return;
  }
  if (multi) {
    std::printf("%s", WinFiguresHeader(answer, "  ").c_str());
    std::printf("  advisor (best first):\n  %-14s %8s %9s   %10s\n",
                rerolls > 0 ? "keep" : "marking", "win", "score", "solitaire");
  } else {
    std::printf("  advisor (best first):\n  %-14s %14s\n", rerolls > 0 ? "keep" : "marking",
                "exp. score");
  }
  for (const nlohmann::ordered_json& a : answer["actions"]) {
    std::string name = a["action"].get<std::string>();
    if (rerolls > 0 && name.size() == kDice) name += " (stop)";  // a keep of six dice
    if (multi)
      std::printf("  %-14s %7.2f%% %9s %s %10.3f\n", name.c_str(), 100 * a["win"].get<double>(),
                  a.contains("score") ? absl::StrFormat("%.2f", a["score"].get<double>()).c_str()
                                      : "-",
                  a["tied"].get<bool>() ? "=" : " ", a["value"].get<double>());
    else
      std::printf("  %-14s %14.3f\n", name.c_str(), a["value"].get<double>());
  }
  const size_t count = answer["count"].get<size_t>();
  if (count > answer["actions"].size())
    std::printf("  (%zu more)\n", count - answer["actions"].size());
}

void PrintHelp(const Game& game, const std::shared_ptr<TableCache>& tables) {
  PrintRankedOptions(game, tables);
  if (game.phase() == Phase::kKeep) {
    const std::string roll = FormatDice(game.dice());
    std::printf(
        "  keep: the dice to keep in R7.2 notation, part of %s (e.g. %s); the others are "
        "rerolled.\n  '-' keeps none (rerolls all six); 'stop' or the whole roll %s ends "
        "rolling (R2.2).\n  %s. 'undo' takes back what was last typed (and the AIs' moves since); 'q' quits.\n",
        roll.c_str(), KeepExample(game.dice()).c_str(), roll.c_str(),
        Plural(game.rerolls_left(), "reroll left", "rerolls left").c_str());
    return;
  }
  std::vector<std::string> options;
  bool failure = false;
  for (const Action& a : game.LegalActions()) {
    options.push_back(FormatAction(a));
    failure = a.kind == Action::kFail;
  }
  if (failure) {
    std::printf("  no group is legal with %s: cross the free cells of one column (R3.5):\n  %s\n",
                FormatDice(game.dice()).c_str(), Wrap(options, 2).c_str());
  } else {
    std::printf("  legal markings (%zu; 1-3 groups face:size joined by '+', R7.4):\n  %s\n",
                options.size(), Wrap(options, 2).c_str());
  }
}

// Reads one line; nullopt at end of input.
std::optional<std::string> ReadLine() {
  std::string line;
  if (!std::getline(std::cin, line)) return std::nullopt;
  return std::string(absl::StripAsciiWhitespace(line));
}

[[noreturn]] void EndOfInput(const Game& game, const std::vector<Seat>& seats,
                             const RecordSaver& save) {
  save();
  std::printf("\n");
  std::fflush(stdout);
  std::fprintf(stderr, "penk: end of input while waiting for %s: game abandoned in round %d\n",
               Label(seats, game.current()).c_str(), game.round());
  std::exit(1);
}

// "undo", "u" or "back": take back the last thing typed (a decision or a
// physical roll), and what the AIs did after it.
bool IsUndo(absl::string_view line) {
  const std::string lower = absl::AsciiStrToLower(absl::StripAsciiWhitespace(line));
  return lower == "undo" || lower == "u" || lower == "back";
}

// Physical dice (--manual-dice): asks for the six dice on the table, for
// every seat (the AIs decide, the players roll for them), until they are
// a legal roll (six dice containing the ones kept, R2.2). False when the
// player asks to undo instead.
bool GiveDice(GameRecord& record, const std::vector<Seat>& seats, const RecordSaver& save) {
  const Game& game = record.game();
  while (game.phase() == Phase::kRoll) {
    const Dice kept = game.kept();
    std::printf("%s: the six dice rolled%s? (e.g. 11335J%s; undo, q quit) > ",
                Label(seats, game.current()).c_str(),
                kept.size() ? absl::StrCat(", with ", FormatDice(kept), " kept").c_str() : "",
                kept.size() ? absl::StrCat(", or only the ", kDice - kept.size(), " rerolled")
                                  .c_str()
                            : "");
    std::fflush(stdout);
    std::optional<std::string> line = ReadLine();
    if (!line) EndOfInput(game, seats, save);
    if (!isatty(STDIN_FILENO)) std::printf("%s\n", line->c_str());
    if (IsUndo(*line)) return false;
    if (absl::AsciiStrToLower(*line) == "q") {
      save();
      std::printf("game abandoned in round %d\n", game.round());
      std::fflush(stdout);
      std::exit(0);
    }
    // After a keep the player may type only the dice rerolled: the kept
    // ones complete the six (R2.2).
    absl::StatusOr<Dice> dice = ParseDice(*line);
    if (dice.ok() && kept.size() > 0 && dice->size() == kDice - kept.size())
      dice = kept.Plus(*dice);
    else if (dice.ok() && dice->size() != kDice)
      dice = absl::InvalidArgumentError(absl::StrCat(
          "give the six dice on the table", kept.size() ? absl::StrCat(", or the ", kDice - kept.size(),
                                                                      " rerolled (", FormatDice(kept),
                                                                      " kept)")
                                                        : std::string(),
          "; got ", dice->size(), " dice"));
    absl::Status status = dice.ok() ? record.Roll(*dice) : dice.status();
    if (!status.ok()) std::printf("  refused: %s\n", std::string(status.message()).c_str());
  }
  return true;
}

// Prompts a human until a legal decision is applied. Returns it, or nothing
// when the human asks to undo.
std::optional<Action> HumanTurn(GameRecord& record, const std::vector<Seat>& seats,
                                const std::shared_ptr<TableCache>& tables, const RecordSaver& save) {
  const Game& game = record.game();
  const int p = game.current();
  for (;;) {
    if (game.phase() == Phase::kKeep)
      std::printf("%s, keep which dice? (e.g. 333J, - for none, stop; ? help, undo, q quit) > ",
                  Label(seats, p).c_str());
    else
      std::printf("%s, mark what with %s? (e.g. 3:4+5:2, or fail:v; ? lists them, undo, q quit) > ",
                  Label(seats, p).c_str(), FormatDice(game.dice()).c_str());
    std::fflush(stdout);
    std::optional<std::string> line = ReadLine();
    if (!line) EndOfInput(game, seats, save);
    if (!isatty(STDIN_FILENO)) std::printf("%s\n", line->c_str());  // a scripted game reads well
    const std::string lower = absl::AsciiStrToLower(*line);
    if (lower == "?" || lower == "help") {  // the advisor's ranked options, then the syntax
      PrintHelp(game, tables);
      continue;
    }
    if (IsUndo(lower)) return std::nullopt;
    if (lower == "q" || lower == "quit") {
      save();
      std::printf("%s quits: game abandoned in round %d\n", Label(seats, p).c_str(),
                  game.round());
      std::fflush(stdout);
      std::exit(0);
    }
    if (line->empty()) {  // would parse as the empty keep: never reroll by accident
      std::printf("  refused: empty entry; type ? for help\n");
      continue;
    }
    absl::StatusOr<Action> action = game.ParseAction(*line);
    absl::Status status = action.ok() ? record.Apply(*action) : action.status();
    if (!status.ok()) {
      const bool looks_like_mark =
          game.phase() == Phase::kKeep && lower.find(':') != std::string::npos;
      std::printf("  refused: %s%s\n", std::string(status.message()).c_str(),
                  looks_like_mark ? " (rolling is not over: keep dice, or stop to mark)" : "");
      continue;
    }
    return *action;
  }
}

// The decision of player p, applied: a bot's (an illegal one is an internal
// error, exit 3) or the human's, asked until legal (nothing: undo asked).
std::optional<Action> Decide(GameRecord& record, const std::vector<Seat>& seats, int p,
                             const std::shared_ptr<TableCache>& tables, const RecordSaver& save) {
  if (!seats[p].bot) return HumanTurn(record, seats, tables, save);
  const Action action = seats[p].bot->Decide(record.game());
  if (absl::Status status = record.Apply(action); !status.ok()) {
    std::fflush(stdout);
    std::fprintf(stderr, "penk: internal error: %s chose %s: %s\n", Label(seats, p).c_str(),
                 FormatAction(action).c_str(), std::string(status.message()).c_str());
    std::exit(3);
  }
  return action;
}

// The roll of the turn now on the table: 1, 2 or 3 (R2.2).
int RollNumber(const GameRecord& record) {
  return record.turns().empty() ? 1 : static_cast<int>(record.turns().back().rolls.size());
}

// Whether the game waits for something a person types: physical dice (for
// any seat) or a human's decision.
bool AsksHuman(const Game& game, const std::vector<Seat>& seats) {
  if (game.over()) return false;
  return game.phase() == Phase::kRoll || !seats[game.current()].bot;
}

// `undo`: takes back steps until the game waits again for something a
// person typed (so the AIs' moves since are taken back too and played
// again), then shows the position anew (shown_turn reset).
void UndoToHuman(GameRecord& record, const std::vector<Seat>& seats, int& shown_turn) {
  if (record.steps() == 0) {
    std::printf("  nothing to undo: the game has just started\n");
    return;
  }
  do {
    OrFail(record.Undo());
  } while (record.steps() > 0 && !AsksHuman(record.game(), seats));
  const Game& game = record.game();
  std::printf("  undone: back to %s's %s\n", Label(seats, game.current()).c_str(),
              game.phase() == Phase::kRoll   ? "dice"
              : game.phase() == Phase::kKeep ? "keep"
                                             : "marking");
  shown_turn = -1;
}

void PrintFinal(const Game& game, const std::vector<Seat>& seats) {
  std::printf("\n=== game over after %s (rules %s) ===\n",
              Plural(game.turns(0), "round", "rounds").c_str(),
              FormatRules(game.rules()).c_str());
  PrintSheets(game, seats);
  std::printf("\nfinal scores (R6: rows and columns with at least %d circled cells):\n",
              game.rules().line_min);
  size_t width = 0;
  for (int p = 0; p < game.players(); ++p) width = std::max(width, Label(seats, p).size());
  std::string head = std::string(width, ' ');
  for (int k = 1; k <= kRows; ++k) absl::StrAppend(&head, " row", k);
  head += " |";
  for (int v = 1; v <= kColumns; ++v) absl::StrAppend(&head, " col", v);
  head += " | total";
  std::printf("%s\n", head.c_str());
  int best = -1;
  for (int p = 0; p < game.players(); ++p) {
    ScoreBreakdown s = ScoreSheet(game.sheet(p), game.rules());
    std::string line = Label(seats, p);
    line.resize(width, ' ');
    for (int x : s.row) absl::StrAppendFormat(&line, " %4d", x);
    line += " |";
    for (int x : s.column) absl::StrAppendFormat(&line, " %4d", x);
    absl::StrAppendFormat(&line, " | %5d", s.total);
    std::printf("%s\n", line.c_str());
    best = std::max(best, s.total);
  }
  if (game.players() == 1) {
    std::printf("solitaire: final score %d\n", best);
    return;
  }
  std::vector<std::string> winners;
  for (int p = 0; p < game.players(); ++p)
    if (game.Score(p) == best) winners.push_back(Label(seats, p));
  if (winners.size() == 1)
    std::printf("winner: %s with %s\n", winners[0].c_str(), Plural(best, "point", "points").c_str());
  else
    std::printf("tie (R6.4): %s share the win with %s\n", absl::StrJoin(winners, ", ").c_str(),
                Plural(best, "point", "points").c_str());
}

// Which of the options that set up a game were given (--load refuses them).
struct GivenFlags {
  bool players = false, seed = false, rules = false, manual_dice = false;
};

// A new game of --players, --seed, --rules and --manual-dice.
protocol::GameSession NewPlayGame(const PlayArgs& a, const GivenFlags& given) {
  if (!given.players)
    throw UsageError{"--players is required (1-4 players, e.g. human,expert), or --load FILE"};
  std::vector<std::string> names = ParseSeatList(a.players);
  const Rules rules = OrFail(ParseRules(a.rules));
  uint64_t seed = a.seed;
  if (!given.seed)
    seed = static_cast<uint64_t>(
               std::chrono::system_clock::now().time_since_epoch() / std::chrono::nanoseconds(1)) %
           1000000000ULL;
  const Game start = OrFail(Game::Create(static_cast<int>(names.size()), rules, seed,
                                         a.manual_dice ? DiceSource::kManual : DiceSource::kEngine));
  return protocol::GameSession{GameRecord(start), std::move(names), seed, {}, std::nullopt};
}

// The game of the record in `path` (--load), replayed to where it was:
// a UsageError naming the file and what is wrong with it.
protocol::GameSession LoadGame(const std::string& path, const GivenFlags& given,
                               const std::shared_ptr<TableCache>& tables) {
  const std::pair<const char*, bool> flags[] = {{"--players", given.players},
                                                {"--seed", given.seed},
                                                {"--rules", given.rules},
                                                {"--manual-dice", given.manual_dice}};
  for (const auto& [flag, set] : flags)
    if (set)
      throw UsageError{absl::StrCat("--load: ", flag, " cannot be given with it: the record gives "
                                    "the players, seed, rules and dice")};
  const std::string quoted = QuotedInput(path);
  std::error_code ec;
  // Only a regular file: a FIFO or a device would block or never end.
  if (!std::filesystem::is_regular_file(path, ec))
    throw UsageError{absl::StrCat("--load: ", quoted, " is not a readable file",
                                  ec ? absl::StrCat(" (", ec.message(), ")") : "")};
  const uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec || size > kMaxRecordFileBytes)
    throw UsageError{absl::StrCat("--load: ", quoted, " is not a game record (larger than ",
                                  kMaxRecordFileBytes, " bytes)")};
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in && !in.eof()) throw UsageError{absl::StrCat("--load: cannot read ", quoted)};
  absl::StatusOr<nlohmann::ordered_json> record = protocol::ParseBoundedJson(text);
  if (!record.ok())
    throw UsageError{absl::StrCat("--load: ", quoted, " is ", record.status().message())};
  protocol::SessionOptions options;
  options.shared_tables = tables;  // unused by a replay, but never a second cache
  protocol::Session session(options);
  try {
    return protocol::RestoreGame(session, *record);
  } catch (const protocol::EngineError& e) {
    throw UsageError{absl::StrCat("--load: ", quoted, ": ", e.message)};
  }
}

void RunPlay(const PlayArgs& a, const GivenFlags& given) {
  // optimal, expert and the advisor (?) use the exact tables
  const std::shared_ptr<TableCache> tables = CommandTableCache(a.table_cache_mb);
  protocol::GameSession g = a.load.empty() ? NewPlayGame(a, given) : LoadGame(a.load, given, tables);
  // A loaded record's seats are checked as --players is.
  const std::vector<std::string> names = ParseSeatList(absl::StrJoin(g.seats, ","));
  const Rules rules = g.game().rules();
  const uint64_t seed = g.seed;
  const std::vector<std::string> people =
      a.names.empty() ? std::vector<std::string>(names.size()) : ParseNames(a.names, names.size());
  std::vector<Seat> seats;
  for (size_t i = 0; i < names.size(); ++i) {
    Seat seat{names[i], nullptr, people[i]};
    if (names[i] != "human")
      seat.bot =
          OrFail(MakeBot(names[i], rules, seed ^ (0x9e3779b97f4a7c15ULL * (i + 1)), tables));
    seats.push_back(std::move(seat));
  }
  std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
  std::printf("rules %s\n", FormatRules(rules).c_str());
  std::vector<std::string> labels;
  for (int p = 0; p < g.game().players(); ++p) labels.push_back(Label(seats, p));
  std::printf("players: %s\n", absl::StrJoin(labels, ", ").c_str());
  if (!a.load.empty())
    std::printf("resumed from %s after %s\n", a.load.c_str(),
                Plural(static_cast<int>(g.record.steps()), "step", "steps").c_str());

  GameRecord& record = g.record;
  const Game& game = record.game();
  const RecordSaver save{a.save, &g};
  int shown_turn = -1;  // the turn whose header is printed (turns played so far)
  while (!game.over()) {
    const int p = game.current();
    int turns_played = 0;
    for (int q = 0; q < game.players(); ++q) turns_played += game.turns(q);
    if (turns_played != shown_turn) {  // a new turn, or the position after an undo
      shown_turn = turns_played;
      save();  // every completed turn is kept (and an undo's result)
      std::printf("\n--- round %d: %s ---\n", game.round(), Label(seats, p).c_str());
      PrintSheets(game, seats);
      if (game.phase() != Phase::kRoll) std::printf("%s\n", RollLine(game, RollNumber(record)).c_str());
    }
    if (game.phase() == Phase::kRoll) {
      if (!GiveDice(record, seats, save)) {
        UndoToHuman(record, seats, shown_turn);
        continue;
      }
      std::printf("%s\n", RollLine(game, RollNumber(record)).c_str());
      continue;
    }
    if (game.phase() == Phase::kKeep) {  // R2.2: keeps until the dice are final
      const std::optional<Action> action = Decide(record, seats, p, tables, save);
      if (!action) {
        UndoToHuman(record, seats, shown_turn);
        continue;
      }
      if (game.phase() == Phase::kMark && action->keep.size() == kDice) {
        std::printf("%s stops with %s\n", Label(seats, p).c_str(), FormatDice(game.dice()).c_str());
      } else {
        std::printf("%s keeps %s%s\n", Label(seats, p).c_str(), FormatDice(action->keep).c_str(),
                    action->keep.size() == 0 ? " (rerolls all six)" : "");
        if (game.phase() != Phase::kRoll)  // the engine's dice; physical ones are asked above
          std::printf("%s\n", RollLine(game, RollNumber(record)).c_str());
      }
      continue;
    }

    // R3: the marking or failure, and what it sets off.
    const Sheet before = game.sheet(p);
    const bool last_round_before = game.last_round();
    int turns_before[kMaxPlayers];
    for (int q = 0; q < game.players(); ++q) turns_before[q] = game.turns(q);
    const std::optional<Action> decided = Decide(record, seats, p, tables, save);
    if (!decided) {
      UndoToHuman(record, seats, shown_turn);
      continue;
    }
    const Action& action = *decided;
    const int gain = game.Score(p) - Score(before, rules);
    if (action.kind == Action::kFail) {
      std::printf("%s fails %d: no group is legal, crosses %s of column %d (R3.5)\n",
                  Label(seats, p).c_str(), action.face,
                  Plural(std::popcount(before.free() & ColumnMask(action.face)), "free cell",
                         "free cells")
                      .c_str(),
                  action.face);
    } else {
      std::printf("%s marks %s: %+d, score %d\n", Label(seats, p).c_str(),
                  FormatMarking(action.cells).c_str(), gain, game.Score(p));
    }
    // R4: PENK on every line this marking completed. Computed here rather
    // than read from Game::last_turn(), which a skipped turn (R3.6) replaces.
    uint32_t penk_rows = 0, penk_columns = 0;
    if (action.kind == Action::kMark)
      CompletedLines(before, action.cells, rules, &penk_rows, &penk_columns);
    const char* others = game.players() > 1 ? " on the other sheets" : "";
    for (int k = 1; k <= kRows; ++k)
      if (penk_rows >> (k - 1) & 1)
        std::printf("PENK! player %d completed row %d: free cells of row %d crossed%s (R4.2)\n",
                    p + 1, k, k, others);
    for (int v = 1; v <= kColumns; ++v)
      if (penk_columns >> (v - 1) & 1)
        std::printf(
            "PENK! player %d completed column %d: free cells of column %d crossed%s (R4.2)\n",
            p + 1, v, v, others);
    if (game.last_round() && !last_round_before) {
      std::vector<std::string> closers;
      for (int q = 0; q < game.players(); ++q)
        if (game.sheet(q).ClosedColumns() >= 2) closers.push_back(Label(seats, q));
      std::string who = absl::StrJoin(closers, ", ");
      if (game.over())
        std::printf("%s %s two closed columns (R5.2): the game ends\n", who.c_str(),
                    closers.size() == 1 ? "has" : "have");
      else
        std::printf("LAST ROUND: %s %s two closed columns (R5.2): the game ends after %s\n",
                    who.c_str(), closers.size() == 1 ? "has" : "have",
                    Label(seats, game.players() - 1).c_str());
    }
    for (int q = 0; q < game.players(); ++q)
      if (q != p && game.turns(q) > turns_before[q])
        std::printf("%s has no free cell left and passes (R3.6)\n", Label(seats, q).c_str());
  }
  save();
  PrintFinal(game, seats);
}

}  // namespace

void RegisterPlay(CLI::App& app) {
  auto args = std::make_shared<PlayArgs>();
  CLI::App* play = app.add_subcommand(
      "play", "play a game in the terminal: humans (stdin) against AIs (? shows the advisor, undo takes back)");
  play->add_option("--players", args->players,
                   absl::StrCat("1-4 comma-separated players from ", AllowedPlayerNames(true),
                                "; e.g. human,expert (required unless --load)"));
  CLI::Option* seed = play->add_option("--seed", args->seed,
                                       "random seed (default: from the clock; printed first)")
                             ->check(SeedNotNegative());
  play->add_option("--names", args->names,
                   "who sits in each seat, comma-separated in --players order (e.g. Ann,Bob): "
                   "shown instead of \"player N\"");
  AddRulesOption(play, &args->rules);
  play->add_flag("--manual-dice", args->manual_dice,
                 "physical dice: before every roll, type the six dice on the table (for every "
                 "seat: the AIs decide, you roll for them)");
  AddTableCacheOption(play, &args->table_cache_mb);
  play->add_option("--save", args->save,
                   "write the game record (JSON, docs/PROTOCOL.md) to FILE after every turn and "
                   "on leaving, so the game can be resumed with --load");
  play->add_option("--load", args->load,
                   "resume the game of a record (from --save or the engine's export); its "
                   "players, seed, rules and dice come from it");
  play->callback([args, seed, play] {
    GivenFlags given;
    given.players = play->get_option("--players")->count() > 0;
    given.seed = seed->count() > 0;
    given.rules = play->get_option("--rules")->count() > 0;
    given.manual_dice = play->get_option("--manual-dice")->count() > 0;
    RunPlay(*args, given);
  });
}

}  // namespace penk::cli
