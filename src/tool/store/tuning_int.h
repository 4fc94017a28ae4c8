/* tuning_int.h: what the tuning tables' files share: making the tables and values as the tables
 * keep them (tuning_tables.c), and the walks of the check (tuning.c, tune_runs.c). */
#ifndef GB_STORE_TUNING_INT_H
#define GB_STORE_TUNING_INT_H

#include "store_int.h"
#include "tuning.h"

struct sqlite3_stmt;

/* Does the database have this table? 1 yes, 0 no, or an error (message on st). */
int gb_store__has_table(gb_store_t *st, const char *name);
/* Makes the four tuning tables where they are missing (all or none); GB_OK or an error. */
int gb_store__tuning_tables(gb_store_t *st);

/* The UTC time now, ISO 8601 ("2026-11-24T12:34:56Z"). */
void gb_store__utc_now(char buf[32]);
/* Parameters as "NAME=V NAME=V", sorted by name, and back (a name given twice, a value that is
 * not an integer, or more than GB_MAX_PARAMS: GB_EBADARG). */
int gb_store__params_text(const gb_params_t *ps, char *buf, size_t len);
int gb_store__params_parse(const char *text, gb_params_t *ps);
/* Names, point ids and layout tags are checked by gemmbench_tuning.h's gb_select__is_name, _is_id and
 * _layout_ok. */

/* Column i (named name) of a tuning table's row as text into dst of size bytes: 1, or 0 with
 * why ("column NAME: ...") where it is not text as gemmbench writes it: not TEXT (NULL is ""
 * where optional), holding a NUL, or longer than size - 1 bytes. */
int gb_store__col_text(struct sqlite3_stmt *q, int i, const char *name, char *dst, size_t size,
                       int optional, char *why, size_t len);
/* Column i as a whole number from lo to hi into *out: 1, or 0 with why. */
int gb_store__col_whole(struct sqlite3_stmt *q, int i, const char *name, long long lo, long long hi,
                        long long *out, char *why, size_t len);

/* The damaged rows one walk over a tuning table passes over: each given to bad where there is
 * one, else warned of (gb__warn: the first few, then how many more at gb_store__damage_end). */
typedef struct gb_store__damage_walk {
    gb_store_t *st;
    int (*bad)(const gb_tuning_damage_t *d, void *user);
    void *user;
    size_t n;
} gb_store__damage_walk_t;
/* One damaged row: bad's return, or GB_OK once warned of. */
int gb_store__damaged(gb_store__damage_walk_t *w, const gb_tuning_damage_t *d);
void gb_store__damage_end(gb_store__damage_walk_t *w);
/* The rows of table tuned, each damaged one given to w (tuning.c); *checked counts the rows
 * read. */
int gb_store__tuned_check(gb_store_t *st, gb_store__damage_walk_t *w, size_t *checked);
/* The rows of the run and evaluation tables and of the failures, each damaged one given to w
 * (tune_runs.c); *checked counts the rows read. */
int gb_store__tune_runs_check(gb_store_t *st, gb_store__damage_walk_t *w, size_t *checked);

/* A column's text ("" for NULL) and double (NaN for NULL); a double bound as NULL when NaN. */
const char *gb_store__col_str(struct sqlite3_stmt *q, int i);
double gb_store__col_dbl(struct sqlite3_stmt *q, int i);
void gb_store__bind_dbl(struct sqlite3_stmt *q, int i, double v);
/* Copies a column's text into dst of size bytes; 0 when it does not fit (a value gemmbench did
 * not write). */
int gb_store__copy_col(struct sqlite3_stmt *q, int i, char *dst, size_t size);

#endif
