/* expr.c: a recursive-descent evaluator for the integer expressions in kernel metadata. */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "../core/core.h"
#include "expr.h"

typedef struct parser {
    const char *s, *start;
    const gb_var_t *vars;
    size_t nvars;
    int depth, failed;
    char *msg;
    size_t msglen;
} parser_t;

static long long fail(parser_t *p, const char *what)
{
    if (!p->failed)
        gb__fail(p->msg, p->msglen, GB_EMETADATA, "expression '%s': %s at offset %d", p->start,
                 what, (int)(p->s - p->start));
    p->failed = 1;
    return 0;
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

static long long parse_or(parser_t *p);

/* a op b for + - * / %, or an error where long long would overflow: undefined behaviour in C,
 * and LLONG_MIN / -1 traps on x86. The caller has already refused division by zero. */
static long long arith(parser_t *p, char op, long long a, long long b)
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
    default: over = a == LLONG_MIN && b == -1; break;
    }
    if (over)
        return fail(p, "integer overflow");
    switch (op) {
    case '+': return a + b;
    case '-': return a - b;
    case '*': return a * b;
    case '/': return a / b;
    default: return a % b;
    }
}

static long long call(parser_t *p, const char *name, size_t len)
{
    long long a = parse_or(p), b = 0;
    if (!accept(p, ","))
        return fail(p, "expected ',' between function arguments");
    b = parse_or(p);
    if (!accept(p, ")"))
        return fail(p, "expected ')'");
    if (len == 8 && !strncmp(name, "ceil_div", 8))
        return b > 0 ? arith(p, '/', arith(p, '+', a, b - 1), b)
                     : fail(p, "ceil_div by a non-positive number");
    if (len == 8 && !strncmp(name, "round_up", 8))
        return b > 0 ? arith(p, '*', arith(p, '/', arith(p, '+', a, b - 1), b), b)
                     : fail(p, "round_up to a non-positive number");
    if (len == 3 && !strncmp(name, "min", 3))
        return a < b ? a : b;
    if (len == 3 && !strncmp(name, "max", 3))
        return a > b ? a : b;
    return fail(p, "unknown function");
}

static long long primary(parser_t *p)
{
    skip(p);
    if (accept(p, "(")) {
        long long v = parse_or(p);
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
        return v;
    }
    if (isalpha((unsigned char)*p->s) || *p->s == '_') {
        const char *name = p->s;
        while (isalnum((unsigned char)*p->s) || *p->s == '_')
            p->s++;
        size_t len = (size_t)(p->s - name);
        if (accept(p, "("))
            return call(p, name, len);
        for (size_t i = 0; i < p->nvars; i++)
            if (strlen(p->vars[i].name) == len && !strncmp(p->vars[i].name, name, len))
                return p->vars[i].value;
        p->s = name;
        return fail(p, "unknown name");
    }
    return fail(p, "expected a number, a name or '('");
}

static long long unary(parser_t *p)
{
    if (++p->depth > 64)
        return fail(p, "nested too deeply");
    long long v;
    if (accept(p, "-"))
        v = arith(p, '-', 0, unary(p));
    else if (accept(p, "!"))
        v = !unary(p);
    else if (accept(p, "+"))
        v = unary(p);
    else
        v = primary(p);
    p->depth--;
    return v;
}

static long long mul(parser_t *p)
{
    long long v = unary(p);
    for (;;) {
        if (accept(p, "*")) {
            v = arith(p, '*', v, unary(p));
        } else if (accept(p, "/") || accept(p, "%")) {
            char op = p->s[-1];
            long long r = unary(p);
            if (r == 0)
                return fail(p, "division by zero");
            v = arith(p, op, v, r);
        } else {
            return v;
        }
    }
}

static long long add(parser_t *p)
{
    long long v = mul(p);
    for (;;) {
        if (accept(p, "+"))
            v = arith(p, '+', v, mul(p));
        else if (accept(p, "-"))
            v = arith(p, '-', v, mul(p));
        else
            return v;
    }
}

static long long compare(parser_t *p)
{
    long long v = add(p);
    if (accept(p, "=="))
        return v == add(p);
    if (accept(p, "!="))
        return v != add(p);
    if (accept(p, "<="))
        return v <= add(p);
    if (accept(p, ">="))
        return v >= add(p);
    if (accept(p, "<"))
        return v < add(p);
    if (accept(p, ">"))
        return v > add(p);
    return v;
}

static long long parse_and(parser_t *p)
{
    long long v = compare(p);
    while (accept(p, "&&")) {
        long long r = compare(p);
        v = v && r;
    }
    return v;
}

static long long parse_or(parser_t *p)
{
    long long v = parse_and(p);
    while (accept(p, "||")) {
        long long r = parse_and(p);
        v = v || r;
    }
    return v;
}

int gb__expr_eval(const char *expr, const gb_var_t *vars, size_t nvars, long long *out, char *msg,
                  size_t msglen)
{
    if (strlen(expr) > 1024)
        return gb__fail(msg, msglen, GB_EMETADATA, "expression longer than 1024 characters");
    parser_t p = {expr, expr, vars, nvars, 0, 0, msg, msglen};
    long long v = parse_or(&p);
    skip(&p);
    if (!p.failed && *p.s)
        fail(&p, "unexpected text");
    if (p.failed)
        return GB_EMETADATA;
    *out = v;
    return GB_OK;
}
