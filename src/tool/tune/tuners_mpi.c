/* tuners_mpi.c: a tuning over MPI ranks (tune --mpi), on the fleet's messages
 * (src/tool/fleet). Rank 0 hands out runs by the ranks' kinds of device; a rank tunes each into
 * a store in memory, seeded with what rank 0's store holds at that shape, and sends back its
 * points and its winner, which rank 0 stores and keeps as its own tuners'. docs/scale-out.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tuned.h"
#include "tuners_int.h"
#include "winner.h"

/* ---- rank 0 --------------------------------------------------------------------------------- */

/* One run's result from a rank (label): "index\0rc\0points\0winner\0runs" (JSON exports; runs:
 * the rank's record of the tuning run, with its evaluations), stored; the stored hook's code,
 * else the rank's own. */
static int take_remote(gb_tuners_t *tu, gb_store_t *st, const char *label, const char *buf,
                       size_t len)
{
    const gb_tuners_hooks_t *h = tu->hooks;
    size_t at = 0, added = 0, present = 0;
    gb_fleet_mpi_field(buf, len, &at);
    const int rrc = atoi(gb_fleet_mpi_field(buf, len, &at));
    const char *points = gb_fleet_mpi_field(buf, len, &at);
    const char *winner = gb_fleet_mpi_field(buf, len, &at);
    const char *record = gb_fleet_mpi_field(buf, len, &at);
    char msg[1024] = "";
    int rc = GB_OK;
    gb_tuned_t t;
    gb_tuned_init(&t);
    gb_tune_outcome_t out;
    memset(&out, 0, sizeof out);
    if (points[0])
        rc = gb_store_import_json(st, points, strlen(points), label, &added, &present);
    size_t nruns = 0;
    if (rc == GB_OK && record[0])
        rc = gb_store_tune_runs_add_json(st, record, &nruns);
    if (rc == GB_OK && winner[0])
        rc = gb_tuned_from_json(&t, winner, strlen(winner), label, "store", msg, sizeof msg);
    if (rc == GB_OK && t.n == 1) {
        out.have_winner = 1;
        out.winner = t.e[0];
        rc = gb_leaders_keep(st, &out, msg, sizeof msg);
    }
    rc = h->stored(label, rc, rc == GB_ESTORE || !t.n ? gb_store_errmsg(st) : msg, &out, h->user);
    gb_tuned_free(&t);
    if (rrc && !gb_tuners__stopped(tu))
        rc = rc ? rc : rrc;
    return rc;
}

/* The store's points at one shape and precision, as a JSON export (caller frees; NULL when
 * there are none or on failure): a rank's cache for the run it is handed. */
typedef struct shape_cache {
    gb_store_t *mem;
    size_t m, n, k;
    gb_precision_t prec;
    size_t count;
} shape_cache_t;

static int cache_one(const gb_point_t *pt, void *user)
{
    shape_cache_t *c = user;
    const gb_problem_t *p = &pt->problem;
    if (p->m == c->m && p->n == c->n && p->k == c->k && p->precision == c->prec)
        c->count += gb_store_insert(c->mem, pt) == GB_OK;
    return 0;
}

static char *shape_points(gb_store_t *st, const gb_tune_spec_t *spec)
{
    char msg[256], *text = NULL;
    size_t len = 0, n = 0;
    shape_cache_t c = {NULL, spec->m, spec->n, spec->k, spec->precision, 0};
    if (gb_store_open(&c.mem, ":memory:", GB_STORE_CREATE, msg, sizeof msg) != GB_OK)
        return NULL;
    FILE *f = NULL;
    if (gb_store_foreach(st, 1, cache_one, &c) == GB_OK && c.count &&
        (f = open_memstream(&text, &len)) != NULL) {
        gb_store_export_json(c.mem, f, &n);
        fclose(f);
    }
    gb_store_close(c.mem);
    return text;
}

/* What rank 0 knows of another rank: its label and its device's kind, from its HELLO. */
typedef struct rank_info {
    char label[160];
    size_t kind;
    int known; /* its HELLO is read */
} rank_info_t;

/* A rank's HELLO, "label\0name\0driver\0platform": its kind, a new one where no device of
 * this process nor any rank before had it. 0 or the fail hook's code. */
