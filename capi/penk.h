/* libpenk: the PENK engine, advisor and AI players behind a plain C API.
 *
 * The same operations as the `penk engine` protocol (docs/PROTOCOL.md):
 * hints and values from the exact solitaire tables, games with AI seats, the
 * AI's decision for the player to move. Positions, rolls and actions are R7
 * text (docs/RULES.md R7): a sheet "...../...../...../...../.....", a roll
 * "3335JJ", a keep "333J" or "-" or "stop", a marking "3:4+5:2", "fail:4".
 *
 * Conventions
 *  - Every function that can fail returns a penk_status: PENK_OK (0) or an
 *    error code; penk_last_error() then gives a one-line message (per thread).
 *  - Strings are NUL-terminated UTF-8; a NULL optional string means "default".
 *  - Text results go into a caller buffer (buf, size): on success the text
 *    and its NUL are written and *needed (if not NULL) is the text's length
 *    without the NUL. If size is too small, nothing but buf[0] = '\0' is
 *    written (when size > 0), *needed is set, and PENK_E_BUFFER_TOO_SMALL is
 *    returned: call again with at least *needed + 1 bytes.
 *  - Handles are opaque. A context holds the value tables it has loaded; a
 *    game keeps its context alive, so destroying the context first is safe.
 *    One handle must not be used by two threads at once; distinct handles may
 *    (games of one context on threads of their own, the context itself on
 *    another: what they share, the table cache, is locked; tested under
 *    ThreadSanitizer). The library knows its live handles and their kinds: a
 *    destroyed (or never created) handle, or a context where a game is
 *    expected and the reverse, is refused with PENK_E_BAD_ARGUMENT (the int
 *    accessors return -1), and destroying it again, or with the other
 *    kind's destroy function, is ignored.
 *  - No C++ exception ever leaves the library.
 *  - Tables: a request needing one loads it on first use (and caches it in
 *    the context) from `table` if given, else from the context's table folder
 *    (penk_context_create; NULL: $PENK_TABLE_DIR, else tables/ beside
 *    libpenk.so). A missing default table is built there (about 10 s) unless
 *    penk_context_set_build(ctx, 0) was called, in which case the request
 *    fails with PENK_E_TABLE naming the file (AI moves and hints with
 *    opponents included: they need the tables of the sheets' blocked rows);
 *    a named table is only read, never created. Each context has its own
 *    folder, build setting and table cache (at most 256 MB of tables, least
 *    recently used dropped; penk_context_set_table_cache_mb): nothing is
 *    shared between contexts.
 */
#ifndef PENK_CAPI_PENK_H_
#define PENK_CAPI_PENK_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 2 added penk_game_create_random, penk_context_set_table_cache_mb,
 * penk_game_create_json (physical dice, positions), penk_game_roll,
 * penk_game_undo, penk_game_hint_json, penk_game_best_action_json,
 * penk_request and PENK_PHASE_ROLL; everything of version 1 is unchanged.
 * 4 added penk_ranked_moments, penk_hint_moments and penk_value_moments (the
 * expected final score and its standard deviation, issue 13), and "sd" (with
 * a target, "mean") in penk_hint_json's actions; everything before is
 * unchanged (penk_ranked_action keeps its layout).
 * 5 (issue 20): handles are checked for their kind (a context where a game
 * is expected is PENK_E_BAD_ARGUMENT), penk_request keeps a reply that did
 * not fit for the retry instead of running the request again, JSON nested
 * deeper than 32 levels is refused, turns are 0..1000, PENK_E_CANCELLED
 * (12) names the protocol's "cancelled"; every call of version 4 is
 * unchanged.
 * 6 (issue 24): penk_level_count/penk_level_name list the five levels
 * (hello's "levels"), no longer their aliases "bot" and "optimal" (still
 * accepted as seats); hint JSON gains "count" (the number of actions
 * ranked); every other call is unchanged.
 * 7 (issue 21): the levels gain "neural" (six levels); hint JSON with
 * opponents gives the neural player's "win", the expected final "score" in
 * this game, "tied" and "estimate" (what "win" is); every call is
 * unchanged.
 * 8 (issue 22): requests in flight, protocol 3 (penk_context_set_callback,
 * penk_submit, penk_cancel, penk_drain), PENK_E_TIME_OUT (13), the commands
 * prepare and cancel, "time_ms" and "progress_ms" on every request;
 * penk_hint_multi with penk_ranked_win (the win chance without JSON);
 * every call of version 7 is unchanged. */
#define PENK_API_VERSION 8

