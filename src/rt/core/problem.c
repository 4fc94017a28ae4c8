/* problem.c: the GEMM problem, its checks and its checked size arithmetic. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core.h"

int gb__mul_ok(size_t a, size_t b, size_t *out)
{
    if (a != 0 && b > SIZE_MAX / a)
        return 0;
    *out = a * b;
    return 1;
}

int gb__add_ok(size_t a, size_t b, size_t *out)
{
    if (b > SIZE_MAX - a)
        return 0;
    *out = a + b;
    return 1;
}

void gb_problem_init(gb_problem_t *p, gb_precision_t prec, size_t m, size_t n, size_t k)
{
    memset(p, 0, sizeof *p);
    p->precision = prec;
    p->layout = GB_ROW_MAJOR;
    p->trans_a = p->trans_b = GB_NOTRANS;
    p->m = m;
    p->n = n;
    p->k = k;
    p->alpha = 1.0;
    p->beta = 0.0;
}

void gb__stored_a(const gb_problem_t *p, size_t *rows, size_t *cols)
{
    *rows = p->trans_a == GB_NOTRANS ? p->m : p->k;
    *cols = p->trans_a == GB_NOTRANS ? p->k : p->m;
}

void gb__stored_b(const gb_problem_t *p, size_t *rows, size_t *cols)
{
    *rows = p->trans_b == GB_NOTRANS ? p->k : p->n;
    *cols = p->trans_b == GB_NOTRANS ? p->n : p->k;
}

/* Checks one operand's leading dimension (filling 0 with the minimum) and its buffer size. */
static int check_operand(const gb_problem_t *p, const char *name, size_t rows, size_t cols,
                         size_t *ld, size_t off, int code, char *msg, size_t msglen)
{
    const int row = p->layout == GB_ROW_MAJOR;
    const size_t need = row ? cols : rows, outer = row ? rows : cols;
    if (*ld == 0)
        *ld = need;
    if (*ld < need)
        return gb__fail(
            msg, msglen, code,
            "ld%s=%zu is smaller than %zu, the %s of %s-major %s (%zu x %zu as stored); "
            "make ld%s %zu or more",
            name, *ld, need, row ? "columns" : "rows", row ? "row" : "column", name, rows, cols,
            name, need);
    size_t elems, bytes;
    if (!gb__mul_ok(*ld, outer, &elems) || !gb__add_ok(elems, off, &elems) ||
        !gb__mul_ok(elems, gb_precision_bytes(p->precision), &bytes))
        return gb__fail(msg, msglen, GB_EOVERFLOW,
                        "matrix %s (ld%s=%zu x %zu) overflows the address space; use smaller sizes",
                        name, name, *ld, outer);
    if (elems > (size_t)INT_MAX)
        return gb__fail(msg, msglen, GB_EOVERFLOW,
                        "matrix %s needs %zu elements, over the 2^31-1 that kernels index; use "
                        "smaller sizes",
                        name, elems);
    return GB_OK;
}

int gb_problem_check(gb_problem_t *p, char *msg, size_t msglen)
{
    if ((unsigned)p->precision >= GB_PREC_COUNT)
        return gb__fail(msg, msglen, GB_EBADPRECISION, "unknown precision; use " GB_PREC_NAMES);
    if (p->layout != GB_ROW_MAJOR && p->layout != GB_COL_MAJOR)
        return gb__fail(msg, msglen, GB_EBADLAYOUT, "unknown layout; use row or col");
    if ((p->trans_a != GB_NOTRANS && p->trans_a != GB_TRANS) ||
        (p->trans_b != GB_NOTRANS && p->trans_b != GB_TRANS))
        return gb__fail(msg, msglen, GB_EBADTRANS, "unknown transposition; use N, T or C");
    const int cplx = gb_precision_is_complex(p->precision);
    if (!cplx && ((p->conj_a && p->trans_a == GB_TRANS) || (p->conj_b && p->trans_b == GB_TRANS)))
        return gb__fail(msg, msglen, GB_EBADTRANS,
                        "conjugate transposition C needs a complex precision; use T, or "
                        "--precision c or z");
    /* Conjugation goes with transposition only (BLAS has no conjugate without it). */
    p->conj_a = p->trans_a == GB_TRANS && p->conj_a;
    p->conj_b = p->trans_b == GB_TRANS && p->conj_b;
    if (p->m == 0)
        return gb__fail(msg, msglen, GB_EBADM, "M must be a positive integer; give -M 1 or more");
    if (p->n == 0)
        return gb__fail(msg, msglen, GB_EBADN, "N must be a positive integer; give -N 1 or more");
    if (p->k == 0)
        return gb__fail(msg, msglen, GB_EBADK, "K must be a positive integer; give -K 1 or more");
    if (!isfinite(p->alpha) || !isfinite(p->beta) || !isfinite(p->alpha_im) ||
        !isfinite(p->beta_im))
        return gb__fail(msg, msglen, GB_EBADSCALAR, "alpha and beta must be finite numbers");
    if (!cplx && (p->alpha_im != 0.0 || p->beta_im != 0.0))
        return gb__fail(msg, msglen, GB_EBADSCALAR,
                        "alpha and beta are real numbers in a real precision; give one number, "
                        "or --precision c or z");
    size_t r, c;
    int rc;
    gb__stored_a(p, &r, &c);
    if ((rc = check_operand(p, "a", r, c, &p->lda, p->off_a, GB_EBADLDA, msg, msglen)) != GB_OK)
        return rc;
    gb__stored_b(p, &r, &c);
    if ((rc = check_operand(p, "b", r, c, &p->ldb, p->off_b, GB_EBADLDB, msg, msglen)) != GB_OK)
        return rc;
    return check_operand(p, "c", p->m, p->n, &p->ldc, p->off_c, GB_EBADLDC, msg, msglen);
}

