/* store_int.h: what the store's files share: the table of a point's columns, which drives the
 * SQL schema, insertion and reading, the definition text behind the id, and the JSON and CSV
 * exchange, so that they cannot drift apart. */
#ifndef GB_STORE_INT_H
#define GB_STORE_INT_H

#include <pthread.h>

#include "store.h"
#include "rt/util/util.h"

typedef enum gb_store__kind {
    GB_COL_STR,     /* char array */
    GB_COL_INT,     /* int */
    GB_COL_UINT,    /* unsigned */
    GB_COL_SIZE,    /* size_t */
    GB_COL_U64,     /* uint64_t, stored bit for bit as a signed 64-bit integer */
    GB_COL_DBL,     /* double; NaN is stored as NULL */
    GB_COL_BOOL,    /* int, 0 or 1 */
    GB_COL_PREC,    /* gb_precision_t as "s" or "d" */
    GB_COL_LAYOUT,  /* gb_layout_t as "row" or "col" */
    GB_COL_TRANS,   /* gb_trans_t as "N" or "T" */
    GB_COL_TIMING,  /* gb_timing_t as "kernel", "ops" or "offload" */
    GB_COL_VMODE,   /* gb_validate_mode_t as "auto", "on" or "off" */
    GB_COL_DIST,    /* gb_dist_t as "uniform:LO:HI" (exact digits), "normal" or "int:R" */
    GB_COL_PARAMS,  /* gb_params_t as a JSON object, keys sorted */
    GB_COL_ENV,     /* char *env_json, a JSON object */
    GB_COL_OPTDBL,  /* double that is -1 when unknown (efficiency, energy): stored as NULL */
    GB_COL_VERDICT, /* validation.done/passed as "pass", "fail" or "not validated" */
    GB_COL_VALMODE, /* validation.exact as "exact", "bound" or "none" (not validated) */
    GB_COL_OPTSTR,  /* char array; "" (none) stored as NULL */
    GB_COL_OPTSIZE, /* size_t; 0 (none) stored as NULL */
    GB_COL_HOSTMEM  /* gb_host_mem_t as "pageable", "pinned" or "mapped" */
} gb_store__kind_t;

typedef enum gb_store__class { GB_CLASS_INT, GB_CLASS_DBL, GB_CLASS_TEXT } gb_store__class_t;

enum {
    GB_COLF_DEF = 1, /* part of the definition, hence of the id */
    GB_COLF_V2 = 2,  /* added by schema version 2 (energy): NULL in points stored before, which
                       a version-1 store gains on migration and a version-1 export lacks */
    GB_COLF_V3 = 4,  /* added by schema version 3 (host_mem, cold, the faithful verdict): a
                       definition column holds its default in points stored before and enters
                       the definition only away from it; the others are NULL there */
    GB_COLF_V4 = 8,  /* added by schema version 4 (the adaptive stops and which applied), as
                        version 3's */
    GB_COLF_V5 = 16, /* added by schema version 5 (clocks and throttling): NULL before */
    GB_COLF_V6 = 32, /* added by schema version 6 (the pipeline and its panels), as version 3's */
    GB_COLF_V7 = 64, /* added by schema version 7 (complex alpha, beta and the C transposition),
                        as version 3's */
    GB_COLF_LATER = GB_COLF_V3 | GB_COLF_V4 | GB_COLF_V5 | GB_COLF_V6 |
                    GB_COLF_V7 /* definition columns hashed only off default; every later column */
};

typedef struct gb_store__col {
    const char *name;
    gb_store__kind_t kind;
    size_t off, size; /* where the field sits in gb_point_t */
    unsigned flags;   /* GB_COLF_* */
} gb_store__col_t;

extern const gb_store__col_t gb_store__cols[];
extern const size_t gb_store__ncols;

gb_store__class_t gb_store__class(const gb_store__col_t *c);
/* A column's default: its value in a point as gb_point_init leaves it ("pageable", "0"), in
 * buf or a string of its own. A definition column added later (GB_COLF_V3) holds it in every
 * point stored before, and enters a definition only away from it (gb_store__at_default). */
const char *gb_store__default_text(const gb_store__col_t *c, char *buf, size_t len);
int gb_store__at_default(const gb_point_t *pt, const gb_store__col_t *c);
/* Creates the schema in an empty database, migrates an older one in place, or checks the
 * version (schema.c); inside its own write transaction. */
