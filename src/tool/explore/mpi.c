/* mpi.c: a sweep spread over MPI ranks (explore --mpi), on the fleet's messages
 * (src/tool/fleet). Rank 0 coordinates: it alone holds the store, hands out point indices from
 * the one queue (workers.c) as ranks ask, checks each remote job's id against the store before
 * it runs, and stores the whole points that come back. Every rank expands the same plan, so an
 * index names the same point everywhere; a rank makes its job on its own device. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explore.h"

/* ---- rank 0 ------------------------------------------------------------------------------- */

/* Stores the result a rank sent: "index\0rc\0desc\0msg\0json". */
static int take_result(gb_xp_queue_t *q, const gb_xp_worker_t *r, const char *buf, size_t len,
                       char *msg, size_t msglen)
{
    size_t at = 0;
    const size_t index = (size_t)strtoull(gb_fleet_mpi_field(buf, len, &at), NULL, 10);
    const int rc = atoi(gb_fleet_mpi_field(buf, len, &at));
    const char *desc = gb_fleet_mpi_field(buf, len, &at), *why = gb_fleet_mpi_field(buf, len, &at);
    const char *json = gb_fleet_mpi_field(buf, len, &at);
    gb_point_t pt;
    gb_point_init(&pt);
    gb_xp_outcome_t o = {r, index, desc, why, rc, NULL};
    char perr[512];
    if (rc == GB_OK || rc == 1) {
        cJSON *j = cJSON_Parse(json);
        const int prc = j ? gb_point_from_json(j, &pt, perr, sizeof perr) : GB_EBADARG;
        cJSON_Delete(j);
        if (prc != GB_OK) {
            gb_point_free(&pt);
            return gb__fail(msg, msglen, GB_EIO, "%s sent a point that does not read back (%s)",
                            r->label, j ? perr : "not JSON");
        }
        o.pt = &pt;
    }
    const int src = gb_xp_queue_done(q, &o, msg, msglen);
    gb_point_free(&pt);
    return src;
}

int gb_xp_mpi_coordinate(gb_xp_queue_t *q, void *user)
{
    gb_xp_mpi_coord_t *c = user;
    const int size = c->mpi->size;
    gb_xp_worker_t *rs = calloc((size_t)size, sizeof *rs); /* the ranks, by number */
    if (!rs)
        return gb__fail(c->msg, c->msglen, GB_ENOMEM, "out of memory");
    for (int r = 1; r < size; r++)
        snprintf(rs[r].label, sizeof rs[r].label, "rank %d", r);
    int live = size - 1, rc = GB_OK;
    gb_fleet_wait_t wait = {c->stop, c->grace_s, 0, 0};
    while (live > 0 && !wait.gave_up) {
        int from, tag;
        size_t len;
        char *buf = gb_fleet_mpi_next(&wait, &from, &tag, &len);
        if (!buf) {
            if (!wait.gave_up && c->stopping)
                c->stopping((int)*c->stop);
            continue;
        }
        gb_xp_worker_t *r = &rs[from];
        if (tag == GB_FLEET_TAG_HELLO) {
            snprintf(r->label, sizeof r->label, "%s", buf);
        } else if (tag == GB_FLEET_TAG_ASK) {
            size_t index = 0;
            const int work = rc == GB_OK && gb_xp_queue_take(q, r, &index);
            gb_fleet_mpi_answer(from, work, index);
            live -= !work;
        } else if (tag == GB_FLEET_TAG_CHECK) {
            const int stored = gb_xp_queue_stored(q, buf);
            gb_fleet_mpi_send(NULL, 0, from, stored ? GB_FLEET_TAG_SKIP : GB_FLEET_TAG_GO);
            if (stored) {
                /* Counted as stored meanwhile; the rank asks again. */
                gb_xp_outcome_t o = {r, 0, buf, "", 1, NULL};
                if (gb_xp_queue_done(q, &o, c->msg, c->msglen) != GB_OK)
                    rc = GB_JOB_ESTORE;
            }
        } else if (tag == GB_FLEET_TAG_RESULT) {
            const int trc = take_result(q, r, buf, len, c->msg, c->msglen);
            if (trc != GB_OK && rc == GB_OK)
                rc = trc;
        }
        free(buf);
    }
    if (live > 0)
        c->lost = (size_t)live;
    free(rs);
    return rc;
}

/* ---- ranks 1.. ----------------------------------------------------------------------------- */

int gb_xp_mpi_work(gb_explore_t *ex, const gb_xp_worker_t *w, long pause_ms, char *msg,
                   size_t msglen)
{
    const char *hello[] = {w->label};
    gb_fleet_mpi_send(hello, 1, 0, GB_FLEET_TAG_HELLO);
    size_t index;
    while (gb_fleet_mpi_ask(&index)) {
        gb_job_t job;
        char desc[512], why[1024] = "", idx[32], code[16];
        if (gb_explore_job_on(ex, index, w->kind, &job) != GB_OK)
            return gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
        gb_job_describe(&job, desc, sizeof desc);
        snprintf(idx, sizeof idx, "%zu", index);
        if (job.code != GB_OK) {
            snprintf(code, sizeof code, "%d", job.code);
            const char *f[] = {idx, code, desc, job.why, ""};
            gb_fleet_mpi_send(f, 5, 0, GB_FLEET_TAG_RESULT);
            continue;
        }
        const char *id[] = {job.id};
        int tag = 0;
        size_t rlen;
        gb_fleet_mpi_send(id, 1, 0, GB_FLEET_TAG_CHECK);
        free(gb_fleet_mpi_recv(0, &tag, &rlen));
        if (tag == GB_FLEET_TAG_SKIP)
            continue;
        gb_point_t pt;
        gb_point_init(&pt);
        int rc = gb_job_measure(&job, w->ctx, NULL, GB_JOB_KEEP_NONE, &pt, why, sizeof why);
        char *json = NULL;
        if (rc == GB_OK) {
            cJSON *j = gb_point_to_json(&pt);
            json = j ? cJSON_PrintUnformatted(j) : NULL;
            cJSON_Delete(j);
            if (!json) {
                rc = GB_ENOMEM;
                snprintf(why, sizeof why, "out of memory writing the point");
            }
        }
        snprintf(code, sizeof code, "%d", rc);
        const char *f[] = {idx, code, desc, why, json ? json : ""};
        const int src = gb_fleet_mpi_send(f, 5, 0, GB_FLEET_TAG_RESULT);
        free(json);
        gb_point_free(&pt);
        if (src != GB_OK)
            return gb__fail(msg, msglen, src, "out of memory");
        gb_fleet_pause(pause_ms);
    }
    return GB_OK;
}
