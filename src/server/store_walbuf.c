/* store_walbuf.c — an SQLite VFS that gathers a write-ahead log's writes into
 * one system call a commit (store_int.h: store_walbuf_vfs).
 *
 * SQLite writes each frame of its log with two pwrite calls (the frame's
 * 24-byte header, then the page): about 25 calls for a commit of 15 moves,
 * each several µs of kernel time in this virtual machine (docs/benchmarks.md).
 * This VFS wraps the default one and, for a log file only, keeps consecutive
 * writes in a buffer and hands them to the file in one pwrite when anything
 * else touches the file: a sync, a read, a size, a truncation, a write that
 * does not continue the buffer or would overflow it, a file control, the
 * close. Every other file (the database, its shared memory, journals) and
 * every other method goes straight to the default VFS.
 *
 * Why nothing is lost or seen early: the store runs with synchronous=FULL, so
 * SQLite syncs the log at every commit, before it publishes the commit in the
 * log's index (sqlite3WalFrames); the sync writes the buffer first and fails
 * if that write fails, and then the commit fails as it would have. A reader
 * (the checkpoint thread's connection, another process) only reads frames a
 * published commit covers, so written ones. A connection that reads its own
 * unpublished frames back (a spilled page) reads through this file, which
 * writes the buffer first. The buffer belongs to one file handle, which one
 * connection uses from one thread at a time.
 */
#include "store_int.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#define WB_NAME "parlour-walbuf"
/* The largest batch of writes held: below 128 KiB, because the unix VFS
 * writes at most 0x1ffff bytes a call (seekAndWrite masks the length with
 * it: a longer write is done in pieces, and one of exactly 128 KiB fails as
 * "disk full"). */
#define WB_CAP (120 * 1024)

typedef struct {
    sqlite3_file base;   /* pMethods: &wb_io */
    sqlite3_file *real;  /* the default VFS's file, allocated after this */
    int wal;             /* a write-ahead log: buffer its writes */
    unsigned char *buf;  /* the bytes not yet written (wal only) */
    size_t len;          /* how many */
    sqlite3_int64 off;   /* where the first of them goes in the file */
} wb_file;

static sqlite3_vfs *wb_real_vfs(void);

/* Writes the buffer to the file. Returns SQLITE_OK or the write's error;
 * the buffer is emptied either way (SQLite abandons the transaction on an
 * error, and those frames with it). */
static int wb_flush(wb_file *f)
{
    if (!f->len)
        return SQLITE_OK;
    int rc = f->real->pMethods->xWrite(f->real, f->buf, (int)f->len, f->off);
    f->len = 0;
    return rc;
}

static int wb_close(sqlite3_file *pf)
{
    wb_file *f = (wb_file *)pf;
    int rc = wb_flush(f);
    int rc2 = f->real->pMethods ? f->real->pMethods->xClose(f->real) : SQLITE_OK;
    free(f->buf);
    f->buf = NULL;
    return rc != SQLITE_OK ? rc : rc2;
}

static int wb_read(sqlite3_file *pf, void *out, int n, sqlite3_int64 off)
{
    wb_file *f = (wb_file *)pf;
    int rc = wb_flush(f);
    return rc != SQLITE_OK ? rc : f->real->pMethods->xRead(f->real, out, n, off);
}

static int wb_write(sqlite3_file *pf, const void *in, int n, sqlite3_int64 off)
{
    wb_file *f = (wb_file *)pf;
    if (f->wal && f->buf && n > 0 && (size_t)n <= WB_CAP) {
        if (f->len && (off != f->off + (sqlite3_int64)f->len || f->len + (size_t)n > WB_CAP)) {
            int rc = wb_flush(f);
            if (rc != SQLITE_OK)
                return rc;
        }
        if (!f->len)
            f->off = off;
        memcpy(f->buf + f->len, in, (size_t)n);
        f->len += (size_t)n;
        return SQLITE_OK;
    }
    int rc = wb_flush(f);
    return rc != SQLITE_OK ? rc : f->real->pMethods->xWrite(f->real, in, n, off);
}

static int wb_truncate(sqlite3_file *pf, sqlite3_int64 size)
{
    wb_file *f = (wb_file *)pf;
    int rc = wb_flush(f);
    return rc != SQLITE_OK ? rc : f->real->pMethods->xTruncate(f->real, size);
}

static int wb_sync(sqlite3_file *pf, int flags)
{
    wb_file *f = (wb_file *)pf;
    int rc = wb_flush(f);
    return rc != SQLITE_OK ? rc : f->real->pMethods->xSync(f->real, flags);
}

