/* ur_tfile.h — the file layout the Ur solvers' tables share (Finkel's and
 * Skiryuk's): an 8-byte magic naming the rules, a header of int32 fields
 * the solver chooses, the number of values as a uint64, then the values as
 * doubles; all in the machine's own byte order (a table is read where it
 * was written). The layout is fixed: tables written by earlier builds must
 * still load, so nothing here may change a byte.
 * Threading: no state; calls on different files may run at once.
 */
#ifndef UR_TFILE_H
#define UR_TFILE_H

#if !defined(PARLOUR_IN_GAMES)
#error "ur_tfile.h is internal to the games layer (src/games/ur): other layers use include/parlour/game.h"
#endif

#include <stdint.h>
#include <stdio.h>

#include "parlour/buf.h"

/* Writes a table file at `path`: magic (8 bytes), hdr[0..nhdr), count, then
 * v[0..count). 0, or -1 with "cannot write PATH" / "error writing PATH" in
 * err (the file may then be partly written). */
int urt_save(const char *path, const char magic[8], const int32_t *hdr, int nhdr, uint64_t count, const void *v,
             pl_buf *err);

/* Opens the table file at `path` and reads its head into hdr[0..nhdr) and
 * *count: the file, positioned at the values, for urt_finish. NULL when it
 * cannot be opened ("cannot open PATH") or its head is short or has another
 * magic ("PATH NOT_MINE", e.g. "is not a Finkel table (...)"); nothing is
 * left open then. */
FILE *urt_open(const char *path, const char magic[8], int32_t *hdr, int nhdr, uint64_t *count, const char *not_mine,
               pl_buf *err);

/* Reads the `count` values into v (NULL: reads none) and closes f, in every
 * case. 0, or -1 with "PATH: truncated" when fewer values are there. */
int urt_finish(FILE *f, const char *path, void *v, uint64_t count, pl_buf *err);

#endif