int gb_store__schema(gb_store_t *st);
/* Is the column's value one the store keeps as NULL (an optional kind's "none", or NaN)? */
int gb_store__is_null(const gb_point_t *pt, const gb_store__col_t *c);
/* Integer-class columns. set fails (GB_EBADARG, msg) on a value outside the field's range. */
int64_t gb_store__get_int(const gb_point_t *pt, const gb_store__col_t *c);
int gb_store__set_int(gb_point_t *pt, const gb_store__col_t *c, int64_t v, char *msg, size_t len);
/* Double-class columns (NaN for unknown efficiency). */
double gb_store__get_dbl(const gb_point_t *pt, const gb_store__col_t *c);
void gb_store__set_dbl(gb_point_t *pt, const gb_store__col_t *c, double v);
/* Text-class columns: get returns buf or a string inside pt; set parses and fails (GB_EBADARG
 * or GB_ENOMEM, msg) on text that is not a valid value or does not fit. */
const char *gb_store__get_text(const gb_point_t *pt, const gb_store__col_t *c, char *buf,
                               size_t len);
int gb_store__set_text(gb_point_t *pt, const gb_store__col_t *c, const char *s, char *msg,
                       size_t len);
/* Any column as canonical text (integers in decimal, doubles with 17 digits, "nan"/"inf"). */
const char *gb_store__text(const gb_point_t *pt, const gb_store__col_t *c, char *buf, size_t len);

/* One SQLite connection and the lock that serialises its use by the handles on it
 * (gb_store_share). Every public function that touches the connection holds the lock, and
 * gb_store_transaction holds it from BEGIN to COMMIT, so that no other thread's statement lands
 * inside a transaction, and the connection's own state (last rowid, changes, error) is read by
 * the thread that set it. Recursive: a transaction's function calls the store again. */
typedef struct gb_store__conn {
    struct sqlite3 *db;
    pthread_mutex_t lock;
    size_t handles; /* the handles on it (under lock); the last one closes it */
} gb_store__conn_t;

/* The store handle (store.c opens it; read.c and exchange.c use it). One thread at a time uses
 * a handle: its message and statements are its own, the connection may be shared. */
struct gb_store {
    struct sqlite3 *db; /* conn->db */
    gb_store__conn_t *conn;
    char path[1024];
    char msg[1024];
    struct sqlite3_stmt *insert, *insert_stats, *insert_sample, *exists;
};

/* The connection's lock, taken around each use of st->db (and recursively). */
void gb_store__lock(gb_store_t *st);
void gb_store__unlock(gb_store_t *st);

/* The end of every message about a damaged store: how to recover (one %s: the store's path). */
#define GB_STORE__RECOVER                                                                          \
    "save what can be read with 'gemmbench export --store %s --out saved.json' and 'gemmbench "    \
    "tuned export --store %s --out tuned.json', then 'gemmbench import saved.json --store NEW' "   \
    "and 'gemmbench tuned import tuned.json --store NEW', or restore a copy"

/* Failures: set the handle's message and return code (failf: gb__fail on the handle's
 * message); fail_db (sql.c) quotes SQLite's message and maps a busy, unopenable or non-SQLite
 * file to its own message. */
#define gb_store__failf(st, code, ...) gb__fail((st)->msg, sizeof(st)->msg, code, __VA_ARGS__)
int gb_store__fail_db(gb_store_t *st, const char *what);
/* sqlite3_exec and sqlite3_prepare_v2 with the failure on the handle (sql.c). */
int gb_store__exec(gb_store_t *st, const char *sql);
int gb_store__prepare(gb_store_t *st, const char *sql, struct sqlite3_stmt **out);
/* A query of one integer (its first row's first column) into *v: step_int steps the prepared q
 * and finalizes it, query_int prepares sql first. GB_OK, or the failure on the handle (what: what
 * the store was doing), *v then unchanged (sql.c). */
int gb_store__step_int(gb_store_t *st, struct sqlite3_stmt *q, const char *what, int64_t *v);
int gb_store__query_int(gb_store_t *st, const char *sql, const char *what, int64_t *v);

/* Inserts pt inside the caller's open transaction (gb_store_transaction): GB_OK, 1 when its id
 * is already stored, or an error with the message on st. */
int gb_store__insert_in_tx(gb_store_t *st, const gb_point_t *pt);
/* Sets the store's message (for the exchange code) and returns code (sql.c). */
int gb_store__fail(gb_store_t *st, int code, const char *msg);

/* Sorts parameters by name (names and values move together). */
void gb_store__params_sort(gb_params_t *ps);

/* Phases by name; -1 for an unknown name. */
int gb_store__phase_parse(const char *name);

/* A double in the exchange formats' JSON (exchange.c): a number that reads back bit for bit, or
 * "nan", "inf", "-inf" (JSON has no such numbers); and back: 1 with *out, 0 for anything else. */
struct cJSON;
struct cJSON *gb_store__json_double(double v);
int gb_store__json_to_double(const struct cJSON *j, double *out);

#endif
