/* record.h — game records as JSON (docs/records.md).
 *
 * A record holds the game id, every option, the seed, who sat where, every
 * action in notation (chance included) and the result. Loading re-applies
 * every action through the rules; the first invalid one is reported by its
 * number and text. Not thread-safe (one owner per call).
 */
#ifndef PARLOUR_RECORD_H
#define PARLOUR_RECORD_H

#include "parlour/match.h"

/* Appends the record of `m` as one line of JSON (keys sorted). */
int pl_record_write(const pl_match *m, pl_buf *out);
/* Builds a match from a record's JSON text. Returns the match, or NULL with
 * a message naming the field or action that is wrong. */
pl_match *pl_record_read(const char *json, pl_buf *err);
/* Reads/writes a record file. NULL/-1 with a message on failure. */
pl_match *pl_record_load_file(const char *path, pl_buf *err);
int pl_record_save_file(const pl_match *m, const char *path, pl_buf *err);

#endif