void gb_problem_buffer_elems(const gb_problem_t *p, size_t *a, size_t *b, size_t *c)
{
    const int row = p->layout == GB_ROW_MAJOR;
    size_t r, cl;
    gb__stored_a(p, &r, &cl);
    *a = p->off_a + p->lda * (row ? r : cl);
    gb__stored_b(p, &r, &cl);
    *b = p->off_b + p->ldb * (row ? r : cl);
    *c = p->off_c + p->ldc * (row ? p->m : p->n);
}

int gb_precision_is_complex(gb_precision_t prec)
{
    return prec == GB_PREC_C || prec == GB_PREC_Z;
}

size_t gb_precision_parts(gb_precision_t prec)
{
    return gb_precision_is_complex(prec) ? 2 : 1;
}

double gb_problem_flops(const gb_problem_t *p)
{
    const double per = gb_precision_is_complex(p->precision) ? 8.0 : 2.0;
    return per * (double)p->m * (double)p->n * (double)p->k;
}

size_t gb_precision_bytes(gb_precision_t prec)
{
    switch (prec) {
    case GB_PREC_D:
    case GB_PREC_C: return sizeof(double);
    case GB_PREC_Z: return 2 * sizeof(double);
    case GB_PREC_H:
    case GB_PREC_HH:
    case GB_PREC_B: return 2;
    default: return sizeof(float);
    }
}

const char *gb_precision_name(gb_precision_t prec)
{
    static const char *const names[GB_PREC_COUNT] = {"s", "d", "h", "b", "c", "z", "hh"};
    return (unsigned)prec < GB_PREC_COUNT ? names[prec] : "s";
}

const char *gb_precision_title(gb_precision_t prec)
{
    static const char *const titles[GB_PREC_COUNT] = {"single",
                                                      "double",
                                                      "FP16",
                                                      "bfloat16",
                                                      "complex single",
                                                      "complex double",
                                                      "FP16 with FP16 sums"};
    return (unsigned)prec < GB_PREC_COUNT ? titles[prec] : "single";
}

gb_precision_t gb_precision_arith(gb_precision_t prec)
{
    return prec == GB_PREC_D || prec == GB_PREC_Z ? GB_PREC_D : GB_PREC_S;
}

const char *gb_precision_mask_text(unsigned mask, char *buf, size_t len)
{
    size_t used = 0;
    if (len)
        buf[0] = '\0';
    for (int p = 0; p < GB_PREC_COUNT; p++)
        if (mask & (1u << p))
            gb__appendf(buf, len, &used, "%s%s", used ? "," : "",
                        gb_precision_name((gb_precision_t)p));
    return buf;
}

int gb_precision_parse(const char *s, gb_precision_t *out)
{
    if (!strcasecmp(s, "s") || !strcasecmp(s, "single") || !strcasecmp(s, "float") ||
        !strcmp(s, "32"))
        *out = GB_PREC_S;
    else if (!strcasecmp(s, "d") || !strcasecmp(s, "double") || !strcmp(s, "64"))
        *out = GB_PREC_D;
    else if (!strcasecmp(s, "h") || !strcasecmp(s, "half") || !strcasecmp(s, "fp16"))
        *out = GB_PREC_H;
    else if (!strcasecmp(s, "b") || !strcasecmp(s, "bf16") || !strcasecmp(s, "bfloat16"))
        *out = GB_PREC_B;
    else if (!strcasecmp(s, "c") || !strcasecmp(s, "complex") || !strcasecmp(s, "complex64"))
        *out = GB_PREC_C;
    else if (!strcasecmp(s, "z") || !strcasecmp(s, "complex128"))
        *out = GB_PREC_Z;
    else if (!strcasecmp(s, "hh"))
        *out = GB_PREC_HH;
    else
        return GB_EBADPRECISION;
    return GB_OK;
}

int gb_layout_parse(const char *s, gb_layout_t *out)
{
    if (!strcasecmp(s, "row") || !strcasecmp(s, "rowmajor") || !strcasecmp(s, "r"))
        *out = GB_ROW_MAJOR;
    else if (!strcasecmp(s, "col") || !strcasecmp(s, "colmajor") || !strcasecmp(s, "column") ||
             !strcasecmp(s, "c"))
        *out = GB_COL_MAJOR;
    else
        return GB_EBADLAYOUT;
    return GB_OK;
}