static int hello_from(gb_tuners_t *tu, int from, rank_info_t *r, const char *buf, size_t len)
{
    const gb_tuners_hooks_t *h = tu->hooks;
    size_t at = 0;
    snprintf(r->label, sizeof r->label, "%s", gb_fleet_mpi_field(buf, len, &at));
    const char *name = gb_fleet_mpi_field(buf, len, &at);
    const char *driver = gb_fleet_mpi_field(buf, len, &at);
    const char *platform = gb_fleet_mpi_field(buf, len, &at);
    const size_t before = tu->kinds.n;
    if (!name[0] || gb_fleet_kinds_index(&tu->kinds, name, driver, platform, &r->kind) != GB_OK) {
        char msg[200];
        snprintf(msg, sizeof msg,
                 "tune: rank %d's device did not reach rank 0 whole; run the same command again",
                 from);
        return h->fail(GB_ENOMEM, msg, h->user);
    }
    r->known = 1;
    if (tu->kinds.n > before)
        h->new_kind(r->label, driver, platform, h->user);
    return 0;
}

/* An ASK from rank `from` (r): the next run of its kind and the points rank 0's store holds at
 * its shape, or stop. A rank sends its HELLO before its first ASK, and MPI keeps the order of
 * two messages from one rank to another (both match the probe of any tag), so its kind is known
 * here; a HELLO that did not read back stops it. 1 when it was handed a run. */
static int answer(gb_tuners_t *tu, int from, const rank_info_t *r)
{
    size_t run = 0;
    const int work = r->known && gb_tuners__next(tu, r->kind, &run);
    gb_fleet_mpi_answer(from, work, run);
    if (work) {
        /* What the store already holds at that shape: the rank's cache, so that a candidate
         * measured before is not measured again there either; and a run of its own (an item)
         * as text, which the rank did not plan. */
        gb_tune_spec_t spec;
        gb_tuners__spec(tu, &tu->w[0], run, &spec);
        char *cache = shape_points(tu->serve_st, &spec);
        const gb_tune_runs_t *runs = tu->spec.runs;
        char *item =
            runs->items ? gb_tune_item_text(&runs->items[run], gb_tuners__time_left(tu)) : NULL;
        const char *f[] = {cache ? cache : "", item ? item : ""};
        gb_fleet_mpi_send(f, 2, from, GB_FLEET_TAG_CHECK);
        free(cache);
        free(item);
    }
    return work;
}

/* Rank 0's main thread: serves the other ranks until each was told to stop (its own devices
 * tune on threads meanwhile). A rank takes the runs of its device's kind, shared with this
 * process's devices and the other ranks of that kind. After a stop request it waits 30 s for
 * the runs in flight. */
int gb_tuners__serve(gb_tuners_t *tu)
{
    const gb_tuners_hooks_t *h = tu->hooks;
    const int size = tu->spec.mpi->size;
    int rc = 0;
    rank_info_t *ranks = calloc((size_t)size, sizeof *ranks); /* by rank */
    if (!ranks)
        return h->fail(GB_ENOMEM, "out of memory", h->user);
    int live = size - 1;
    gb_fleet_wait_t wait = {h->run.stop, 30.0, 0, 0};
    while (live > 0 && !wait.gave_up) {
        int from, tag, trc = 0;
        size_t len;
        char *buf = gb_fleet_mpi_next(&wait, &from, &tag, &len);
        if (!buf)
            continue;
        rank_info_t *r = &ranks[from];
        if (tag == GB_FLEET_TAG_HELLO)
            trc = hello_from(tu, from, r, buf, len);
        else if (tag == GB_FLEET_TAG_ASK)
            live -= !answer(tu, from, r);
        else if (tag == GB_FLEET_TAG_RESULT)
            trc = take_remote(tu, tu->serve_st, r->label, buf, len);
        if (trc && !rc) {
            rc = trc;
            gb_tuners__stop_all(tu);
        }
        free(buf);
    }
    if (live > 0) {
        char msg[200];
        snprintf(msg, sizeof msg,
                 "%d rank(s) stopped answering; what they sent is stored; run the same command "
                 "again to go on",
                 live);
        h->warn(msg, h->user);
    }
    free(ranks);
    return rc;
}