/* Status codes; the same numbers as the protocol's error codes. */
typedef enum penk_status {
  PENK_OK = 0,
  PENK_E_BAD_JSON = 1,        /* protocol only */
  PENK_E_UNKNOWN_COMMAND = 2, /* protocol only */
  PENK_E_BAD_ARGUMENT = 3,    /* NULL handle or pointer, value out of range */
  PENK_E_BAD_POSITION = 4,    /* bad sheet, roll or rules text; position not playable */
  PENK_E_UNKNOWN_GAME = 5,    /* protocol only */
  PENK_E_ILLEGAL_ACTION = 6,  /* not legal now, or the game is over */
  PENK_E_UNKNOWN_LEVEL = 7,   /* no such AI level or seat name */
  PENK_E_TABLE = 8,           /* table missing, refused, or not covering the position */
  PENK_E_LIMIT = 9,           /* protocol only */
  PENK_E_INTERNAL = 10,       /* a bug or out of memory; handles stay usable */
  PENK_E_BUFFER_TOO_SMALL = 11,
  PENK_E_CANCELLED = 12,      /* protocol only: the request was cancelled */
  PENK_E_TIME_OUT = 13        /* protocol only: its time_ms ran out */
} penk_status;

/* Game phases (penk_game_phase). */
enum { PENK_PHASE_KEEP = 0, PENK_PHASE_MARK = 1, PENK_PHASE_OVER = 2,
       PENK_PHASE_ROLL = 3 /* manual dice: waiting for penk_game_roll */ };

/* Longest action text (a marking like "1:1+2:2+3:3", "fail:5", a keep) + NUL. */
#define PENK_ACTION_SIZE 24

typedef struct penk_context penk_context;
typedef struct penk_game penk_game;

typedef struct penk_ranked_action {
  char action[PENK_ACTION_SIZE]; /* R7 text, as `penk hint` prints it */
  double value;                  /* expected final score after it (full precision) */
} penk_ranked_action;

/* An action with the moments of the final score after it (API version 4):
 * `value` is the objective's (as penk_ranked_action's), `mean` the expected
 * final score and `sd` its standard deviation, the table's policy playing on
 * (`penk hint`'s mean and sd columns; for the expected-score objective mean
 * equals value). */
typedef struct penk_ranked_moments {
  char action[PENK_ACTION_SIZE];
  double value;
  double mean;
  double sd;
} penk_ranked_moments;

/* An action ranked with opponents (API version 8, penk_hint_multi): the
 * figures of penk_hint_multi_json's "actions", as numbers. */
typedef struct penk_ranked_win {
  char action[PENK_ACTION_SIZE];
  double win;    /* chance of winning, 0..1 (a tie shared, R6.4) */
  double score;  /* expected final score in this game; NaN when not known */
  double value;  /* exact solitaire value: the expected final score alone */
  int tied;      /* 1: the same win and score as the action before it */
} penk_ranked_win;

/* --- Library information (static strings, never freed). --- */
const char* penk_version(void);          /* the project version, e.g. "0.1.0" */
int penk_api_version(void);              /* PENK_API_VERSION */
int penk_level_count(void);              /* number of AI levels (hello's "levels") */
const char* penk_level_name(int index);  /* "random", "solitaire", "greedy", "expert", "neural",
                                            "master" (weakest first); NULL if out of range. Aliases
                                            ("bot", "optimal") are accepted too, not listed */
const char* penk_status_name(int status);/* "ok", "bad_position", ... */
/* Message of the last failed call in this thread ("" if none). */
const char* penk_last_error(void);

/* --- Contexts: table cache and settings. --- */
int penk_context_create(const char* table_dir, penk_context** out);
void penk_context_destroy(penk_context* ctx); /* NULL is ignored */
/* allow = 0: a missing default table is an error (PENK_E_TABLE) instead of
 * built, from now on, for this context and its games. */
int penk_context_set_build(penk_context* ctx, int allow);
/* Memory for the context's tables (14.5 MB each), 1..1048576 MB (default
 * 256); least recently used tables are dropped past it. */
int penk_context_set_table_cache_mb(penk_context* ctx, size_t megabytes);

/* --- Stateless advisor (solitaire-optimal, R7 inputs). --- */
/* Optimal expected final score from the start of a turn on `sheet` (NULL:
 * empty); a finished sheet's value is its score. `rules` and `table` may be NULL. */
int penk_value(penk_context* ctx, const char* sheet, const char* rules, const char* table,
               double* value);
/* Every action of the decision ranked best first, as `penk hint`: with
 * rerolls (0..2) left the keeps (the whole roll = stop), else the markings or
 * the failures. Writes min(capacity, total) actions, best first; *count
 * (required) receives the total. */
