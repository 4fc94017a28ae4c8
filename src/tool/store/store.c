/* store.c: the results store's SQLite database: opening (WAL, schema version) and inserting a
 * point with its statistics and samples in one transaction. The schema and its migration:
 * schema.c; reading and checking: read.c. A connection may be shared by several handles, one
 * per thread, under one lock (gb_store_share). */
#include <errno.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "store_int.h"

const char *gb_store_default_path(char *buf, size_t len)
{
    return gb__default_store_path(buf, len);
}

static int prepare_insert(gb_store_t *st)
{
    size_t cap = 8192, len = 0;
    char *sql = malloc(cap);
    if (!sql)
        return gb_store__failf(st, GB_ENOMEM, "out of memory");
    len += (size_t)snprintf(sql, cap, "INSERT INTO points(id, definition");
    for (size_t i = 0; i < gb_store__ncols && len < cap; i++)
        len += (size_t)snprintf(sql + len, cap - len, ", %s", gb_store__cols[i].name);
    len += (size_t)snprintf(sql + len, len < cap ? cap - len : 0, ") VALUES(?, ?");
    for (size_t i = 0; i < gb_store__ncols && len < cap; i++)
        len += (size_t)snprintf(sql + len, cap - len, ", ?");
    if (len + 2 >= cap) {
        free(sql);
        return gb_store__failf(st, GB_ENOMEM, "insert statement too long");
    }
    snprintf(sql + len, cap - len, ")");
    int rc = gb_store__prepare(st, sql, &st->insert);
    free(sql);
    if (rc == GB_OK)
        rc = gb_store__prepare(st, "INSERT INTO phase_stats VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                               &st->insert_stats);
    if (rc == GB_OK)
        rc = gb_store__prepare(st, "INSERT INTO samples VALUES(?, ?, ?, ?)", &st->insert_sample);
    if (rc == GB_OK)
        rc = gb_store__prepare(st, "SELECT 1 FROM points WHERE id = ?", &st->exists);
    return rc;
}

/* What a file is before anything writes to it. */
enum { FILE_MISSING, FILE_EMPTY, FILE_SQLITE };

/* Looks at path without opening it as a database: GB_OK with *kind, or a refusal of a folder, a
 * file that is not SQLite, or one whose size is not a whole number of its pages (truncated). */
static int examine_file(gb_store_t *st, int *kind)
{
    struct stat sb;
    if (stat(st->path, &sb) != 0) {
        if (errno != ENOENT)
            return gb_store__failf(st, GB_EBADARG, "cannot read store %s: %s; check the path",
                                   st->path, strerror(errno));
        *kind = FILE_MISSING;
        return GB_OK;
    }
    if (!S_ISREG(sb.st_mode))
        return gb_store__failf(st, GB_ENOTSTORE, "store %s is not a file; give --store a file name",
                               st->path);
    if (sb.st_size == 0) {
        *kind = FILE_EMPTY;
        return GB_OK;
    }
    unsigned char head[100];
    FILE *f = fopen(st->path, "rb");
    size_t got = f ? fread(head, 1, sizeof head, f) : 0;
    if (f)
        fclose(f);
    if (!f)
        return gb_store__failf(st, GB_EBADARG, "cannot read store %s: %s; check the path", st->path,
                               strerror(errno));
    if (got < sizeof head || memcmp(head, "SQLite format 3", 16) != 0)
        return gb_store__failf(st, GB_ENOTSTORE,
                               "%s is not an SQLite database, so not a gemmbench "
                               "results store (left as it was); give another --store",
                               st->path);
    /* The page size: bytes 16-17, big-endian, 1 meaning 65536. The file is whole pages. */
    unsigned page = (unsigned)head[16] << 8 | head[17];
    if (page == 1)
        page = 65536;
    if (page < 512 || (page & (page - 1)) || (unsigned long long)sb.st_size % page != 0)
        return gb_store__failf(st, GB_ECORRUPT,
                               "store %s is damaged (%lld bytes, not a whole number "
                               "of %u-byte pages: truncated?); " GB_STORE__RECOVER,
                               st->path, (long long)sb.st_size, page, st->path, st->path);
    *kind = FILE_SQLITE;
    return GB_OK;
}

/* Is the open database a gemmbench store? Reads only (the schema and PRAGMA user_version), so
 * that a file that is not one is refused unchanged. The store's marks are a table 'meta' and a
 * user_version of 1 or more (gb_store__schema checks the version and the rest). *ours: 1 a store, 0 an
 * SQLite database without a single table (what a creation killed before its schema leaves),
 * -1 anything else. */
static int identify(gb_store_t *st, int *ours)
{
    sqlite3_stmt *q;
    /* One statement, so one snapshot: read apart, another process's creation of the schema
     * could land between the version and the tables (version 0 with our tables: "foreign"). */
    int rc = gb_store__prepare(st,
                               "SELECT count(*), count(CASE WHEN name = 'meta' THEN 1 END), "
                               "(SELECT user_version FROM pragma_user_version) FROM "
                               "sqlite_master WHERE type = 'table'",
                               &q);
    if (rc != GB_OK)
        return rc;
    if (sqlite3_step(q) != SQLITE_ROW) {
        rc = gb_store__fail_db(st, "reading the schema");
    } else {
        const int tables = sqlite3_column_int(q, 0), marked = sqlite3_column_int(q, 1);
        const int v = sqlite3_column_int(q, 2);
        *ours = tables == 0 && v == 0 ? 0 : marked == 1 && v >= 1 ? 1 : -1;
    }
    sqlite3_finalize(q);
    return rc;
}

void gb_store__lock(gb_store_t *st)
{
    pthread_mutex_lock(&st->conn->lock);
}

void gb_store__unlock(gb_store_t *st)
{
    pthread_mutex_unlock(&st->conn->lock);
}

static int quick_check(gb_store_t *st)
{
    sqlite3_stmt *q;
    int rc = gb_store__prepare(st, "PRAGMA quick_check(1)", &q);
    if (rc != GB_OK)
        return rc;
    int s = sqlite3_step(q);
    if (s == SQLITE_ROW) {
        const char *say = (const char *)sqlite3_column_text(q, 0);
        if (!say || strcmp(say, "ok")) {
            /* One line: SQLite's report may start with a heading line and hold several. */
            char text[256];
            const char *head = "*** in database main ***\n";
            if (say && !strncmp(say, head, strlen(head)))
                say += strlen(head);
            snprintf(text, sizeof text, "%s", say ? say : "?");
            for (char *c = text; *c; c++)
                if (*c == '\n' || *c == '\r')
                    *c = ' ';
            rc = gb_store__failf(st, GB_ECORRUPT,
                                 "store %s is damaged (SQLite quick_check: %s); " GB_STORE__RECOVER,
                                 st->path, text, st->path, st->path);
        }
    } else {
        rc = gb_store__fail_db(st, "checking the store's integrity");
    }
    sqlite3_finalize(q);
    return rc;
}

int gb_store_quick_check(gb_store_t *st)
{
    gb_store__lock(st);
    const int rc = quick_check(st);
    gb_store__unlock(st);
    return rc;
}

/* A connection's lock, recursive (gb_store__conn_t). */
static gb_store__conn_t *conn_new(void)
{
    gb_store__conn_t *c = calloc(1, sizeof *c);
    pthread_mutexattr_t a;
    if (!c || pthread_mutexattr_init(&a) != 0) {
        free(c);
        return NULL;
    }
    int ok = pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE) == 0 &&
             pthread_mutex_init(&c->lock, &a) == 0;
    pthread_mutexattr_destroy(&a);
    if (!ok) {
        free(c);
        return NULL;
    }
    c->handles = 1;
    return c;
}

