/* store.h: the results store: every measured point, with its full provenance, in an SQLite
 * database (schema in docs/results-store.md), and its exchange as JSON and CSV.
 *
 * A point is one gb_bench_run() of one configuration on one problem and device. Its id is a hash
 * of what DEFINES it (device, driver, kernel, parameters, source hash, problem, inputs, warm-up,
 * iterations, timing and repetition index), never of what was measured, so the same definition
 * run again is recognised. The store sits on the public API (gemmbench.h) only; the library never
 * includes it. Functions return GB_OK or a negative gb_error_t and leave a one-line message on
 * the store handle (gb_store_errmsg) or in the caller's buffer.
 */
#ifndef GB_STORE_H
#define GB_STORE_H

#include <stdio.h>

#include "gemmbench.h"

#define GB_STORE_SCHEMA_VERSION 7 /* PRAGMA user_version and meta.schema_version */
#define GB_EXPORT_FORMAT "gemmbench-results"
#define GB_EXPORT_VERSION                                                                          \
    6                      /* 2 adds the energy keys, 3 host_mem, 4 the adaptive stops, 5
                              the clocks, 6 the pipeline (and host_mem "mapped"); import reads
                              1 to 6 */
#define GB_POINT_ID_LEN 16 /* hex digits: the first 64 bits of SHA-256(definition) */

/* The device facts a point records (a copy: the list they came from may be gone). */
typedef struct gb_point_device {
    char name[128], vendor[128], type[16], version[128];
    char platform[128], platform_version[128], driver[64];
    unsigned compute_units, clock_mhz;
    uint64_t global_mem, local_mem;
    size_t max_wg_size;
    int fp64;
    double peak_gflops[2];
    char peak_formula[2][192];
} gb_point_device_t;

/* One measured point. Owns result.samples_ms[] and env_json (freed by gb_point_free). */
typedef struct gb_point {
    char id[GB_POINT_ID_LEN + 1];
    /* the definition (hashed into id) */
    gb_point_device_t device;
    char kernel[2 * GB_NAME_MAX], family[2 * GB_NAME_MAX], preset[2 * GB_NAME_MAX];
    gb_params_t params;   /* every parameter's value, sorted by name */
    char source_hash[48]; /* what was compiled (gb_impl_program_id): "sha256:<16 hex of the
                                  program text>/<16 hex of its build>", "none" for a library;
                                  points stored before that hold "fnv1a64:<16 hex>" of the
                                  family's source alone */
    gb_problem_t problem; /* leading dimensions filled in */
    uint64_t seed;
    gb_dist_t dist;
    int warmup, iterations;
    gb_timing_t timing;
    gb_host_mem_t host_mem; /* in the definition only when not pageable (columns.c says why) */
    int cold;               /* in the definition only when set */
    double min_time_s, max_rel_ci; /* the adaptive stops (gb_bench_options_t); in the
                                      definition only when set */
    int pipeline;                  /* panels asked (gb_bench_options_t); in the definition only
                                      when set */
    unsigned rep;                  /* repetition index: the same definition measured again */
    /* what was asked and what came out */
    char source_origin[256]; /* where the family's metadata came from */
    gb_validate_mode_t validate;
    gb_result_t result;
    /* provenance */
    char tool_version[32], git_revision[64], hostname[256], os[256], timestamp[32];
    char *env_json; /* selected environment variables, a JSON object */
} gb_point_t;

/* Zeroes pt (no allocation). */
void gb_point_init(gb_point_t *pt);
/* Frees what pt owns and zeroes it; accepts NULL. */
void gb_point_free(gb_point_t *pt);
/* Fills pt's definition from what a run is given (the problem completed with
 * gb_problem_check()) and computes its id; clears everything else (freeing what pt owned).
 * GB_EMETADATA when what would be compiled cannot be planned (msg says why), GB_ENOMEM. */
int gb_point_define(gb_point_t *pt, const gb_device_info_t *dev, const gb_impl_t *im,
                    const gb_problem_t *problem, const gb_bench_options_t *opts, unsigned rep,
                    char *msg, size_t msglen);
