/* Distinct libpenk handles on distinct threads (issue 20, item 3): two games
 * of one context ask for hints on threads of their own while a third thread
 * uses the context itself (values, the build setting). penk.h promises that
 * this is safe; the games share the context's table cache, which is where
 * it once was not (a spread-table list erased and refilled without a lock:
 * 3 crashes in 20 runs). Run under ThreadSanitizer by tools/test.sh (any
 * report fails it), and in the other passes as a plain crash test.
 *
 * Usage: capi_threads TABLE_A TABLE_B ROUNDS. Both tables are small (penk
 * tables build --max-free 6 and 5, spread tables beside them): the games'
 * positions have 5 free cells, and each thread alternates between the two
 * files so that both spread tables are loaded, used and evicted (a cache cap
 * below two tables) while the other thread reads them. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "penk.h"

static const char* table_a;
static const char* table_b;
static int rounds;
static penk_context* ctx;

struct worker {
  penk_game* game;
  int failures;
  char message[256];
};

static void* hint_loop(void* arg) {
  struct worker* w = arg;
  static __thread char buf[1 << 16];
  for (int i = 0; i < rounds; ++i) {
    const char* table = (i & 1) ? table_a : table_b;
    size_t needed = 0;
    const int rc = penk_game_hint_json(w->game, table, 0, buf, sizeof buf, &needed);
    if (rc != PENK_OK || strstr(buf, "\"sd\"") == NULL) {
      if (w->failures++ == 0)
        snprintf(w->message, sizeof w->message, "hint %d: %s %s", i, penk_status_name(rc),
                 rc == PENK_OK ? "no sd in the reply" : penk_last_error());
    }
  }
  return NULL;
}

static void* context_loop(void* arg) {
  struct worker* w = arg;
  for (int i = 0; i < rounds; ++i) {
    double value = 0, mean = 0, sd = 0;
    const char* table = (i & 1) ? table_b : table_a;
    int rc = penk_value_moments(ctx, "oooo./ooo.o/oo.oo/o.ooo/.oooo", NULL, table, NULL, &value,
                                &mean, &sd);
    if (rc == PENK_OK) rc = penk_context_set_build(ctx, i & 1);
    if (rc != PENK_OK && w->failures++ == 0)
      snprintf(w->message, sizeof w->message, "context %d: %s %s", i, penk_status_name(rc),
               penk_last_error());
  }
  return NULL;
}

static penk_game* new_game(const char* sheet) {
  char options[256];
  snprintf(options, sizeof options,
           "{\"players\":[\"human\"],\"seed\":3,\"position\":{\"sheets\":[\"%s\"]}}", sheet);
  penk_game* g = NULL;
  if (penk_game_create_json(ctx, options, &g) != PENK_OK) {
    fprintf(stderr, "capi_threads: penk_game_create_json: %s\n", penk_last_error());
    exit(1);
  }
  return g;
}

int main(int argc, char** argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: capi_threads TABLE_A TABLE_B ROUNDS\n");
    return 2;
  }
  table_a = argv[1];
  table_b = argv[2];
  rounds = atoi(argv[3]);
  if (penk_context_create(NULL, &ctx) != PENK_OK) {
    fprintf(stderr, "capi_threads: %s\n", penk_last_error());
    return 1;
  }
  /* Below one value table and its spread table: every switch of file evicts. */
  penk_context_set_table_cache_mb(ctx, 20);
  struct worker w[3];
  memset(w, 0, sizeof w);
  w[0].game = new_game("oooo./ooo.o/oo.oo/o.ooo/.oooo");
  w[1].game = new_game("ooo.o/oooo./oo.oo/.oooo/o.ooo");
  pthread_t t[3];
  pthread_create(&t[0], NULL, hint_loop, &w[0]);
  pthread_create(&t[1], NULL, hint_loop, &w[1]);
  pthread_create(&t[2], NULL, context_loop, &w[2]);
  int failures = 0;
  for (int i = 0; i < 3; ++i) {
    pthread_join(t[i], NULL);
    if (w[i].failures) fprintf(stderr, "capi_threads: thread %d: %d failures, first: %s\n", i,
                               w[i].failures, w[i].message);
    failures += w[i].failures;
  }
  penk_game_destroy(w[0].game);
  penk_game_destroy(w[1].game);
  penk_context_destroy(ctx);
  if (failures) return 1;
  printf("capi_threads: 2 games and their context on 3 threads, %d rounds each: all answered\n",
         rounds);
  return 0;
}
