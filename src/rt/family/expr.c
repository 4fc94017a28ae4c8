/* expr.c: the integer expressions of kernel metadata: a recursive-descent parser that compiles
 * an expression into a tree of nodes with its names resolved to slots, and an evaluator of that
 * tree with C's integer semantics where they are defined and an error where they are not
 * (overflow, division by zero). gb__expr_eval does both; a tuning space compiles its checks
 * once and runs them many times. */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/core/core.h"
#include "expr.h"

enum op {
    OP_NUM,
    OP_VAR,
    OP_NEG,
    OP_NOT,
    OP_ADD,
    OP_SUB,
    OP_MUL,
    OP_DIV,
    OP_MOD,
    OP_EQ,
    OP_NE,
    OP_LE,
    OP_GE,
    OP_LT,
    OP_GT,
    OP_AND,
    OP_OR,
    OP_CEILDIV,
    OP_ROUNDUP,
    OP_MIN,
    OP_MAX
};

typedef struct node {
    unsigned char op;
    short a, b;      /* children (node indices) */
    int at;          /* offset in the text, for messages */
    long long value; /* OP_NUM: the number; OP_VAR: the slot */
} node_t;

struct gb_expr {
    char *text;       /* after the nodes */
    int n, cap, root; /* a node takes at least one character: cap is the text's length */
    node_t nodes[];
};

typedef struct parser {
    gb_expr_t *e;
    const char *s;
    const char *const *names;
    size_t nnames;
    int depth, failed;
    char *msg;
    size_t msglen;
} parser_t;

static int fail(parser_t *p, const char *what)
{
    if (!p->failed)
        gb__fail(p->msg, p->msglen, GB_EMETADATA, "expression '%s': %s at offset %d", p->e->text,
                 what, (int)(p->s - p->e->text));
    p->failed = 1;
    return 0;
}

static int node(parser_t *p, int op, int a, int b, long long value, const char *at)
{
    if (p->failed)
        return 0;
    if (p->e->n == p->e->cap)
        return fail(p, "too long");
    node_t *x = &p->e->nodes[p->e->n];
    x->op = (unsigned char)op;
    x->a = (short)a;
    x->b = (short)b;
    x->value = value;
    x->at = (int)(at - p->e->text);
    return p->e->n++;
}

static void skip(parser_t *p)
{
    while (isspace((unsigned char)*p->s))
        p->s++;
}

static int accept(parser_t *p, const char *tok)
{
    skip(p);
    size_t n = strlen(tok);
    if (strncmp(p->s, tok, n) != 0)
        return 0;
    /* "<" must not swallow "<=", nor "=" nor "!" their two-character forms. */
    if (n == 1 && strchr("<>!", tok[0]) && p->s[1] == '=')
        return 0;
    p->s += n;
    return 1;
}

/* An expression: its loosest binary operators (||) first. */
static int binary(parser_t *p, size_t level);

static int call(parser_t *p, const char *name, size_t len)
{
    static const struct {
        const char *name;
        int op;
    } fns[] = {
        {"ceil_div", OP_CEILDIV}, {"round_up", OP_ROUNDUP}, {"min", OP_MIN}, {"max", OP_MAX}};
    int op = -1;
    for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
        if (strlen(fns[i].name) == len && !strncmp(name, fns[i].name, len))
            op = fns[i].op;
    if (op < 0) {
        p->s = name;
        return fail(p, "unknown function");
    }
    const int a = binary(p, 0);
    if (!accept(p, ","))
        return fail(p, "expected ',' between function arguments");
    const int b = binary(p, 0);
    if (!accept(p, ")"))
        return fail(p, "expected ')'");
    return node(p, op, a, b, 0, name);
}