int penk_hint(penk_context* ctx, const char* sheet, const char* roll, int rerolls,
              const char* rules, const char* table, penk_ranked_action* actions,
              size_t capacity, size_t* count);
/* The same as JSON: the object `penk hint --json` prints (values to 6
 * decimals), each action with its "sd" (API version 4; with opponents too,
 * the sd of the solitaire-optimal play valued by "value"; when the spread
 * table cannot be had, or on the last turn of a sheet with two closed
 * columns, no "sd" and "sd_error" in the object instead). */
int penk_hint_json(penk_context* ctx, const char* sheet, const char* roll, int rerolls,
                   const char* rules, const char* table, char* buf, size_t size,
                   size_t* needed);

/* The same two for an objective (`objective`: "mean" or NULL, the above, or
 * "target=X", X in 0..190): with a target the values are probabilities that
 * the final solitaire score reaches X, playing for it (`penk value/hint
 * --objective`; one table per objective, built on first use like the others). */
int penk_value_objective(penk_context* ctx, const char* sheet, const char* rules,
                         const char* table, const char* objective, double* value);
int penk_hint_objective(penk_context* ctx, const char* sheet, const char* roll, int rerolls,
                        const char* rules, const char* table, const char* objective,
                        penk_ranked_action* actions, size_t capacity, size_t* count);

/* The same with each action's mean and sd (API version 4), and the
 * position's (`penk value`: a finished sheet has its score, sd 0). They need
 * the spread table beside the value table (and, for a target, its mean
 * table): read, or built like value tables; PENK_E_TABLE when it cannot be. */
int penk_hint_moments(penk_context* ctx, const char* sheet, const char* roll, int rerolls,
                      const char* rules, const char* table, const char* objective,
                      penk_ranked_moments* actions, size_t capacity, size_t* count);
int penk_value_moments(penk_context* ctx, const char* sheet, const char* rules,
                       const char* table, const char* objective, double* value, double* mean,
                       double* sd);

/* Multiplayer hint, as `penk hint --json --opponent ...`: `opponents` are
 * the other players' sheets in turn order after the mover, separated by
 * commas (NULL or "": none, then this is penk_hint_json); the actions are
 * ranked by expert's estimated probability of winning ("win") beside the
 * expected score. seat: the mover's seat 1..players; turns: turns the mover
 * has played (0..1000), -1 to estimate it from the sheet. Uses the exact tables of the
 * sheets' blocked rows (loaded from the context's folder, or built). */
int penk_hint_multi_json(penk_context* ctx, const char* sheet, const char* roll, int rerolls,
                         const char* rules, const char* table, const char* opponents,
                         int last_round, int seat, int turns, char* buf, size_t size,
                         size_t* needed);

/* The same ranking as numbers (API version 8): min(capacity, total)
 * actions best first into `actions`, *count (required) the total;
 * *estimate (optional, a buffer of at least 16 bytes) receives what "win"
 * is: "exact", "neural" or "expert". `opponents` must not be empty. */
int penk_hint_multi(penk_context* ctx, const char* sheet, const char* roll, int rerolls,
                    const char* rules, const char* table, const char* opponents,
                    int last_round, int seat, int turns, penk_ranked_win* actions,
                    size_t capacity, size_t* count, char* estimate);

/* --- Games. --- */
/* players: comma-separated seats, each "human" or an AI level, e.g.
 * "human,greedy" (1 to 4). rules: NULL or e.g. "line-min=3,penk-lines=all".
 * seed: the dice (every value, 0 included, is a fixed seed: same seed, same
 * game). At most 8 distinct AI levels per game in penk_game_best_action
 * (PENK_E_LIMIT past that). */
int penk_game_create(penk_context* ctx, const char* players, const char* rules, uint64_t seed,
                     penk_game** out);
/* The same with everything new_game takes (docs/PROTOCOL.md): `options` is
 * a JSON object with "players" (required), "rules", "seed" (absent: random),
 * "dice" ("engine" or "manual": the players roll physical dice and give them
 * with penk_game_roll) and "position" (a game set up part-way: sheets,
 * current, turns, last_round, dice, rerolls_left; checked as the protocol
 * checks it). Unknown fields are refused (PENK_E_BAD_ARGUMENT). */
int penk_game_create_json(penk_context* ctx, const char* options, penk_game** out);
/* The same with a random seed, as the engine's new_game without "seed"
 * (penk_game_state_json reports it). */
int penk_game_create_random(penk_context* ctx, const char* players, const char* rules,
                            penk_game** out);
