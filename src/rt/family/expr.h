/* expr.h: integer expressions of kernel metadata (sizes, constraints, local memory). */
#ifndef GB_EXPR_H
#define GB_EXPR_H

#include <stddef.h>

#define GB_EXPR_MAX 1024      /* characters of one expression */
#define GB_EXPR_MAX_NAMES 128 /* names one evaluation may see */

typedef struct gb_var {
    const char *name;
    long long value;
} gb_var_t;

/* Evaluates expr with the given variables. Grammar: integers, names, + - * / % (C semantics,
 * division by zero is an error), comparisons, && || !, parentheses and the functions
 * ceil_div(a,b), round_up(a,b), min(a,b), max(a,b). Returns GB_OK or GB_EMETADATA with msg
 * naming the problem (unknown name, syntax error, division by zero, long long overflow). Input
 * is capped at GB_EXPR_MAX characters and 64 levels of nesting. */
int gb__expr_eval(const char *expr, const gb_var_t *vars, size_t nvars, long long *out, char *msg,
                  size_t msglen);

/* The same in two steps, for an expression evaluated many times: compiled once against the
 * names (a name's slot is its index), then run on values in those slots. Errors as above:
 * compile refuses syntax and unknown names, run what depends on the values. Free with
 * gb__expr_free (accepts NULL). */
typedef struct gb_expr gb_expr_t;
int gb__expr_compile(const char *expr, const char *const *names, size_t nnames, gb_expr_t **out,
                     char *msg, size_t msglen);
int gb__expr_run(const gb_expr_t *e, const long long *values, long long *out, char *msg,
                 size_t msglen);
void gb__expr_free(gb_expr_t *e);

#endif