/* Copies a run's result (samples included) into pt. GB_ENOMEM on failure (pt unchanged). */
int gb_point_set_result(gb_point_t *pt, const gb_result_t *r);
/* Records tool version, git revision, host, OS, selected environment variables and the UTC time.
 * GB_ENOMEM on failure. */
int gb_point_set_provenance(gb_point_t *pt);
/* The canonical definition text into *text (caller frees with free()). GB_ENOMEM on failure. */
int gb_point_definition(const gb_point_t *pt, char **text);
/* Sets pt->id from its definition. GB_ENOMEM on failure. */
int gb_point_compute_id(gb_point_t *pt);
/* Checks that pt can be stored: its id matches its definition, every phase holds `iterations`
 * samples, enum fields are in range. GB_EBADARG with msg naming the field otherwise. */
int gb_point_check(const gb_point_t *pt, char *msg, size_t msglen);

/* ---- the database -------------------------------------------------------------------------- */

typedef struct gb_store gb_store_t;

enum { GB_STORE_CREATE = 1 /* create the file (and, for the default path, its folder) */ };

/* The default path into buf: $GEMMBENCH_STORE, else $XDG_DATA_HOME/gemmbench/results.db, else
 * ~/.local/share/gemmbench/results.db. NULL when no home is known. */
const char *gb_store_default_path(char *buf, size_t len);
/* Opens (with GB_STORE_CREATE: creates) the store at path (NULL: the default path; ":memory:"
 * a store in memory), in WAL mode, creating or checking its schema. Check first, write never:
 * an empty path, a file that is not SQLite, an SQLite database that is not a gemmbench store, a
 * damaged one (truncated, or failing SQLite's quick_check when opened with GB_STORE_CREATE, the
 * flag of the commands that write) are refused with GB_EBADARG before anything writes to them.
 * A missing or zero-byte file, or an SQLite database without a table (what an interrupted
 * creation leaves), becomes a store with GB_STORE_CREATE only. On error *out is NULL, msg says
 * why. Close with gb_store_close. */
int gb_store_open(gb_store_t **out, const char *path, int flags, char *msg, size_t msglen);
/* A handle is used by one thread at a time. gb_store_share gives another handle on st's
 * connection, for another thread: the handles share one SQLite connection and one lock, held
 * by every call while it uses the connection and by gb_store_transaction from BEGIN to COMMIT,
 * so that their statements and transactions never interleave; each keeps its own message.
 * GB_ENOMEM, or GB_ESTORE where SQLite is built without threads, with the message on st. Close
 * each with gb_store_close: the connection closes with the last handle. */
int gb_store_share(gb_store_t *st, gb_store_t **out);
void gb_store_close(gb_store_t *st);
/* SQLite's quick_check (page structure, cells, free list; not the values inside rows, which
 * gb_store_check compares with their definitions): GB_OK, or GB_EBADARG when the store is damaged,
 * with SQLite's first complaint and the way to recover in the message. */
int gb_store_quick_check(gb_store_t *st);
const char *gb_store_path(const gb_store_t *st);
/* The last error's message ("" if none); valid until the next call. */
const char *gb_store_errmsg(const gb_store_t *st);

/* Is a point with this id stored? 1 yes, 0 no, negative on error. */
int gb_store_exists(gb_store_t *st, const char *id);
/* Inserts pt and its statistics and samples in one transaction. GB_OK when inserted, 1 when a
 * point with its id is already stored (nothing written), a negative error otherwise (nothing
 * written: bad input is rejected by gb_point_check first). */
int gb_store_insert(gb_store_t *st, const gb_point_t *pt);
/* Inserts pt as the first repetition of its definition not yet stored: sets pt->rep and pt->id. */
int gb_store_insert_next_rep(gb_store_t *st, gb_point_t *pt);
/* Reads the point with this id into pt (which it first frees). GB_EBADARG with a message when
 * no such point is stored. */