int gb_store_open(gb_store_t **out, const char *path, int flags, char *msg, size_t msglen)
{
    *out = NULL;
    gb_store_t *st = calloc(1, sizeof *st);
    if (!st || !(st->conn = conn_new())) {
        free(st);
        snprintf(msg, msglen, "out of memory");
        return GB_ENOMEM;
    }
    int rc = GB_OK, is_default = !path, kind = FILE_MISSING, ours = 0;
    const int create = (flags & GB_STORE_CREATE) != 0;
    char def[sizeof st->path];
    if (!path && !(path = gb_store_default_path(def, sizeof def))) {
        rc = gb_store__failf(st, GB_EIO,
                             "no results store path: set HOME, XDG_DATA_HOME or GEMMBENCH_STORE, "
                             "or give --store PATH");
        goto done;
    }
    /* SQLite would make an empty name a temporary database, deleted on close. */
    if (!path[0]) {
        rc = gb_store__failf(st, GB_EBADARG, "the store path is empty; give --store a file name");
        goto done;
    }
    if (strlen(path) >= sizeof st->path) {
        rc = gb_store__failf(st, GB_EBADARG, "store path is too long");
        goto done;
    }
    snprintf(st->path, sizeof st->path, "%s", path);
    const int in_memory = !strcmp(st->path, ":memory:");
    /* Check first, write never: the file is examined, then the database identified by reading
     * alone, before anything (journal mode, schema) writes to it. */
    if (!in_memory && (rc = examine_file(st, &kind)) != GB_OK)
        goto done;
    if (!in_memory && kind == FILE_MISSING && !create) {
        rc = gb_store__failf(st, GB_ENOSTORE,
                             "no results store at %s; run 'gemmbench run' or 'gemmbench "
                             "explore' first, or give --store PATH",
                             st->path);
        goto done;
    }
    if (!in_memory && kind == FILE_EMPTY && !create) {
        rc = gb_store__failf(st, GB_ENOTSTORE,
                             "%s is an empty file, not a gemmbench results store; give "
                             "another --store (a command that stores points makes it one)",
                             st->path);
        goto done;
    }
    if (create && is_default && kind == FILE_MISSING && gb__mkdir_parent(st->path) != 0) {
        rc = gb_store__failf(st, GB_EIO, "cannot create the folder of store %s: %s", st->path,
                             strerror(errno));
        goto done;
    }
    /* A write-ahead log already beside the file (another program's, or one left by a crash)
     * must stay as it is if the file turns out not to be a store. */
    char wal[sizeof st->path + 8];
    struct stat wsb;
    snprintf(wal, sizeof wal, "%s-wal", st->path);
    const int had_wal = !in_memory && stat(wal, &wsb) == 0;
    int oflags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
    const int orc = sqlite3_open_v2(st->path, &st->db, oflags, NULL);
    st->conn->db = st->db;
    if (orc != SQLITE_OK) {
        rc = gb_store__failf(st, GB_EBADARG,
                             "cannot open store %s: %s; check the path (its folder must "
                             "exist and be writable)",
                             st->path, st->db ? sqlite3_errmsg(st->db) : "out of memory");
        goto done;
    }
    sqlite3_busy_timeout(st->db, 15000);
    if ((rc = identify(st, &ours)) != GB_OK)
        goto done;
    if (ours < 0 || (ours == 0 && !create)) {
        /* Leave a foreign database exactly as it was: closing checkpoints the log into the
         * file, harmless (and the log and its index removed) when this open made the log, not
         * when one was there before. */
        if (had_wal)
            sqlite3_db_config(st->db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, NULL);
        rc = gb_store__failf(
            st, GB_ENOTSTORE,
            ours < 0 ? "%s is an SQLite database but not a gemmbench "
                       "results store (left as it was); give another --store"
                     : "%s is an empty SQLite database, not a gemmbench results store (left "
                       "as it was); give another --store",
            st->path);
        goto done;
    }
    /* A command that writes checks the pages first, so that nothing is added to a damaged
     * store (docs/results-store.md gives the cost). */
    if (create && ours == 1 && (rc = quick_check(st)) != GB_OK)
        goto done;
    /* WAL: readers never block the writer, and a killed writer loses only its open
     * transaction. synchronous=NORMAL keeps every commit through a process crash. Several
     * processes opening one new store at once can meet SQLITE_BUSY here without the busy
     * handler being asked (one switching the file to WAL while another reads it): tried again
     * for a while, as the busy timeout would. */
    for (int tries = 0;; tries++) {
        if ((rc = gb_store__exec(st, "PRAGMA journal_mode=WAL")) == GB_OK &&
            (rc = gb_store__exec(st, "PRAGMA synchronous=NORMAL")) == GB_OK &&
            (rc = gb_store__exec(st, "PRAGMA foreign_keys=ON")) == GB_OK &&
            (rc = gb_store__schema(st)) == GB_OK)
            break;
        if ((sqlite3_extended_errcode(st->db) & 0xff) != SQLITE_BUSY || tries == 150)
            goto done;
        const struct timespec pause = {0, 100 * 1000 * 1000L};
        nanosleep(&pause, NULL);
    }
    if ((rc = prepare_insert(st)) != GB_OK)
        goto done;
done:
    if (rc != GB_OK) {
        snprintf(msg, msglen, "%s", st->msg);
        gb_store_close(st);
        return rc;
    }
    *out = st;
    return GB_OK;
}