static int wb_size(sqlite3_file *pf, sqlite3_int64 *size)
{
    wb_file *f = (wb_file *)pf;
    int rc = wb_flush(f);
    return rc != SQLITE_OK ? rc : f->real->pMethods->xFileSize(f->real, size);
}

static int wb_lock(sqlite3_file *pf, int level)
{
    wb_file *f = (wb_file *)pf;
    return f->real->pMethods->xLock(f->real, level);
}

static int wb_unlock(sqlite3_file *pf, int level)
{
    wb_file *f = (wb_file *)pf;
    return f->real->pMethods->xUnlock(f->real, level);
}

static int wb_check_lock(sqlite3_file *pf, int *out)
{
    wb_file *f = (wb_file *)pf;
    return f->real->pMethods->xCheckReservedLock(f->real, out);
}

static int wb_control(sqlite3_file *pf, int op, void *arg)
{
    wb_file *f = (wb_file *)pf;
    int rc = wb_flush(f);
    if (rc != SQLITE_OK)
        return rc;
    if (op == SQLITE_FCNTL_VFSNAME && arg) { /* name this layer too */
        rc = f->real->pMethods->xFileControl(f->real, op, arg);
        if (rc == SQLITE_OK) {
            char *below = *(char **)arg;
            *(char **)arg = sqlite3_mprintf(WB_NAME "/%z", below);
        }
        return rc;
    }
    return f->real->pMethods->xFileControl(f->real, op, arg);
}

static int wb_sector(sqlite3_file *pf)
{
    wb_file *f = (wb_file *)pf;
    return f->real->pMethods->xSectorSize(f->real);
}

static int wb_caps(sqlite3_file *pf)
{
    wb_file *f = (wb_file *)pf;
    return f->real->pMethods->xDeviceCharacteristics(f->real);
}

/* The shared memory and the mapping (version 2 and 3 methods): the
 * database file's, passed through; a default VFS without them answers as
 * SQLite expects of a file that has none. */
static int wb_shm_map(sqlite3_file *pf, int pg, int pgsz, int extend, void volatile **pp)
{
    wb_file *f = (wb_file *)pf;
    if (f->real->pMethods->iVersion < 2)
        return SQLITE_IOERR_SHMMAP;
    return f->real->pMethods->xShmMap(f->real, pg, pgsz, extend, pp);
}

static int wb_shm_lock(sqlite3_file *pf, int off, int n, int flags)
{
    wb_file *f = (wb_file *)pf;
    if (f->real->pMethods->iVersion < 2)
        return SQLITE_IOERR_SHMLOCK;
    return f->real->pMethods->xShmLock(f->real, off, n, flags);
}

static void wb_shm_barrier(sqlite3_file *pf)
{
    wb_file *f = (wb_file *)pf;
    if (f->real->pMethods->iVersion >= 2)
        f->real->pMethods->xShmBarrier(f->real);
}

static int wb_shm_unmap(sqlite3_file *pf, int del)
{
    wb_file *f = (wb_file *)pf;
    if (f->real->pMethods->iVersion < 2)
        return SQLITE_OK;
    return f->real->pMethods->xShmUnmap(f->real, del);
}

static int wb_fetch(sqlite3_file *pf, sqlite3_int64 off, int n, void **pp)
{
    wb_file *f = (wb_file *)pf;
    if (f->real->pMethods->iVersion < 3) {
        *pp = NULL;
        return SQLITE_OK;
    }
    int rc = wb_flush(f);
    return rc != SQLITE_OK ? rc : f->real->pMethods->xFetch(f->real, off, n, pp);
}

static int wb_unfetch(sqlite3_file *pf, sqlite3_int64 off, void *p)
{
    wb_file *f = (wb_file *)pf;
    if (f->real->pMethods->iVersion < 3)
        return SQLITE_OK;
    return f->real->pMethods->xUnfetch(f->real, off, p);
}

static const sqlite3_io_methods wb_io = {
    3,           wb_close,     wb_read,      wb_write,       wb_truncate,  wb_sync,
    wb_size,     wb_lock,      wb_unlock,    wb_check_lock,  wb_control,   wb_sector,
    wb_caps,     wb_shm_map,   wb_shm_lock,  wb_shm_barrier, wb_shm_unmap, wb_fetch,
    wb_unfetch,
};

