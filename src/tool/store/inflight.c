/* inflight.c: the marks of what a process has in flight in a store (inflight.h; table
 * in_flight): made before a point is measured or a tuning run begins, cleared when it ends, and
 * reaped once their process is gone. Each public function runs its _locked twin under the
 * connection's lock (store_int.h). */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "inflight.h"
#include "tuning_int.h"

/* ---- the owner: this process image ------------------------------------------------------------ */

typedef struct owner {
    char host[256], boot[64];
    long long pid, start, nonce;
} owner_t;

static owner_t self; /* made at the first mark, again in a child that fork() made */
static int proc_ok;  /* /proc tells a pid's start time */
static pthread_mutex_t self_lock = PTHREAD_MUTEX_INITIALIZER;

/* The start time of process pid (field 22 of /proc/PID/stat, in clock ticks since boot): -1
 * when there is no such process, -2 when /proc cannot tell. */
static long long proc_start(long long pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%lld/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return errno == ENOENT || errno == ESRCH ? -1 : -2;
    const size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *p = strrchr(buf, ')'), *save = NULL; /* the command name may hold spaces */
    if (!p)
        return -2;
    int field = 2;
    for (char *tok = strtok_r(p + 1, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
        if (++field == 22)
            return strtoll(tok, NULL, 10);
    return -2;
}

static void self_init(void)
{
    if (gethostname(self.host, sizeof self.host - 1) != 0)
        self.host[0] = '\0';
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    if (f) {
        if (!fgets(self.boot, sizeof self.boot, f))
            self.boot[0] = '\0';
        self.boot[strcspn(self.boot, "\n")] = '\0';
        fclose(f);
    }
    self.pid = (long long)getpid();
    self.start = proc_start(self.pid);
    proc_ok = self.start >= 0;
    if (!proc_ok)
        self.start = 0;
    /* A number of this image's own: an exec keeps the pid and its start time. */
    unsigned long long r = 0;
    if ((f = fopen("/dev/urandom", "rb")) != NULL) {
        if (fread(&r, sizeof r, 1, f) != 1)
            r = 0;
        fclose(f);
    }
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    r ^= (unsigned long long)ts.tv_nsec * 0x9e3779b97f4a7c15ull ^ (unsigned long long)ts.tv_sec ^
         ((unsigned long long)self.pid << 32);
    self.nonce = (long long)(r >> 1); /* positive: SQLite's integers are signed */
}

static const owner_t *me(void)
{
    pthread_mutex_lock(&self_lock);
    if (self.pid != (long long)getpid())
        self_init();
    pthread_mutex_unlock(&self_lock);
    return &self;
}

/* Is o's process alive? 1 yes (or it cannot be known: another host), 0 gone; *earlier: o is an
 * earlier image of this very process (it exec'd itself since). */
static int alive(const owner_t *o, int *earlier)
{
    const owner_t *s = me();
    *earlier = 0;
    if (strcmp(o->host, s->host))
        return 1;
    if (o->boot[0] && s->boot[0] && strcmp(o->boot, s->boot))
        return 0; /* the host booted since */
    if (o->pid == s->pid && o->start == s->start) {
        *earlier = o->nonce != s->nonce;
        return !*earlier;
    }
    if (proc_ok) {
        const long long st = proc_start(o->pid);
        if (st == -1)
            return 0;
        if (st >= 0)
            return st == o->start; /* else the pid is another process's now */
    }
    return !(kill((pid_t)o->pid, 0) != 0 && errno == ESRCH);
}

/* ---- the table --------------------------------------------------------------------------------- */

int gb_store__inflight_table(gb_store_t *st)
{
    return gb_store__exec(st, "CREATE TABLE IF NOT EXISTS in_flight(key TEXT PRIMARY KEY NOT NULL, "
                              "kernel TEXT NOT NULL, params TEXT NOT NULL, what TEXT NOT NULL, "
                              "host TEXT NOT NULL, boot TEXT NOT NULL, pid INTEGER NOT NULL, "
                              "start INTEGER NOT NULL, nonce INTEGER NOT NULL, "
                              "since TEXT NOT NULL)");
}

static int mark(gb_store_t *st, const char *key, const char *kernel, const char *params,
                const char *what)
{
    const owner_t *o = me();
    sqlite3_stmt *q = NULL;
    char when[32];
    gb_store__utc_now(when);
    int rc = gb_store__inflight_table(st);
    if (rc == GB_OK)
        rc = gb_store__prepare(st,
                               "INSERT OR REPLACE INTO in_flight VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, "
                               "?)",
                               &q);
    if (rc != GB_OK)
        return rc;
    const char *text[] = {key, kernel, params, what, o->host, o->boot};
    for (int i = 0; i < 6; i++)
        sqlite3_bind_text(q, i + 1, text[i], -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 7, (sqlite3_int64)o->pid);
    sqlite3_bind_int64(q, 8, (sqlite3_int64)o->start);
    sqlite3_bind_int64(q, 9, (sqlite3_int64)o->nonce);
    sqlite3_bind_text(q, 10, when, -1, SQLITE_STATIC);
    if (sqlite3_step(q) != SQLITE_DONE)
        rc = gb_store__fail_db(st, "marking what is in flight");
    sqlite3_finalize(q);
    return rc;
}

/* Deletes key's mark where it is owner's (this process's: NULL). */
static int unmark(gb_store_t *st, const char *key, const owner_t *owner)
{
    const owner_t *o = owner ? owner : me();
    int rc = gb_store__has_table(st, "in_flight");
    if (rc <= 0)
        return rc;
    sqlite3_stmt *q = NULL;
    if ((rc = gb_store__prepare(st,
                                "DELETE FROM in_flight WHERE key = ? AND host = ? AND pid = ? AND "
                                "start = ? AND nonce = ?",
                                &q)) != GB_OK)
        return rc;
    sqlite3_bind_text(q, 1, key, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, o->host, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 3, (sqlite3_int64)o->pid);
    sqlite3_bind_int64(q, 4, (sqlite3_int64)o->start);
    sqlite3_bind_int64(q, 5, (sqlite3_int64)o->nonce);
    if (sqlite3_step(q) != SQLITE_DONE)
        rc = gb_store__fail_db(st, "clearing what was in flight");
    sqlite3_finalize(q);
    return rc;
}

int gb_store_inflight_begin(gb_store_t *st, const char *id, const char *kernel, const char *params,
                            const char *what)
{
    gb_store__lock(st);
    const int rc = gb_select__is_id(id) ? mark(st, id, kernel, params, what)
                                        : gb_store__failf(st, GB_EBADARG,
                                                          "in flight: bad point id '%s' (16 hex "
                                                          "digits)",
                                                          id);
    gb_store__unlock(st);
    return rc;
}

int gb_store_inflight_end(gb_store_t *st, const char *id)
{
    gb_store__lock(st);
    const int rc = unmark(st, id, NULL);
    gb_store__unlock(st);
    return rc;
}

int gb_store__inflight_run_begin(gb_store_t *st, int64_t id)
{
    char key[40];
    snprintf(key, sizeof key, "run:%lld", (long long)id);
    return mark(st, key, "", "", "a tuning run");
}

int gb_store__inflight_run_end(gb_store_t *st, int64_t id)
{
    char key[40];
    snprintf(key, sizeof key, "run:%lld", (long long)id);
    return unmark(st, key, NULL);
}

/* ---- reaping ----------------------------------------------------------------------------------- */

/* A mark whose process is gone. */
typedef struct dead {
    char key[40];
    gb_tune_failure_t f; /* kernel and params, and what it was in reason */
    owner_t o;
    int earlier;
} dead_t;

static const char *signal_name(int sig, char *buf, size_t len)
{
    static const struct {
        int sig;
        const char *name;
    } names[] = {{SIGABRT, "SIGABRT"}, {SIGSEGV, "SIGSEGV"}, {SIGBUS, "SIGBUS"},
                 {SIGILL, "SIGILL"},   {SIGFPE, "SIGFPE"},   {SIGKILL, "SIGKILL"}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].sig == sig)
            return names[i].name;
    snprintf(buf, len, "signal %d", sig);
    return buf;
}

/* The marks of the processes that are gone, into *out (caller frees). */
static int find_dead(gb_store_t *st, dead_t **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    sqlite3_stmt *q = NULL;
    int rc = gb_store__prepare(st,
                               "SELECT key, kernel, params, what, host, boot, pid, start, nonce "
                               "FROM in_flight ORDER BY since, key",
                               &q);
    if (rc != GB_OK)
        return rc;
    size_t cap = 0;
    int step;
    while (rc == GB_OK && (step = sqlite3_step(q)) == SQLITE_ROW) {
        dead_t d;
        memset(&d, 0, sizeof d);
        if (!gb_store__copy_col(q, 0, d.key, sizeof d.key) ||
            !gb_store__copy_col(q, 1, d.f.kernel, sizeof d.f.kernel) ||
            !gb_store__copy_col(q, 2, d.f.params, sizeof d.f.params) ||
            !gb_store__copy_col(q, 3, d.f.reason, sizeof d.f.reason) ||
            !gb_store__copy_col(q, 4, d.o.host, sizeof d.o.host) ||
            !gb_store__copy_col(q, 5, d.o.boot, sizeof d.o.boot))
            continue; /* not a mark gemmbench made: left alone */
        d.o.pid = (long long)sqlite3_column_int64(q, 6);
        d.o.start = (long long)sqlite3_column_int64(q, 7);
        d.o.nonce = (long long)sqlite3_column_int64(q, 8);
        if (alive(&d.o, &d.earlier))
            continue;
        if (gb__grow(out, &cap, *n + 1, sizeof **out) != GB_OK)
            rc = gb_store__failf(st, GB_ENOMEM, "out of memory");
        else
            (*out)[(*n)++] = d;
    }
    if (rc == GB_OK && step != SQLITE_DONE)
        rc = gb_store__fail_db(st, "reading what was in flight");
    sqlite3_finalize(q);
    return rc;
}

/* A dead process's run: "died" where it was still "running". */
static int run_died(gb_store_t *st, const char *key)
{
    int rc = gb_store__has_table(st, "tune_runs");
    if (rc <= 0)
        return rc;
    sqlite3_stmt *q = NULL;
    char when[32];
    gb_store__utc_now(when);
    if ((rc = gb_store__prepare(st,
                                "UPDATE tune_runs SET status = 'died', finished = ? WHERE id = ? "
                                "AND status = 'running'",
                                &q)) != GB_OK)
        return rc;
    sqlite3_bind_text(q, 1, when, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 2, (sqlite3_int64)strtoll(key + 4, NULL, 10));
    if (sqlite3_step(q) != SQLITE_DONE)
        rc = gb_store__fail_db(st, "marking a dead tuning run");
    sqlite3_finalize(q);
    return rc;
}

/* A point the process crashed on: a failure GB_ECRASH, unless one is recorded. 1 when it was
 * recorded now, 0 when one was there, or an error. */
static int crash_failure(gb_store_t *st, dead_t *d, int sig)
{
    char sb[24];
    char what[sizeof d->f.reason];
    snprintf(what, sizeof what, "%s", d->f.reason);
    memcpy(d->f.id, d->key, sizeof d->f.id);
    d->f.id[GB_POINT_ID_LEN] = '\0';
    d->f.code = GB_ECRASH;
    snprintf(d->f.reason, sizeof d->f.reason,
             "the process crashed (%s) while it measured %.300s: not run again",
             signal_name(sig, sb, sizeof sb), what);
    gb_store__utc_now(d->f.timestamp);
    int rc = gb_store__tuning_tables(st);
    sqlite3_stmt *q = NULL;
    if (rc == GB_OK)
        rc = gb_store__prepare(st, "INSERT OR IGNORE INTO tune_failures VALUES(?, ?, ?, ?, ?, ?)",
                               &q);
    if (rc != GB_OK)
        return rc;
    sqlite3_bind_text(q, 1, d->f.id, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, d->f.kernel, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 3, d->f.params, -1, SQLITE_STATIC);
    sqlite3_bind_int(q, 4, d->f.code);
    sqlite3_bind_text(q, 5, d->f.reason, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 6, d->f.timestamp, -1, SQLITE_STATIC);
    if (sqlite3_step(q) != SQLITE_DONE)
        rc = gb_store__fail_db(st, "recording a crash");
    else
        rc = sqlite3_changes(st->db) > 0;
    sqlite3_finalize(q);
    return rc;
}

static int reap_locked(gb_store_t *st, int sig, void (*fn)(const gb_tune_failure_t *f, void *user),
                       void *user, size_t *crashed)
{
    int rc = gb_store__has_table(st, "in_flight");
    if (rc <= 0)
        return rc;
    dead_t *d = NULL;
    size_t n = 0, told = 0;
    if ((rc = find_dead(st, &d, &n)) != GB_OK || !n) {
        free(d);
        return rc;
    }
    rc = gb_store__exec(st, "SAVEPOINT reap");
    for (size_t i = 0; rc == GB_OK && i < n; i++) {
        if (!strncmp(d[i].key, "run:", 4))
            rc = run_died(st, d[i].key);
        else if (sig && d[i].earlier && gb_select__is_id(d[i].key) &&
                 (rc = crash_failure(st, &d[i], sig)) == 1) {
            d[i].earlier = 2; /* recorded now: told below */
            told++;
            rc = GB_OK;
        }
        if (rc == GB_OK)
            rc = unmark(st, d[i].key, &d[i].o);
    }
    if (rc == GB_OK)
        rc = gb_store__exec(st, "RELEASE reap");
    else
        sqlite3_exec(st->db, "ROLLBACK TO reap; RELEASE reap", NULL, NULL, NULL);
    for (size_t i = 0; rc == GB_OK && i < n; i++)
        if (d[i].earlier == 2 && fn)
            fn(&d[i].f, user);
    if (crashed)
        *crashed = rc == GB_OK ? told : 0;
    free(d);
    return rc;
}

int gb_store__inflight_reap_locked(gb_store_t *st)
{
    return reap_locked(st, 0, NULL, NULL, NULL);
}

int gb_store_inflight_reap(gb_store_t *st, int crash_signal,
                           void (*fn)(const gb_tune_failure_t *f, void *user), void *user,
                           size_t *crashed)
{
    if (crashed)
        *crashed = 0;
    gb_store__lock(st);
    const int rc = reap_locked(st, crash_signal, fn, user, crashed);
    gb_store__unlock(st);
    return rc;
}

int gb_store_crashed(gb_store_t *st, const char *id)
{
    gb_tune_failure_t f;
    const int rc = gb_store_failure_get(st, id, &f);
    return rc == GB_OK ? f.code == GB_ECRASH : rc == GB_ENOPOINT ? 0 : rc;
}

static int crashes_locked(gb_store_t *st, size_t *n)
{
    *n = 0;
    int rc = gb_store__has_table(st, "tune_failures");
    if (rc <= 0)
        return rc;
    sqlite3_stmt *q = NULL;
    if ((rc = gb_store__prepare(st, "SELECT count(*) FROM tune_failures WHERE code = ?", &q)) !=
        GB_OK)
        return rc;
    sqlite3_bind_int(q, 1, GB_ECRASH);
    int64_t count;
    if ((rc = gb_store__step_int(st, q, "counting crashes", &count)) == GB_OK)
        *n = (size_t)count;
    return rc;
}

int gb_store_crashes(gb_store_t *st, size_t *n)
{
    gb_store__lock(st);
    const int rc = crashes_locked(st, n);
    gb_store__unlock(st);
    return rc;
}