int gb_store_share(gb_store_t *st, gb_store_t **out)
{
    *out = NULL;
    /* Compiled single-threaded, SQLite has no mutex at all, not even around its own globals,
     * which other connections of this process use on other threads. */
    if (!sqlite3_threadsafe())
        return gb_store__failf(st, GB_ESTORE,
                               "this SQLite is built single-threaded (SQLITE_THREADSAFE=0): the "
                               "store cannot be shared between threads");
    gb_store_t *sh = calloc(1, sizeof *sh);
    if (!sh)
        return gb_store__failf(st, GB_ENOMEM, "out of memory");
    gb_store__lock(st);
    sh->db = st->db;
    sh->conn = st->conn;
    memcpy(sh->path, st->path, sizeof sh->path);
    st->conn->handles++;
    const int rc = prepare_insert(sh);
    if (rc != GB_OK)
        gb_store__failf(st, rc, "%s", sh->msg);
    gb_store__unlock(st);
    if (rc != GB_OK) {
        gb_store_close(sh);
        return rc;
    }
    *out = sh;
    return GB_OK;
}

void gb_store_close(gb_store_t *st)
{
    if (!st)
        return;
    gb_store__conn_t *c = st->conn;
    pthread_mutex_lock(&c->lock);
    sqlite3_finalize(st->insert);
    sqlite3_finalize(st->insert_stats);
    sqlite3_finalize(st->insert_sample);
    sqlite3_finalize(st->exists);
    const int last = --c->handles == 0;
    pthread_mutex_unlock(&c->lock);
    if (last) {
        sqlite3_close(c->db);
        pthread_mutex_destroy(&c->lock);
        free(c);
    }
    free(st);
}

