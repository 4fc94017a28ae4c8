/* tuned.c: the tuning database the tool chooses from: the shipped defaults with the store's
 * entries over them (tuned.h). */
#include <stdio.h>
#include <string.h>

#include "rt/util/util.h"
#include "tuned.h"

const char *gb_tuned_params_text(const gb_params_t *ps, char *buf, size_t len)
{
    if (!gb_params_text(ps, buf, len)[0])
        snprintf(buf, len, "(defaults)");
    return buf;
}

static int add_entry(const gb_tuned_entry_t *e, void *user)
{
    return gb_tuned_add(user, e);
}

int gb_tuned_load_store(gb_tuned_t *t, gb_store_t *st, char *msg, size_t msglen)
{
    /* Read whole, then merged at once: a store of many entries loads in linear time. */
    gb_tuned_t all;
    gb_tuned_init(&all);
    int rc = gb_store_tuned_foreach(st, add_entry, &all);
    if (rc == GB_OK)
        rc = gb_tuned_merge_all(t, all.e, all.n);
    gb_tuned_free(&all);
    if (rc != GB_OK)
        return gb__fail(msg, msglen, rc, "%s",
                        rc == GB_ENOMEM ? "out of memory" : gb_store_errmsg(st));
    return GB_OK;
}

typedef struct sync_job {
    size_t n;
    char *msg;
    size_t msglen;
} sync_job_t;

static int sync_fn(gb_store_t *st, void *user)
{
    sync_job_t *j = user;
    gb_tuned_t t;
    char path[1100];
    gb_tuned_init(&t);
    int rc = gb_tuned_load_store(&t, st, j->msg, j->msglen);
    if (rc == GB_OK && !gb_tuned_file_of_store(gb_store_path(st), path, sizeof path))
        rc = gb__fail(j->msg, j->msglen, GB_EBADARG,
                      "the store's path is too long for its tuning file");
    if (rc == GB_OK)
        rc = gb_tuned_file_write(&t, path, j->msg, j->msglen);
    j->n = t.n;
    gb_tuned_free(&t);
    return rc;
}

int gb_tuned_sync_file(gb_store_t *st, size_t *n, char *msg, size_t msglen)
{
    /* Read and written inside one write transaction: two tuners keeping winners at once (two
     * workers on one connection, or two processes) write the file one after the other, each
     * from the store as it stands, so the last file written holds every entry. */
    sync_job_t j = {0, msg, msglen};
    msg[0] = '\0';
    const int rc = gb_store_transaction(st, sync_fn, &j);
    *n = j.n;
    if (rc != GB_OK && !msg[0])
        return gb__fail(msg, msglen, GB_ESTORE, "%s", gb_store_errmsg(st));
    return rc;
}
