/* grid.c: a table of text cells, built once and drawn as aligned text, a Markdown table or an
 * HTML table, so the three formats cannot disagree on what a table holds. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_int.h"

int gb_report__grid_init(gb_report__grid_t *g, size_t ncols)
{
    memset(g, 0, sizeof *g);
    g->ncols = ncols;
    g->right = calloc(ncols ? ncols : 1, 1);
    g->wrap = calloc(ncols ? ncols : 1, 1);
    return g->right && g->wrap ? GB_OK : GB_ENOMEM;
}

void gb_report__grid_free(gb_report__grid_t *g)
{
    if (!g)
        return;
    size_t cells = g->cell ? (g->nrows + 1) * g->ncols : 0;
    for (size_t i = 0; i < cells; i++)
        free(g->cell[i]);
    free(g->cell);
    free(g->mark);
    free(g->right);
    free(g->wrap);
    memset(g, 0, sizeof *g);
}

int gb_report__grid_head(gb_report__grid_t *g, const char *const *head, size_t ncols)
{
    int rc = gb_report__grid_init(g, ncols);
    if (rc == GB_OK)
        rc = gb_report__grid_row(g);
    for (size_t c = 0; rc == GB_OK && c < ncols; c++)
        rc = gb_report__grid_set(g, c, "%s", head[c]);
    return rc;
}

int gb_report__grid_row(gb_report__grid_t *g)
{
    size_t used = g->cell ? g->nrows + 1 : 0; /* rows held, the header included */
    if (used == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 16;
        char **cell = realloc(g->cell, cap * g->ncols * sizeof *cell);
        if (!cell)
            return GB_ENOMEM;
        g->cell = cell;
        unsigned char *mark = realloc(g->mark, cap * g->ncols);
        if (!mark)
            return GB_ENOMEM;
        g->mark = mark;
        g->cap = cap;
    }
    for (size_t c = 0; c < g->ncols; c++) {
        g->cell[used * g->ncols + c] = NULL;
        g->mark[used * g->ncols + c] = 0;
    }
    if (used)
        g->nrows++;
    return GB_OK;
}

int gb_report__grid_set(gb_report__grid_t *g, size_t col, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    char **cell = &g->cell[g->nrows * g->ncols + col];
    free(*cell);
    if (!(*cell = malloc(strlen(buf) + 1)))
        return GB_ENOMEM;
    strcpy(*cell, buf);
    return GB_OK;
}

const char *gb_report__num(double v, char *buf, size_t len)
{
    if (isnan(v))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.2f", v);
    return buf;
}

static const char *cell_at(const gb_report__grid_t *g, size_t row, size_t col)
{
    const char *s = g->cell[row * g->ncols + col];
    return s ? s : "";
}

void gb_report__grid_text(const gb_report__grid_t *g, FILE *f)
{
    size_t *w = calloc(g->ncols ? g->ncols : 1, sizeof *w);
    unsigned char *star = calloc(g->ncols ? g->ncols : 1, 1);
    if (!w || !star)
        goto done;
    /* A marked cell reads "12.34*": the column keeps a place for the star, so that its
     * numbers stay aligned. */
    for (size_t r = 1; r <= g->nrows; r++)
        for (size_t c = 0; c < g->ncols; c++)
            star[c] |= g->mark[r * g->ncols + c];
    for (size_t r = 0; r <= g->nrows; r++)
        for (size_t c = 0; c < g->ncols; c++) {
            size_t n = strlen(cell_at(g, r, c)) + (r ? star[c] : 0);
            w[c] = n > w[c] ? n : w[c];
        }
    for (size_t r = 0; r <= g->nrows; r++) {
        for (size_t c = 0; c < g->ncols; c++) {
            const char *s = cell_at(g, r, c);
            size_t extra = r ? star[c] : 0;
            const char *suffix = !extra ? "" : g->mark[r * g->ncols + c] ? "*" : " ";
            int pad = (int)(w[c] - strlen(s) - extra);
            int last = c + 1 == g->ncols;
            if (g->right[c])
                fprintf(f, "%*s%s%s", pad, "", s, suffix);
            else if (last)
                fprintf(f, "%s%s", s, suffix[0] == '*' ? "*" : "");
            else
                fprintf(f, "%s%s%*s", s, suffix, pad, "");
            if (!last)
                fputs("  ", f);
        }
        fputc('\n', f);
        if (r == 0) {
            for (size_t c = 0; c < g->ncols; c++) {
                for (size_t i = 0; i < w[c]; i++)
                    fputc('-', f);
                if (c + 1 < g->ncols)
                    fputs("  ", f);
            }
            fputc('\n', f);
        }
    }
done:
    free(w);
    free(star);
}

/* Markdown cells cannot hold '|' (it ends the cell) or a newline. */
static void md_cell(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            fputs("\\|", f);
        else
            fputc(*s == '\n' ? ' ' : *s, f);
    }
}

void gb_report__grid_md(const gb_report__grid_t *g, FILE *f)
{
    for (size_t r = 0; r <= g->nrows; r++) {
        fputc('|', f);
        for (size_t c = 0; c < g->ncols; c++) {
            int mark = g->mark[r * g->ncols + c];
            fputc(' ', f);
            fputs(mark ? "**" : "", f);
            md_cell(f, cell_at(g, r, c));
            fputs(mark ? "**" : "", f);
            fputs(" |", f);
        }
        fputc('\n', f);
        if (r == 0) {
            fputc('|', f);
            for (size_t c = 0; c < g->ncols; c++)
                fputs(g->right[c] ? "---:|" : "---|", f);
            fputc('\n', f);
        }
    }
}

void gb_report__html_escape(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default: fputc(*s, f); break;
        }
    }
}

void gb_report__grid_html(const gb_report__grid_t *g, FILE *f)
{
    fputs("<table>\n<thead><tr>", f);
    for (size_t c = 0; c < g->ncols; c++) {
        fputs(g->right[c] ? "<th class=\"num\">" : "<th>", f);
        gb_report__html_escape(f, cell_at(g, 0, c));
        fputs("</th>", f);
    }
    fputs("</tr></thead>\n<tbody>\n", f);
    for (size_t r = 1; r <= g->nrows; r++) {
        fputs("<tr>", f);
        for (size_t c = 0; c < g->ncols; c++) {
            static const char *const wrap[3] = {"", "wrap", "cmd"};
            const int mark = g->mark[r * g->ncols + c];
            char cls[32];
            snprintf(cls, sizeof cls, "%s%s%s%s%s", g->right[c] ? "num" : "",
                     g->right[c] && mark ? " " : "", mark ? "best" : "",
                     (g->right[c] || mark) && g->wrap[c] ? " " : "", wrap[g->wrap[c] % 3]);
            if (cls[0])
                fprintf(f, "<td class=\"%s\">", cls);
            else
                fputs("<td>", f);
            gb_report__html_escape(f, cell_at(g, r, c));
            fputs("</td>", f);
        }
        fputs("</tr>\n", f);
    }
    fputs("</tbody>\n</table>\n", f);
}
