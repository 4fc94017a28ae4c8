/* auto.c: the tuning database behind -k auto, for the commands that take it (run, explore). */
#include <stdio.h>
#include <string.h>

#include "options.h"

/* Whether the plan's kernel list names auto. */
static int wants_auto(const gb_explore_plan_t *pl)
{
    const char *k = pl->kernels;
    const size_t n = strlen(GB_AUTO);
    while (k && (k = strstr(k, GB_AUTO))) {
        const int start = k == pl->kernels || k[-1] == ',' || k[-1] == ' ';
        if (start && (k[n] == '\0' || k[n] == ',' || k[n] == ' '))
            return 1;
        k += n;
    }
    return 0;
}

int cli_auto_open(cli_auto_t *a, const gb_explore_plan_t *pl, const char *store,
                  const char *objective)
{
    memset(a, 0, sizeof *a);
    if (!wants_auto(pl))
        return objective && strcmp(objective, GB_OBJECTIVE_TIME)
                   ? cli_error(GB_EBADARG, "--objective says which tuned entries -k auto "
                                           "takes: give -k auto, or leave it out")
                   : 0;
    /* The store's entries, where there is a store; it is only read here (with --no-store
     * too: the user's tuning is used, and nothing is written). */
    char msg[1024];
    gb_store_t *st = NULL;
    if (gb_store_open(&st, store, 0, msg, sizeof msg) != GB_OK)
        st = NULL;
    int rc = gb_auto_open(&a->db, st, -1, objective, msg, sizeof msg);
    gb_store_close(st);
    if (rc != GB_OK)
        return cli_error(rc, "the tuning database: %s", msg);
    a->open = 1;
    return 0;
}

const gb_chooser_t *cli_auto_chooser(const cli_auto_t *a)
{
    return a->open ? &a->db.chooser : NULL;
}

void cli_auto_close(cli_auto_t *a)
{
    if (a->open && a->db.warnings[0])
        fprintf(stderr, "gemmbench: warning: %s\n", a->db.warnings);
    if (a->open)
        gb_auto_close(&a->db);
    a->open = 0;
}