void penk_game_destroy(penk_game* game); /* NULL is ignored */
/* Manual dice (PENK_PHASE_ROLL): the six dice now on the table, e.g.
 * "11335J"; they must contain the dice kept (PENK_E_ILLEGAL_ACTION). */
int penk_game_roll(penk_game* game, const char* dice);
/* Takes back the last decision or roll (PENK_E_ILLEGAL_ACTION at the start).
 * With engine dice the same dice come again. */
int penk_game_undo(penk_game* game);
/* The advisor for the player to move, everything taken from the game (as the
 * protocol's hint with "game"): JSON with "actions" ranked, "value" the
 * expected final score, "win" the estimated chance to win with opponents.
 * top = 0: every action. */
int penk_game_hint_json(penk_game* game, const char* table, int top, char* buf, size_t size,
                        size_t* needed);
/* The AI's decision with how good it is (as the protocol's best_action):
 * JSON {"action","player","level","value","rank"[,"win"],"applied"}. Each
 * call asks the AI afresh (a random level may decide otherwise), so give a
 * buffer with room to spare (4096 bytes unless the level name is longer)
 * rather than asking for the size first. */
int penk_game_best_action_json(penk_game* game, const char* level, int apply, char* buf,
                               size_t size, size_t* needed);
/* Applies the current player's decision in R7 text; a refused action
 * (PENK_E_ILLEGAL_ACTION) changes nothing. */
int penk_game_apply(penk_game* game, const char* action);
/* The AI's decision for the player to move, into buf (PENK_ACTION_SIZE is
 * always enough); level NULL or "": the seat's own level. apply != 0 also
 * applies it. */
int penk_game_best_action(penk_game* game, const char* level, int apply, char* buf,
                          size_t size);
/* The state object of the protocol (docs/PROTOCOL.md) as JSON: sheets,
 * scores by row and column, closed columns, who crossed each cell, the
 * history of every turn. */
int penk_game_state_json(const penk_game* game, char* buf, size_t size, size_t* needed);
/* Quick accessors; -1 for a NULL or dead handle or a player out of range.
 * penk_game_current is -1 once the game is over. */
int penk_game_players(const penk_game* game);
int penk_game_current(const penk_game* game);
int penk_game_phase(const penk_game* game);
int penk_game_rerolls_left(const penk_game* game);
int penk_game_score(const penk_game* game, int player);

/* --- The protocol itself. --- */
/* One request of the engine protocol (docs/PROTOCOL.md), e.g.
 * {"cmd":"new_game","players":["human","expert"]}: the reply object as the
 * `penk engine` process writes it. Games made this way live in the context
 * and are addressed by id, as in the protocol. Returns PENK_OK when the
 * reply was written (the reply itself may be an error reply). A request is
 * run once: when the buffer is too small the context keeps the reply, and
 * the next penk_request on it with the same request text gets that reply
 * without running the request again (so a new_game retried with a larger
 * buffer makes one game, an undo takes back one step); any other request
 * drops the kept reply. */
int penk_request(penk_context* ctx, const char* request, char* buf, size_t size, size_t* needed);

/* --- Requests in flight (protocol 3, API version 8; docs/PROTOCOL.md). --- */
/* Receives every line of the context's requests in flight: `line` is a
 * request's reply (`is_reply` 1: exactly one per penk_submit) or a progress
 * message (0), valid during the call only. It is called from the library's
 * threads, one call at a time, and must not call the library on this
 * context (queue the line and return). */
typedef void (*penk_line_fn)(const char* line, int is_reply, void* user);
/* Sets the callback of penk_submit (before the first; setting it again
 * first waits until every request in flight has answered). */
int penk_context_set_callback(penk_context* ctx, penk_line_fn fn, void* user);
/* Sends one request of protocol 3 and returns at once (PENK_OK: it was
 * taken; its reply comes through the callback). Every request carries an
 * "id"; requests naming one game run in the order sent, the others side by
 * side (at most 16 in flight); "progress_ms" asks for progress lines,
 * "time_ms" bounds the whole request. penk_request on the same context
 * waits its turn on a game like any other request. PENK_E_BAD_ARGUMENT
 * without a callback. */
int penk_submit(penk_context* ctx, const char* request);
/* Stops the request in flight whose "id" is `id_json` (its JSON text: 7 or
 * "\"a\""): it then answers `cancelled` through the callback.
 * *running (optional): 1 if it was in flight, 0 if not (not an error). */
int penk_cancel(penk_context* ctx, const char* id_json, int* running);
/* Waits until every submitted request has answered and its work ended. */
int penk_drain(penk_context* ctx);

#ifdef __cplusplus
}
#endif

#endif /* PENK_CAPI_PENK_H_ */
