/* choose.c: -k auto's chooser over the tuning database (choose.h). */
#include <stdio.h>
#include <string.h>

#include "rt/util/util.h"
#include "choose.h"

static int choose(void *user, const gb_device_info_t *dev, const gb_problem_t *p, char *kernel,
                  size_t klen, gb_params_t *params, char *why, size_t wlen)
{
    const gb_auto_t *a = user;
    gb_tuned_choice_t c;
    char msg[512];
    int rc = gb_tuned_choose(&a->db, a->reg, dev, p, &c, msg, sizeof msg);
    if (rc != GB_OK) {
        gb__copy(why, wlen, msg);
        return rc;
    }
    gb__copy(kernel, klen, c.kernel);
    *params = c.params;
    gb__copy(why, wlen, c.why);
    return GB_OK;
}

int gb_auto_open(gb_auto_t *a, const gb_registry_t *reg, gb_store_t *st, char *msg, size_t msglen)
{
    memset(a, 0, sizeof *a);
    gb_tuned_init(&a->db);
    a->reg = reg;
    a->chooser.choose = choose;
    a->chooser.user = a;
    int rc = gb_tuned_load_shipped(&a->db) == GB_OK
                 ? GB_OK
                 : gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
    if (rc == GB_OK && st)
        rc = gb_tuned_load_store(&a->db, st, msg, msglen);
    if (rc != GB_OK)
        gb_tuned_free(&a->db);
    return rc;
}

void gb_auto_close(gb_auto_t *a)
{
    gb_tuned_free(&a->db);
}