static int primary(parser_t *p)
{
    skip(p);
    const char *at = p->s;
    if (accept(p, "(")) {
        const int v = binary(p, 0);
        if (!accept(p, ")"))
            return fail(p, "expected ')'");
        return v;
    }
    if (isdigit((unsigned char)*p->s)) {
        long long v = 0;
        while (isdigit((unsigned char)*p->s)) {
            if (v > (1LL << 50))
                return fail(p, "number too large");
            v = v * 10 + (*p->s++ - '0');
        }
        return node(p, OP_NUM, 0, 0, v, at);
    }
    if (isalpha((unsigned char)*p->s) || *p->s == '_') {
        const char *name = p->s;
        while (isalnum((unsigned char)*p->s) || *p->s == '_')
            p->s++;
        const size_t len = (size_t)(p->s - name);
        if (accept(p, "("))
            return call(p, name, len);
        for (size_t i = 0; i < p->nnames; i++)
            if (strlen(p->names[i]) == len && !strncmp(p->names[i], name, len))
                return node(p, OP_VAR, 0, 0, (long long)i, name);
        p->s = name;
        return fail(p, "unknown name");
    }
    return fail(p, "expected a number, a name or '('");
}

static int unary(parser_t *p)
{
    if (++p->depth > 64)
        return fail(p, "nested too deeply");
    skip(p);
    const char *at = p->s;
    int v;
    if (accept(p, "-"))
        v = node(p, OP_NEG, unary(p), 0, 0, at);
    else if (accept(p, "!"))
        v = node(p, OP_NOT, unary(p), 0, 0, at);
    else if (accept(p, "+"))
        v = unary(p);
    else
        v = primary(p);
    p->depth--;
    return v;
}

/* The binary operators by level, the loosest first: a level's operands are the next level's
 * expressions, the last level's unary ones. Each level is left-associative but the comparisons,
 * which do not chain (a < b < c is refused as unexpected text). */
enum { LEVEL_OPS = 6 };
static const struct level {
    int chains;
    struct {
        const char *tok;
        int op;
    } ops[LEVEL_OPS]; /* to the first NULL tok */
} levels[] = {
    {1, {{"||", OP_OR}}},
    {1, {{"&&", OP_AND}}},
    {0, {{"==", OP_EQ}, {"!=", OP_NE}, {"<=", OP_LE}, {">=", OP_GE}, {"<", OP_LT}, {">", OP_GT}}},
    {1, {{"+", OP_ADD}, {"-", OP_SUB}}},
    {1, {{"*", OP_MUL}, {"/", OP_DIV}, {"%", OP_MOD}}}};
enum { NLEVELS = sizeof levels / sizeof levels[0] };

static int binary(parser_t *p, size_t level)
{
    if (level == NLEVELS)
        return unary(p);
    const struct level *l = &levels[level];
    int v = binary(p, level + 1);
    for (;;) {
        skip(p);
        const char *at = p->s;
        size_t i = 0;
        while (i < LEVEL_OPS && l->ops[i].tok && !accept(p, l->ops[i].tok))
            i++;
        if (i == LEVEL_OPS || !l->ops[i].tok)
            return v;
        v = node(p, l->ops[i].op, v, binary(p, level + 1), 0, at);
        if (!l->chains)
            return v;
    }
}

int gb__expr_compile(const char *expr, const char *const *names, size_t nnames, gb_expr_t **out,
                     char *msg, size_t msglen)
{
    *out = NULL;
    if (strlen(expr) > GB_EXPR_MAX)
        return gb__fail(msg, msglen, GB_EMETADATA, "expression longer than %d characters",
                        GB_EXPR_MAX);
    const size_t len = strlen(expr);
    gb_expr_t *e = malloc(sizeof *e + (len + 1) * sizeof(node_t) + len + 1);
    if (!e)
        return gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
    e->n = 0;
    e->cap = (int)len + 1;
    e->text = (char *)(e->nodes + e->cap);
    memcpy(e->text, expr, len + 1);
    parser_t p = {e, e->text, names, nnames, 0, 0, msg, msglen};
    e->root = binary(&p, 0);
    skip(&p);
    if (!p.failed && *p.s)
        fail(&p, "unexpected text");
    if (p.failed) {
        free(e);
        return GB_EMETADATA;
    }
    *out = e;
    return GB_OK;
}

void gb__expr_free(gb_expr_t *e)
{
    free(e);
}

typedef struct run {
    const gb_expr_t *e;
    const long long *values;
    int failed;
    char *msg;
    size_t msglen;
} run_t;

