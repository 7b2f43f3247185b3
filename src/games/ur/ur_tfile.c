/* ur_tfile.c — table files of the Ur solvers (ur_tfile.h): one writer and
 * one reader of the shared layout, so both solvers' files stay alike. */
#include "ur_tfile.h"

#include <string.h>

int urt_save(const char *path, const char magic[8], const int32_t *hdr, int nhdr, uint64_t count, const void *v,
             pl_buf *err)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        pl_buf_printf(err, "cannot write %s", path);
        return -1;
    }
    int ok = fwrite(magic, 1, 8, f) == 8 && fwrite(hdr, sizeof *hdr, (size_t)nhdr, f) == (size_t)nhdr &&
             fwrite(&count, sizeof count, 1, f) == 1 && fwrite(v, sizeof(double), (size_t)count, f) == (size_t)count;
    ok = (fclose(f) == 0) && ok;
    if (!ok)
        pl_buf_printf(err, "error writing %s", path);
    return ok ? 0 : -1;
}

FILE *urt_open(const char *path, const char magic[8], int32_t *hdr, int nhdr, uint64_t *count, const char *not_mine,
               pl_buf *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        pl_buf_printf(err, "cannot open %s", path);
        return NULL;
    }
    char m[8];
    if (fread(m, 1, 8, f) != 8 || memcmp(m, magic, 8) != 0 ||
        fread(hdr, sizeof *hdr, (size_t)nhdr, f) != (size_t)nhdr || fread(count, sizeof *count, 1, f) != 1) {
        pl_buf_printf(err, "%s %s", path, not_mine);
        fclose(f);
        return NULL;
    }
    return f;
}

int urt_finish(FILE *f, const char *path, void *v, uint64_t count, pl_buf *err)
{
    int ok = !v || fread(v, sizeof(double), (size_t)count, f) == (size_t)count;
    fclose(f);
    if (!ok)
        pl_buf_printf(err, "%s: truncated", path);
    return ok ? 0 : -1;
}
