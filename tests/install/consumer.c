/* A program of a libpenk user, built against an installed copy
 * (tests/install/install_test.sh): the version, the error path of a bad
 * sheet, a missing table with building off, and a whole game of two greedy
 * AIs, which needs no table. Prints one line per check; exit 0 when all hold. */
#include <penk.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;

static void check(int ok, const char* what) {
  printf("%s: %s\n", ok ? "ok" : "FAILED", what);
  if (!ok) failures++;
}

int main(int argc, char** argv) {
  const char* table_dir = argc > 1 ? argv[1] : "tables";
  printf("libpenk %s, API %d\n", penk_version(), penk_api_version());
  check(strcmp(penk_version(), PENK_VERSION_EXPECTED) == 0, "penk_version() matches the package");
  check(penk_api_version() == PENK_API_VERSION, "API version of the header and the library");

  penk_context* ctx = NULL;
  check(penk_context_create(table_dir, &ctx) == PENK_OK && ctx, "context created");
  check(penk_context_set_build(ctx, 0) == PENK_OK, "table building off");

  double value = 0;
  check(penk_value(ctx, "not a sheet", NULL, NULL, &value) == PENK_E_BAD_POSITION,
        "a malformed sheet is PENK_E_BAD_POSITION");
  printf("  (%s)\n", penk_last_error());
  check(penk_value(ctx, NULL, NULL, NULL, &value) == PENK_E_TABLE,
        "no table and building off is PENK_E_TABLE");

  penk_game* game = NULL;
  check(penk_game_create(ctx, "greedy,greedy", NULL, 7, &game) == PENK_OK, "game created");
  char action[PENK_ACTION_SIZE];
  int moves = 0;
  while (game && penk_game_phase(game) != PENK_PHASE_OVER && moves < 1000) {
    if (penk_game_best_action(game, NULL, 1, action, sizeof action) != PENK_OK) break;
    ++moves;
  }
  check(game && penk_game_phase(game) == PENK_PHASE_OVER, "a greedy game played to the end");
  if (game)
    printf("  %d decisions, scores %d and %d\n", moves, penk_game_score(game, 0),
           penk_game_score(game, 1));
  penk_game_destroy(game);
  penk_context_destroy(ctx);
  return failures == 0 ? 0 : 1;
}
