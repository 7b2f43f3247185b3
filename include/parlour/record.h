/* record.h — game records as JSON (docs/records.md).
 *
 * A record holds the game id, every option, the seed, who sat where, every
 * action in notation (chance included) and the result. Loading re-applies
 * every action through the rules; the first invalid one is reported by its
 * number and text. Threading: a match belongs to one thread, but calls on
 * different matches may run at once (the arena's threads save records); the
 * one-time set-up of jansson's allocator is done under pthread_once.
 */
#ifndef PARLOUR_RECORD_H
#define PARLOUR_RECORD_H

#include "parlour/match.h"

/* Appends the record of `m` as one line of JSON (keys sorted). Returns 0,
 * or -1 with nothing appended when memory runs out. */
int pl_record_write(const pl_match *m, pl_buf *out);
/* Appends the record of `m` as seat `viewer` may see it (format
 * "parlour-record-view", docs/records.md): no seed, no option the game marks
 * secret (pl_game.secret_options), every action through format_action_for,
 * the keys "viewer", "start_view" (the seat's `view` of the initial state:
 * its own hand when the deal came with the options or the seed) and "view"
 * (its view now). It cannot be loaded (pl_record_read says why). It
 * is the same text whatever the cards `viewer` never saw. Returns 0, or -1
 * with nothing appended when `viewer` is not a seat or memory runs out. */
int pl_record_write_for(const pl_match *m, int viewer, pl_buf *out);
/* Builds a match from a record's JSON text. Returns the match, or NULL with
 * a message naming the field or action that is wrong. */
pl_match *pl_record_read(const char *json, pl_buf *err);
/* Sets jansson's allocator to pl_malloc/pl_free, once for the program
 * (pthread_once; any thread may call it, every call after the first does
 * nothing). Every core function that builds JSON calls it first. Cannot fail. */
void pl_json_setup(void);
/* Reads/writes a record file. NULL/-1 with a message on failure. */
pl_match *pl_record_load_file(const char *path, pl_buf *err);
int pl_record_save_file(const pl_match *m, const char *path, pl_buf *err);

#endif
