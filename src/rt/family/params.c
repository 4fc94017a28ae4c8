/* params.c: parameter assignments by name (gb_params_t), and which values a parameter allows. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/core/core.h"
#include "registry.h"

int gb_params_set(gb_params_t *ps, const char *name, long value)
{
    if (strlen(name) >= GB_NAME_MAX)
        return GB_EBADPARAM;
    for (size_t i = 0; i < ps->count; i++)
        if (!strcmp(ps->name[i], name)) {
            ps->value[i] = value;
            return GB_OK;
        }
    if (ps->count == GB_MAX_PARAMS)
        return GB_EBADPARAM;
    snprintf(ps->name[ps->count], GB_NAME_MAX, "%s", name);
    ps->value[ps->count++] = value;
    return GB_OK;
}

int gb_params_get(const gb_params_t *ps, const char *name, long *value)
{
    for (size_t i = 0; i < ps->count; i++)
        if (!strcmp(ps->name[i], name)) {
            *value = ps->value[i];
            return 1;
        }
    return 0;
}

int gb_params_equal(const gb_params_t *a, const gb_params_t *b)
{
    long v;
    if (a->count != b->count)
        return 0;
    for (size_t i = 0; i < a->count; i++)
        if (!gb_params_get(b, a->name[i], &v) || v != a->value[i])
            return 0;
    return 1;
}

const char *gb_params_text(const gb_params_t *ps, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < ps->count; i++)
        gb__appendf(buf, len, &used, "%s%s=%ld", i ? " " : "", ps->name[i], ps->value[i]);
    return buf;
}

int gb_params_parse(gb_params_t *ps, const char *s, char *msg, size_t msglen)
{
    const char *eq = strchr(s, '=');
    char name[GB_NAME_MAX];
    if (!eq || eq == s || (size_t)(eq - s) >= sizeof name)
        return gb__fail(msg, msglen, GB_EBADPARAM,
                        "bad parameter '%s'; write NAME=VALUE, e.g. WPT=4", s);
    memcpy(name, s, (size_t)(eq - s));
    name[eq - s] = '\0';
    char *end;
    errno = 0;
    long v = strtol(eq + 1, &end, 10);
    if (end == eq + 1 || *end || errno)
        return gb__fail(msg, msglen, GB_EBADPARAM,
                        "bad parameter '%s'; the value must be an integer", s);
    if (gb_params_set(ps, name, v) != GB_OK)
        return gb__fail(msg, msglen, GB_EBADPARAM, "too many parameters given (at most 32)");
    return GB_OK;
}

int gb__param_allowed(const gb_param_t *p, long v)
{
    if (!p->values)
        return v >= p->lo && v <= p->hi;
    for (size_t i = 0; i < p->nvalues; i++)
        if (p->values[i] == v)
            return 1;
    return 0;
}