const char *gb_store_path(const gb_store_t *st)
{
    return st->path;
}

const char *gb_store_errmsg(const gb_store_t *st)
{
    return st ? st->msg : "";
}

int gb_store_exists(gb_store_t *st, const char *id)
{
    gb_store__lock(st);
    sqlite3_reset(st->exists);
    sqlite3_bind_text(st->exists, 1, id, -1, SQLITE_TRANSIENT);
    int s = sqlite3_step(st->exists);
    sqlite3_reset(st->exists);
    const int rc = s == SQLITE_ROW    ? 1
                   : s == SQLITE_DONE ? 0
                                      : gb_store__fail_db(st, "looking a point up");
    gb_store__unlock(st);
    return rc;
}

static void bind_dbl(sqlite3_stmt *q, int i, double v)
{
    if (isnan(v))
        sqlite3_bind_null(q, i);
    else
        sqlite3_bind_double(q, i, v);
}

/* The writes of one point, inside the caller's transaction. */
static int insert_rows(gb_store_t *st, const gb_point_t *pt, const char *def)
{
    sqlite3_stmt *q = st->insert;
    char buf[2048];
    sqlite3_reset(q);
    sqlite3_clear_bindings(q);
    sqlite3_bind_text(q, 1, pt->id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(q, 2, def, -1, SQLITE_TRANSIENT);
    for (size_t i = 0; i < gb_store__ncols; i++) {
        const gb_store__col_t *c = &gb_store__cols[i];
        int at = (int)i + 3;
        if (gb_store__is_null(pt, c)) {
            sqlite3_bind_null(q, at);
            continue;
        }
        switch (gb_store__class(c)) {
        case GB_CLASS_INT: sqlite3_bind_int64(q, at, gb_store__get_int(pt, c)); break;
        case GB_CLASS_DBL: bind_dbl(q, at, gb_store__get_dbl(pt, c)); break;
        default:
            sqlite3_bind_text(q, at, gb_store__get_text(pt, c, buf, sizeof buf), -1,
                              SQLITE_TRANSIENT);
            break;
        }
    }
    if (sqlite3_step(q) != SQLITE_DONE)
        return gb_store__fail_db(st, "inserting a point");
    sqlite3_reset(q);
    for (int ph = 0; ph < GB_PHASE_COUNT; ph++) {
        const gb_stats_t *s = &pt->result.time_ms[ph];
        const char *name = gb_phase_name((gb_phase_t)ph);
        q = st->insert_stats;
        sqlite3_reset(q);
        sqlite3_bind_text(q, 1, pt->id, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(q, 2, name, -1, SQLITE_STATIC);
        sqlite3_bind_int64(q, 3, (sqlite3_int64)s->n);
        const double v[7] = {s->min, s->max, s->median, s->mean, s->std, s->ci95_lo, s->ci95_hi};
        for (int j = 0; j < 7; j++)
            bind_dbl(q, 4 + j, v[j]);
        if (sqlite3_step(q) != SQLITE_DONE)
            return gb_store__fail_db(st, "inserting phase statistics");
        sqlite3_reset(q);
        q = st->insert_sample;
        for (size_t i = 0; i < s->n; i++) {
            sqlite3_reset(q);
            sqlite3_bind_text(q, 1, pt->id, -1, SQLITE_TRANSIENT);
            sqlite3_bind_text(q, 2, name, -1, SQLITE_STATIC);
            sqlite3_bind_int64(q, 3, (sqlite3_int64)i);
            bind_dbl(q, 4, pt->result.samples_ms[ph][i]);
            if (sqlite3_step(q) != SQLITE_DONE)
                return gb_store__fail_db(st, "inserting samples");
        }
        sqlite3_reset(q);
    }
    return GB_OK;
}

int gb_store__insert_in_tx(gb_store_t *st, const gb_point_t *pt)
{
    char *def = NULL;
    int rc = gb_point_check(pt, st->msg, sizeof st->msg);
    if (rc != GB_OK)
        return rc;
    if ((rc = gb_store_exists(st, pt->id)) != 0)
        return rc;
    if ((rc = gb_point_definition(pt, &def)) != GB_OK)
        return gb_store__failf(st, rc, "out of memory");
    rc = insert_rows(st, pt, def);
    free(def);
    return rc;
}

int gb_store_transaction(gb_store_t *st, int (*fn)(gb_store_t *st, void *user), void *user)
{
    /* The lock is held from BEGIN to COMMIT: on a shared connection, another thread's
     * statements would otherwise become part of this transaction. */
    gb_store__lock(st);
    int rc = gb_store__exec(st, "BEGIN IMMEDIATE");
    if (rc == GB_OK) {
        rc = fn(st, user);
        if (rc == GB_OK)
            rc = gb_store__exec(st, "COMMIT");
        /* Keep the first message: the rollback's own failure would only hide it. */
        if (rc != GB_OK)
            sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
    }
    gb_store__unlock(st);
    return rc;
}

typedef struct insert_job {
    gb_point_t *pt;
    int next_rep, outcome;
} insert_job_t;

static int insert_fn(gb_store_t *st, void *user)
{
    insert_job_t *job = user;
    int rc;
    if (job->next_rep) {
        /* The first repetition index of this definition that is free, decided inside the write
         * transaction so that concurrent runs cannot pick the same one. */
        for (job->pt->rep = 0;; job->pt->rep++) {
            if ((rc = gb_point_compute_id(job->pt)) != GB_OK)
                return gb_store__failf(st, rc, "out of memory");
            if ((rc = gb_store_exists(st, job->pt->id)) < 0)
                return rc;
            if (rc == 0)
                break;
        }
    }
    rc = gb_store__insert_in_tx(st, job->pt);
    if (rc < 0)
        return rc;
    job->outcome = rc;
    /* Nothing to commit for a point already there; a rollback is equivalent. */
    return GB_OK;
}

int gb_store_insert(gb_store_t *st, const gb_point_t *pt)
{
    insert_job_t job = {(gb_point_t *)pt, 0, 0};
    int rc = gb_store_transaction(st, insert_fn, &job);
    return rc != GB_OK ? rc : job.outcome;
}

int gb_store_insert_next_rep(gb_store_t *st, gb_point_t *pt)
{
    insert_job_t job = {pt, 1, 0};
    int rc = gb_store_transaction(st, insert_fn, &job);
    return rc != GB_OK ? rc : job.outcome;
}
