/* tuning_check.c: `gemmbench store check`'s walk over the tuning tables: the entries (tuning.c),
 * then the runs, evaluations and failures (tune_runs.c), in one snapshot. */
#include <sqlite3.h>

#include "tuning_int.h"

int gb_store_tuning_check(gb_store_t *st, int (*bad)(const gb_tuning_damage_t *d, void *user),
                          void *user, size_t *checked)
{
    gb_store__damage_walk_t w = {st, bad, user, 0};
    *checked = 0;
    gb_store__lock(st);
    /* One read transaction: one snapshot of the four tables. */
    int rc = gb_store__exec(st, "BEGIN");
    if (rc == GB_OK)
        rc = gb_store__tuned_check(st, &w, checked);
    if (rc == GB_OK)
        rc = gb_store__tune_runs_check(st, &w, checked);
    sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL);
    gb_store__unlock(st);
    return rc;
}
