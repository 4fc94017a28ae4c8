/* expr.h: integer expressions of kernel metadata (sizes, constraints, local memory). */
#ifndef GB_EXPR_H
#define GB_EXPR_H

#include <stddef.h>

typedef struct gb_var {
    const char *name;
    long long value;
} gb_var_t;

/* Evaluates expr with the given variables. Grammar: integers, names, + - * / % (C semantics,
 * division by zero is an error), comparisons, && || !, parentheses and the functions
 * ceil_div(a,b), round_up(a,b), min(a,b), max(a,b). Returns GB_OK or GB_EMETADATA with msg
 * naming the problem (unknown name, syntax error, division by zero, long long overflow). Input
 * is capped at 1024 characters and 64 levels of nesting. */
int gb__expr_eval(const char *expr, const gb_var_t *vars, size_t nvars, long long *out, char *msg,
                  size_t msglen);

#endif