static int wb_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *pf, int flags, int *out_flags)
{
    (void)vfs;
    wb_file *f = (wb_file *)pf;
    memset(f, 0, sizeof *f);
    f->real = (sqlite3_file *)(f + 1);
    f->wal = (flags & SQLITE_OPEN_WAL) != 0;
    if (f->wal) {
        f->buf = malloc(WB_CAP);
        if (!f->buf)
            return SQLITE_NOMEM;
    }
    sqlite3_vfs *real = wb_real_vfs();
    int rc = real->xOpen(real, name, f->real, flags, out_flags);
    /* SQLite calls xClose whenever pMethods is set after xOpen, even when
     * it failed: set it exactly when the file below needs closing. */
    f->base.pMethods = f->real->pMethods ? &wb_io : NULL;
    if (!f->base.pMethods) {
        free(f->buf);
        f->buf = NULL;
    }
    return rc;
}

/* The VFS's other methods: the default VFS's, given the default VFS. */
static int wb_delete(sqlite3_vfs *v, const char *name, int sync_dir)
{
    (void)v;
    return wb_real_vfs()->xDelete(wb_real_vfs(), name, sync_dir);
}

static int wb_access(sqlite3_vfs *v, const char *name, int flags, int *out)
{
    (void)v;
    return wb_real_vfs()->xAccess(wb_real_vfs(), name, flags, out);
}

static int wb_full(sqlite3_vfs *v, const char *name, int n, char *out)
{
    (void)v;
    return wb_real_vfs()->xFullPathname(wb_real_vfs(), name, n, out);
}

static void *wb_dl_open(sqlite3_vfs *v, const char *name)
{
    (void)v;
    return wb_real_vfs()->xDlOpen(wb_real_vfs(), name);
}

static void wb_dl_error(sqlite3_vfs *v, int n, char *out)
{
    (void)v;
    wb_real_vfs()->xDlError(wb_real_vfs(), n, out);
}

static void (*wb_dl_sym(sqlite3_vfs *v, void *h, const char *sym))(void)
{
    (void)v;
    return wb_real_vfs()->xDlSym(wb_real_vfs(), h, sym);
}

static void wb_dl_close(sqlite3_vfs *v, void *h)
{
    (void)v;
    wb_real_vfs()->xDlClose(wb_real_vfs(), h);
}

static int wb_random(sqlite3_vfs *v, int n, char *out)
{
    (void)v;
    return wb_real_vfs()->xRandomness(wb_real_vfs(), n, out);
}

static int wb_sleep(sqlite3_vfs *v, int us)
{
    (void)v;
    return wb_real_vfs()->xSleep(wb_real_vfs(), us);
}

static int wb_time(sqlite3_vfs *v, double *out)
{
    (void)v;
    return wb_real_vfs()->xCurrentTime(wb_real_vfs(), out);
}

static int wb_last_error(sqlite3_vfs *v, int n, char *out)
{
    (void)v;
    sqlite3_vfs *r = wb_real_vfs();
    return r->xGetLastError ? r->xGetLastError(r, n, out) : 0;
}

static int wb_time64(sqlite3_vfs *v, sqlite3_int64 *out)
{
    (void)v;
    sqlite3_vfs *r = wb_real_vfs();
    if (r->iVersion >= 2 && r->xCurrentTimeInt64)
        return r->xCurrentTimeInt64(r, out);
    double d;
    int rc = r->xCurrentTime(r, &d);
    *out = (sqlite3_int64)(d * 86400000.0);
    return rc;
}

static sqlite3_vfs wb_vfs = {
    .iVersion = 2,
    .zName = WB_NAME,
    .xOpen = wb_open,
    .xDelete = wb_delete,
    .xAccess = wb_access,
    .xFullPathname = wb_full,
    .xDlOpen = wb_dl_open,
    .xDlError = wb_dl_error,
    .xDlSym = wb_dl_sym,
    .xDlClose = wb_dl_close,
    .xRandomness = wb_random,
    .xSleep = wb_sleep,
    .xCurrentTime = wb_time,
    .xGetLastError = wb_last_error,
    .xCurrentTimeInt64 = wb_time64,
};

static sqlite3_vfs *wb_below;
static int wb_ok;
static pthread_once_t wb_once = PTHREAD_ONCE_INIT;

static sqlite3_vfs *wb_real_vfs(void)
{
    return wb_below;
}

static void wb_register(void)
{
    wb_below = sqlite3_vfs_find(NULL);
    if (!wb_below || sqlite3_initialize() != SQLITE_OK)
        return;
    wb_vfs.szOsFile = (int)sizeof(wb_file) + wb_below->szOsFile;
    wb_vfs.mxPathname = wb_below->mxPathname;
    wb_ok = sqlite3_vfs_register(&wb_vfs, 0) == SQLITE_OK;
}

const char *store_walbuf_vfs(void)
{
    pthread_once(&wb_once, wb_register);
    return wb_ok ? WB_NAME : NULL;
}