/* ---- ranks 1.. ------------------------------------------------------------------------------ */

/* Rank `r`'s run tuned into mem (seeded with rank 0's points, which follow the answer) and sent
 * back to rank 0: the finished hook's code. */
static int tune_sent(gb_tuners_t *tu, size_t r, gb_store_t *mem)
{
    const gb_tuners_hooks_t *h = tu->hooks;
    gb_tuner_t *w = &tu->w[0];
    gb_tune_spec_t spec;
    gb_tune_outcome_t out;
    char idx[32], code[16];
    int tag;
    size_t clen, added = 0, present = 0, at = 0;
    char *buf = gb_fleet_mpi_recv(0, &tag, &clen);
    const char *cache = buf ? gb_fleet_mpi_field(buf, clen, &at) : "";
    const char *text = buf ? gb_fleet_mpi_field(buf, clen, &at) : "";
    /* A run of its own comes as text (tune --refresh: rank 0 planned it); else the index is
     * one of the runs every rank made alike from the command line. */
    gb_tune_item_t *item = text[0] ? malloc(sizeof *item) : NULL;
    double left = 0;
    if (text[0] && (!item || gb_tune_item_parse(item, &left, text, tu->spec.base->base) != GB_OK)) {
        free(item);
        free(buf);
        return h->fail(GB_EIO,
                       "tune: a run from rank 0 did not read back; run the same command again",
                       h->user);
    }
    if (item)
        gb_tuners__spec_item(tu, w, item, left, &spec);
    else
        gb_tuners__spec(tu, w, r, &spec);
    if (cache[0] &&
        gb_store_import_json(mem, cache, strlen(cache), "rank 0", &added, &present) != GB_OK) {
        char msg[1200];
        snprintf(msg, sizeof msg,
                 "%s: rank 0's points did not read back (%s); measuring them again", w->label,
                 gb_store_errmsg(mem));
        h->warn(msg, h->user);
    }
    const int rc = gb_tuners__one(tu, 0, &spec, mem, &out);
    char *points = NULL, *winner = NULL;
    size_t plen = 0, count = 0;
    FILE *f = open_memstream(&points, &plen);
    if (f) {
        gb_store_export_json(mem, f, &count);
        fclose(f);
    }
    gb_tuned_t t;
    gb_tuned_init(&t);
    if (out.have_winner && gb_tuned_add(&t, &out.winner) == GB_OK)
        winner = gb_tuned_to_json(&t);
    gb_tuned_free(&t);
    char *record = gb_store_tune_runs_to_json(mem);
    snprintf(idx, sizeof idx, "%zu", r);
    snprintf(code, sizeof code, "%d", rc);
    const char *fields[] = {idx, code, points ? points : "", winner ? winner : "",
                            record ? record : ""};
    gb_fleet_mpi_send(fields, 5, 0, GB_FLEET_TAG_RESULT);
    free(points);
    free(winner);
    free(record);
    free(item);
    free(buf);
    return rc;
}

/* A rank other than 0: each run asked of rank 0 is tuned into a store in memory (no file is
 * written here), whose points and winner go back to rank 0. */
int gb_tuners__remote(gb_tuners_t *tu)
{
    const gb_tuners_hooks_t *h = tu->hooks;
    gb_tuner_t *w = &tu->w[0];
    /* Its device's kind: rank 0 hands it the runs of that kind. */
    const gb_device_info_t *d = gb_context_device(w->ctx);
    const char *hello[] = {w->label, d->name, d->driver, d->platform_name};
    gb_fleet_mpi_send(hello, 4, 0, GB_FLEET_TAG_HELLO);
    size_t r;
    int rc = 0;
    while (gb_fleet_mpi_ask(&r)) {
        gb_store_t *mem = NULL;
        char msg[512], why[700];
        if (gb_store_open(&mem, ":memory:", GB_STORE_CREATE, msg, sizeof msg) != GB_OK) {
            snprintf(why, sizeof why, "%s: %s", w->label, msg);
            return h->fail(GB_EIO, why, h->user);
        }
        rc = tune_sent(tu, r, mem);
        gb_store_close(mem);
    }
    return rc;
}
