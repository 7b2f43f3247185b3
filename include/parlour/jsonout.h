/* jsonout.h — jansson values written as compact JSON with sorted keys, fast.
 *
 * pl_json_dump writes exactly the bytes json_dumps(j, JSON_COMPACT |
 * JSON_SORT_KEYS | JSON_ENCODE_ANY) writes, at a fraction of its cost: no
 * printf for integers, no allocation per object for the sorted keys, one
 * growable buffer. What it does not write itself (reals, strings with bytes
 * above 0x7f, whose UTF-8 jansson checks) it hands to jansson for that
 * value, so the text is jansson's in every case (test_unit_core compares
 * them). The server writes every state with it (docs/benchmarks.md, "The
 * server under load"). Thread-safe: no shared state.
 */
#ifndef PARLOUR_JSONOUT_H
#define PARLOUR_JSONOUT_H
#include <jansson.h>

#include "parlour/buf.h"

/* Appends `j` to `out` as json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS |
 * JSON_ENCODE_ANY) would write it. Returns 0, or -1 when memory ran out or
 * jansson refuses the value (a string that is not UTF-8, a NaN): `out` is
 * then cut back to its length before the call. */
int pl_json_dump(const json_t *j, pl_buf *out);

/* Appends the string `s` (NUL-terminated) as pl_json_dump writes a string
 * value: for a writer that makes a JSON text piece by piece. Returns 0, or
 * -1 (`out` cut back) as pl_json_dump. */
int pl_json_put_string(pl_buf *out, const char *s);

/* Appends the integer `v` as pl_json_dump writes it; sets out->oom when
 * memory runs out. */
void pl_json_put_int(pl_buf *out, long long v);

#endif