static long long run_fail(run_t *r, const node_t *x, const char *what)
{
    if (!r->failed)
        gb__fail(r->msg, r->msglen, GB_EMETADATA, "expression '%s': %s at offset %d", r->e->text,
                 what, x->at);
    r->failed = 1;
    return 0;
}

/* a op b for + - * / %, or an error where long long would overflow: undefined behaviour in C,
 * and LLONG_MIN / -1 traps on x86. */
static long long arith(run_t *r, const node_t *x, char op, long long a, long long b)
{
    int over;
    switch (op) {
    case '+': over = b > 0 ? a > LLONG_MAX - b : a < LLONG_MIN - b; break;
    case '-': over = b < 0 ? a > LLONG_MAX + b : a < LLONG_MIN + b; break;
    case '*':
        over = a != 0 && b != 0 &&
               (a > 0 ? (b > 0 ? a > LLONG_MAX / b : b < LLONG_MIN / a)
                      : (b > 0 ? a < LLONG_MIN / b : b < LLONG_MAX / a));
        break;
    default:
        if (b == 0)
            return run_fail(r, x, "division by zero");
        over = a == LLONG_MIN && b == -1;
        break;
    }
    if (over)
        return run_fail(r, x, "integer overflow");
    switch (op) {
    case '+': return a + b;
    case '-': return a - b;
    case '*': return a * b;
    case '/': return a / b;
    default: return a % b;
    }
}

static long long value(run_t *r, int i)
{
    const node_t *x = &r->e->nodes[i];
    if (r->failed)
        return 0;
    switch (x->op) {
    case OP_NUM: return x->value;
    case OP_VAR: return r->values[x->value];
    case OP_NEG: return arith(r, x, '-', 0, value(r, x->a));
    case OP_NOT: return !value(r, x->a);
    default: break;
    }
    const long long a = value(r, x->a), b = value(r, x->b);
    switch (x->op) {
    case OP_ADD: return arith(r, x, '+', a, b);
    case OP_SUB: return arith(r, x, '-', a, b);
    case OP_MUL: return arith(r, x, '*', a, b);
    case OP_DIV: return arith(r, x, '/', a, b);
    case OP_MOD: return arith(r, x, '%', a, b);
    case OP_EQ: return a == b;
    case OP_NE: return a != b;
    case OP_LE: return a <= b;
    case OP_GE: return a >= b;
    case OP_LT: return a < b;
    case OP_GT: return a > b;
    case OP_AND: return a && b;
    case OP_OR: return a || b;
    case OP_CEILDIV:
        return b > 0 ? arith(r, x, '/', arith(r, x, '+', a, b - 1), b)
                     : run_fail(r, x, "ceil_div by a non-positive number");
    case OP_ROUNDUP: /* to 0: a itself, no work-group to round to (the driver's, -lws 0,0) */
        return b > 0    ? arith(r, x, '*', arith(r, x, '/', arith(r, x, '+', a, b - 1), b), b)
               : b == 0 ? a
                        : run_fail(r, x, "round_up to a negative number");
    case OP_MIN: return a < b ? a : b;
    default: return a > b ? a : b;
    }
}

int gb__expr_run(const gb_expr_t *e, const long long *values, long long *out, char *msg,
                 size_t msglen)
{
    run_t r = {e, values, 0, msg, msglen};
    const long long v = value(&r, e->root);
    if (r.failed)
        return GB_EMETADATA;
    *out = v;
    return GB_OK;
}

int gb__expr_eval(const char *expr, const gb_var_t *vars, size_t nvars, long long *out, char *msg,
                  size_t msglen)
{
    const char *names[GB_EXPR_MAX_NAMES];
    long long values[GB_EXPR_MAX_NAMES];
    if (nvars > GB_EXPR_MAX_NAMES)
        return gb__fail(msg, msglen, GB_EMETADATA, "more than %d names", GB_EXPR_MAX_NAMES);
    for (size_t i = 0; i < nvars; i++) {
        names[i] = vars[i].name;
        values[i] = vars[i].value;
    }
    gb_expr_t *e;
    int rc = gb__expr_compile(expr, names, nvars, &e, msg, msglen);
    if (rc == GB_OK)
        rc = gb__expr_run(e, values, out, msg, msglen);
    gb__expr_free(e);
    return rc;
}
