/* space_int.h: a tuning space's state, shared by building and counting it (space.c) and
 * the queries on it: check, rank, unrank, neighbours (space_rank.c). */
#ifndef GB_SPACE_INT_H
#define GB_SPACE_INT_H

#include <stdint.h>

#include "rt/family/expr.h"
#include "rt/family/registry.h"

#define MAX_CHECKS (64 + 2)
#define MAX_COUNT (1ull << 62) /* larger spaces are refused: narrow them */

/* One check: an expression that must be non-zero, its text for messages, the position at which
 * it can be evaluated and the code a failure means. */
typedef struct check {
    char *expr;
    gb_expr_t *prog;  /* compiled against the space's names */
    const char *what; /* "constraint '...'", "local memory", "work-group size" */
    int code;
    size_t level; /* the position (in order) of the last parameter it names */
    int off;      /* left out (finding what emptied a space) */
} check_t;

/* The memo: (level, frontier values) -> count, open addressing. */
typedef struct entry {
    unsigned char key[GB_MAX_PARAMS + 1];
    size_t len;
    uint64_t count;
    int used;
} entry_t;

struct gb_space {
    const gb_family_t *family;
    size_t n;                    /* parameters */
    size_t order[GB_MAX_PARAMS]; /* family parameter index of position i */
    /* The position of the API's parameter i: the API lists the parameters the checks name in
     * the family's order, then the rest; the positions are the counting order (order()). */
    size_t inner[GB_MAX_PARAMS];
    long *values[GB_MAX_PARAMS]; /* candidate values of position i, ascending */
    size_t nvalues[GB_MAX_PARAMS];
    size_t nchecked; /* positions [0, nchecked) are named by checks */
    check_t checks[MAX_CHECKS];
    size_t nchecks;
    unsigned long long frontier[GB_MAX_PARAMS + 1];
    const char *names[GB_MAX_PARAMS + 12]; /* the slots: parameters by position, then constants */
    long long values_now[GB_MAX_PARAMS + 12];
    size_t nvars;
    entry_t *memo;
    size_t memo_cap, memo_used;
    uint64_t count;
    int overflow, nomem;
};

/* The memo's entry for key (insert: made when missing, growing the table; NULL when it cannot
 * be, with sp->nomem set). Without insert, NULL where there is none. */
entry_t *gb__space_memo_find(gb_space_t *sp, const unsigned char *key, size_t len, int insert);
/* The memo key of position i with the values of cand: i, then the frontier's value indices. */
size_t gb__space_key(const gb_space_t *sp, size_t i, const gb_space_cand_t *c, unsigned char *key);
/* Check k on the values in the space's slots (parameters by position, then the constants). */
int gb__space_run_check(const gb_space_t *sp, size_t k, const long long *values);

#endif