int gb_store_get(gb_store_t *st, const char *id, gb_point_t *pt);
/* Resolves a full id or a unique prefix (at least 4 hex digits) into id_out. */
int gb_store_resolve_id(gb_store_t *st, const char *prefix, char id_out[GB_POINT_ID_LEN + 1]);
/* Number of stored points into *n. */
int gb_store_count(gb_store_t *st, size_t *n);
/* Calls fn for every point, oldest first (samples read only when with_samples). A non-zero
 * return of fn stops the walk and is returned. */
int gb_store_foreach(gb_store_t *st, int with_samples, int (*fn)(const gb_point_t *pt, void *user),
                     void *user);
/* Checks the database: SQLite integrity, foreign keys, and for every point that its id is the
 * hash of its definition, that the definition matches its columns, and that every phase has its
 * statistics and `iterations` samples. *bad counts the faulty points; the first problem goes to
 * the message. */
int gb_store_check(gb_store_t *st, size_t *checked, size_t *bad);
/* Runs fn inside one write transaction (committed when fn returns GB_OK, else rolled back). */
int gb_store_transaction(gb_store_t *st, int (*fn)(gb_store_t *st, void *user), void *user);

/* ---- exchange ------------------------------------------------------------------------------ */

/* One CSV field (RFC 4180): quoted when it holds a comma, quote, line break or edge space. */
void gb_store_csv_field(FILE *f, const char *s);
/* Writes every point as the JSON export (the import format) or CSV (one line per point, no raw
 * samples) to f; *count gets the number of points. */
int gb_store_export_json(gb_store_t *st, FILE *f, size_t *count);
int gb_store_export_csv(gb_store_t *st, FILE *f, size_t *count);
/* Imports a JSON export: every point is parsed and checked first (a bad file writes nothing),
 * then the new ones are inserted in one transaction. *added and *present (already stored,
 * recognised by id) count them. origin names the input in messages. */
int gb_store_import_json(gb_store_t *st, const char *text, size_t len, const char *origin,
                         size_t *added, size_t *present);
/* The same in two steps, so that a bad file is refused before any store is opened (or created):
 * parse checks the whole text and every point without a store (GB_EBADARG or GB_ENOMEM with msg
 * naming origin, the point and the key; *out NULL), commit inserts them in one transaction.
 * Free the parsed points with gb_store_import_free (accepts NULL). */
typedef struct gb_store_import gb_store_import_t;
int gb_store_import_parse(const char *text, size_t len, const char *origin, gb_store_import_t **out,
                          char *msg, size_t msglen);
size_t gb_store_import_count(const gb_store_import_t *im);
/* The i-th parsed point (i below the count), as checked. */
const gb_point_t *gb_store_import_point(const gb_store_import_t *im, size_t i);
int gb_store_import_commit(gb_store_t *st, gb_store_import_t *im, size_t *added, size_t *present);
void gb_store_import_free(gb_store_import_t *im);

/* One point as a JSON object (caller frees with cJSON_Delete) and back. from_json frees pt first
 * and names the offending key in msg. Declared with void * to keep cJSON out of this header. */
void *gb_point_to_json(const gb_point_t *pt);
int gb_point_from_json(const void *json, gb_point_t *pt, char *msg, size_t msglen);

/* ---- provenance ----------------------------------------------------------------------------- */

/* The git revision the tool was built from (`git describe --always --dirty`), or "unknown". */
const char *gb_store_git_revision(void);

/* Measured ceilings (gemmbench ceilings), one row per device, platform version and driver; a new
 * measurement replaces the old. get returns 1 and fills c and when (UTC, ISO 8601) if the
 * device has one, 0 if not, or an error code. */
int gb_store_put_ceilings(gb_store_t *st, const gb_device_info_t *dev, const gb_ceilings_t *c);
int gb_store_get_ceilings(gb_store_t *st, const gb_device_info_t *dev, gb_ceilings_t *c,
                          char when[32]);

#endif