int gb_trans_parse(const char *s, gb_trans_t *out)
{
    if (!strcasecmp(s, "n") || !strcasecmp(s, "notrans"))
        *out = GB_NOTRANS;
    else if (!strcasecmp(s, "t") || !strcasecmp(s, "trans"))
        *out = GB_TRANS;
    else
        return GB_EBADTRANS;
    return GB_OK;
}

int gb_op_parse(const char *s, gb_trans_t *trans, int *conj)
{
    *conj = !strcasecmp(s, "c") || !strcasecmp(s, "conjtrans");
    if (*conj) {
        *trans = GB_TRANS;
        return GB_OK;
    }
    return gb_trans_parse(s, trans);
}

unsigned gb_layout_index(gb_layout_t layout, gb_trans_t ta, gb_trans_t tb)
{
    return (unsigned)layout * 4u + (unsigned)ta * 2u + (unsigned)tb;
}

const char *gb_problem_layout_tag(const gb_problem_t *p, char *buf, size_t len)
{
    snprintf(buf, len, "%s-%c%c", p->layout == GB_ROW_MAJOR ? "row" : "col",
             p->trans_a != GB_TRANS ? 'N'
             : p->conj_a            ? 'C'
                                    : 'T',
             p->trans_b != GB_TRANS ? 'N'
             : p->conj_b            ? 'C'
                                    : 'T');
    return buf;
}

gb_problem_t gb__problem_swapped(const gb_problem_t *p)
{
    gb_problem_t q = *p;
    q.layout = p->layout == GB_ROW_MAJOR ? GB_COL_MAJOR : GB_ROW_MAJOR;
    q.m = p->n;
    q.n = p->m;
    q.trans_a = p->trans_b;
    q.trans_b = p->trans_a;
    q.conj_a = p->conj_b; /* op(B)^T of B^H is conj(B): conjugation follows its operand */
    q.conj_b = p->conj_a;
    q.lda = p->ldb;
    q.ldb = p->lda;
    q.off_a = p->off_b;
    q.off_b = p->off_a;
    return q;
}

int gb__problem_transposed_c(const gb_problem_t *p, gb_problem_t *q)
{
    if (p->conj_a || p->conj_b || gb_precision_is_complex(p->precision))
        return 0;
    *q = p->layout == GB_ROW_MAJOR ? gb__problem_swapped(p) : *p;
    q->layout = GB_ROW_MAJOR;
    q->trans_a = q->trans_a == GB_TRANS ? GB_NOTRANS : GB_TRANS;
    q->trans_b = q->trans_b == GB_TRANS ? GB_NOTRANS : GB_TRANS;
    return 1;
}

int gb__problem_vector(const gb_problem_t *p, gb_problem_t *q, int *swapped)
{
    if (p->conj_a || p->conj_b)
        return 0;
    const int row = p->layout == GB_ROW_MAJOR;
    if ((row && p->n == 1) || (!row && p->m == 1)) { /* a row-major column already */
        *q = row ? *p : gb__problem_swapped(p);
        if (swapped)
            *swapped = !row;
    } else if ((row && p->m == 1) || (!row && p->n == 1)) {
        /* A column-major column (of the swapped problem where p is row-major): the same
         * memory read row-major, each stored matrix its transpose, C's elements 1 apart. */
        *q = row ? gb__problem_swapped(p) : *p;
        if (swapped)
            *swapped = row;
        q->layout = GB_ROW_MAJOR;
        q->trans_a = q->trans_a == GB_TRANS ? GB_NOTRANS : GB_TRANS;
        q->trans_b = q->trans_b == GB_TRANS ? GB_NOTRANS : GB_TRANS;
        q->ldc = 1;
    } else {
        return 0;
    }
    if (q->trans_b == GB_TRANS) { /* B stored as one row of K: the column K x 1 */
        q->trans_b = GB_NOTRANS;
        q->ldb = 1;
    }
    return 1;
}

void gb__problem_1m(const gb_problem_t *p, gb_problem_t *real, gb_problem_t *row, int *swapped,
                    int *pack)
{
    const int swap = p->layout != GB_ROW_MAJOR;
    const gb_problem_t q = swap ? gb__problem_swapped(p) : *p;
    const int packed = q.trans_a == GB_TRANS;
    if (row)
        *row = q;
    if (swapped)
        *swapped = swap;
    if (pack)
        *pack = packed;
    gb_problem_t r = q;
    r.precision = gb_precision_arith(p->precision);
    r.trans_a = r.trans_b = GB_NOTRANS;
    r.conj_a = r.conj_b = 0;
    r.n = 2 * q.n;
    r.k = 2 * q.k;
    r.lda = packed ? r.k : 2 * q.lda;
    r.off_a = packed ? 0 : 2 * q.off_a;
    r.ldb = r.n;
    r.off_b = 0;
    r.ldc = 2 * q.ldc;
    r.off_c = 2 * q.off_c;
    *real = r;
}
