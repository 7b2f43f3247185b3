/* store_backend.c — the PostgreSQL backend of the store's and accounts'
 * tests (store_backend.h). */
#include "store_backend.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

backend tsb_pg = {"PostgreSQL", 0, "this program was built without libpq", NULL, NULL};
int tsb_pg_statements;
static char pg_dir[64]; /* the cluster this program started, or "" */

#if defined(PARLOUR_WITH_PG)
static char pg_url[512];   /* its database "parlour": the administrator's */
static char pg_prefix[16]; /* of the tests' database names */
static PGconn *pg_admin;

PGconn *tsb_pg_admin(void) { return pg_admin; }

static void quiet_notice(void *arg, const char *message)
{
    (void)arg, (void)message;
}

static void pg_admin_sql(const char *sql)
{
    PGresult *r = PQexec(pg_admin, sql);
    if (PQresultStatus(r) != PGRES_COMMAND_OK)
        fail_msg("%s: %s", sql, PQresultErrorMessage(r));
    PQclear(r);
}

/* A new database "PREFIX_NAME_PID" and the URL that names it. */
static void pg_fresh(char *out, size_t n, const char *name)
{
    char db[64], sql[160];
    snprintf(db, sizeof db, "%s_%s_%ld", pg_prefix, name, (long)getpid());
    snprintf(sql, sizeof sql, "DROP DATABASE IF EXISTS %s WITH (FORCE)", db);
    pg_admin_sql(sql);
    snprintf(sql, sizeof sql, "CREATE DATABASE %s", db);
    pg_admin_sql(sql);
    snprintf(out, n, "%s%cdbname=%s", pg_url, strchr(pg_url, '?') ? '&' : '?', db);
}

static void pg_drop(const char *url)
{
    const char *db = strrchr(url, '=');
    char sql[160];
    snprintf(sql, sizeof sql, "DROP DATABASE IF EXISTS %s WITH (FORCE)", db + 1);
    pg_admin_sql(sql);
}
#endif

int tsb_pg_start(const char *prefix, int statements)
{
#if defined(PARLOUR_WITH_PG)
    snprintf(pg_prefix, sizeof pg_prefix, "%s", prefix);
    const char *env = getenv("PARLOUR_PG_URL");
    if (env && *env) {
        snprintf(pg_url, sizeof pg_url, "%s", env);
    } else {
        snprintf(pg_dir, sizeof pg_dir, "/tmp/parlour-pg-XXXXXX");
        if (!mkdtemp(pg_dir)) {
            pg_dir[0] = '\0';
            tsb_pg.skip = "no temporary directory for a cluster";
            return 0;
        }
        char cmd[512];
        snprintf(cmd, sizeof cmd, "%ssh '%s/../deploy/pg.sh' start '%s'", statements ? "PG_STATEMENTS=1 " : "",
                 PARLOUR_TESTS_DIR, pg_dir);
        FILE *f = popen(cmd, "r");
        if (!f || !fgets(pg_url, sizeof pg_url, f))
            pg_url[0] = '\0';
        int status = f ? pclose(f) : -1;
        if (WIFEXITED(status) && WEXITSTATUS(status) == 2) { /* not installed */
            tsb_pg.skip = "PostgreSQL is not installed (deploy/pg.sh: no initdb/pg_ctl)";
            return 0;
        }
        if (status != 0 || !pg_url[0]) {
            print_error("deploy/pg.sh start %s failed (status %d)\n", pg_dir, status);
            return -1;
        }
        pg_url[strcspn(pg_url, "\n")] = '\0';
    }
    pg_admin = PQconnectdb(pg_url);
    if (PQstatus(pg_admin) != CONNECTION_OK) {
        print_error("PostgreSQL at %s: %s\n", pg_url, PQerrorMessage(pg_admin));
        return -1;
    }
    PQsetNoticeProcessor(pg_admin, quiet_notice, NULL);
    if (statements) {
        PGresult *r = PQexec(pg_admin, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
        tsb_pg_statements = PQresultStatus(r) == PGRES_COMMAND_OK; /* fails unless preloaded */
        PQclear(r);
    }
    tsb_pg.skip = NULL;
    tsb_pg.fresh = pg_fresh;
    tsb_pg.drop = pg_drop;
#else
    (void)prefix, (void)statements;
#endif
    return 0;
}

int tsb_pg_stop(void)
{
#if defined(PARLOUR_WITH_PG)
    PQfinish(pg_admin);
    pg_admin = NULL;
#endif
    if (pg_dir[0]) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "sh '%s/../deploy/pg.sh' clean '%s'", PARLOUR_TESTS_DIR, pg_dir);
        if (system(cmd) != 0)
            print_error("could not stop the cluster in %s\n", pg_dir);
    }
    return 0;
}
