/* store_backend.h — the backends that test_unit_store.c and
 * test_unit_account.c run each of their cases on: SQLite (each file names
 * its own databases) and PostgreSQL, one throw-away cluster for a cmocka
 * group (deploy/pg.sh, unless PARLOUR_PG_URL names one already running), a
 * database per test. Where no cluster can be had, the PostgreSQL cases are
 * skipped with the reason, not failed. Built into those two tests only. */
#ifndef TEST_STORE_BACKEND_H
#define TEST_STORE_BACKEND_H

#include <stddef.h>
#if defined(PARLOUR_WITH_PG)
#include <libpq-fe.h>
#endif

/* One backend under test: `fresh` names a new, empty database for a test
 * (a file, or a database created in the cluster), `drop` removes it. */
typedef struct {
    const char *name;
    int sqlite;
    const char *skip; /* why the backend's cases are skipped, or NULL */
    void (*fresh)(char *out, size_t n, const char *name);
    void (*drop)(const char *path);
} backend;

/* Skips the current test when the running group's backend `B` (each test
 * file's own) is unavailable. */
#define NEED_BACKEND()                                                  \
    do {                                                                \
        if (B->skip) {                                                  \
            print_message("[ SKIP     ] %s: %s\n", B->name, B->skip);    \
            skip();                                                     \
        }                                                               \
    } while (0)

/* PostgreSQL; its `skip` says why until tsb_pg_start has a cluster. */
extern backend tsb_pg;
/* 1 when the cluster counts statements (pg_stat_statements loaded). */
extern int tsb_pg_statements;

/* A cmocka group's setup: a cluster for the group, started with deploy/pg.sh
 * in a temporary folder (with pg_stat_statements preloaded when
 * `statements`) unless PARLOUR_PG_URL names one; its databases are named
 * "PREFIX_NAME_PID". 0 (with tsb_pg.skip set when PostgreSQL is missing or
 * this program was built without libpq), or -1 when a cluster that should
 * start does not. */
int tsb_pg_start(const char *prefix, int statements);
/* The group's teardown: closes the administrator's connection and removes
 * the cluster this program started, if any. 0. */
int tsb_pg_stop(void);

#if defined(PARLOUR_WITH_PG)
/* The cluster's administrator connection (after tsb_pg_start), or NULL. */
PGconn *tsb_pg_admin(void);
#endif

#endif
