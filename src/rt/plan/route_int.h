/* route_int.h: what route.c (the route: layouts, copies, passes) takes from geometry.c (its
 * build options, sizes and traffic, and the expressions' values); not for other modules, which
 * use route.h. */
#ifndef GB_ROUTE_INT_H
#define GB_ROUTE_INT_H

#include "rt/family/expr.h"
#include "rt/family/registry.h"
#include "route.h"

/* The variables of one plan: the configuration's parameters, the problem as the kernel sees
 * it, the device's, and the family's lets once evaluated. */
typedef struct gb_route_vars {
    gb_var_t v[GB_MAX_PARAMS + 8 + 2 + GB_MAX_LETS];
    size_t n;
} gb_route_vars_t;

/* Evaluates the metadata expression expr (key what); a failure names the key. With positive,
 * the value must be at least 1 (sizes, multiples). */
int gb__route_eval(const gb_family_t *f, const gb_route_vars_t *vs, const char *what,
                   const char *expr, int positive, long long *out, char *msg, size_t msglen);
/* Appends ", what" (or what, first) to the route's text. */
void gb__route_text_add(gb_route_t *r, const char *what);
/* x rounded up to a multiple of m. */
size_t gb__round_up(size_t x, size_t m);
/* The build options into r (the problem as the kernel sees it in vs). */
int gb__route_options(const gb_config_t *cfg, const gb_device_info_t *dev,
                      const gb_route_vars_t *vs, gb_route_t *r, char *msg, size_t msglen);
/* The lets, the launch's sizes and its checks into r; vs gains the device's names and lets. */
int gb__route_geometry(const gb_family_t *f, const gb_device_info_t *dev, gb_route_vars_t *vs,
                       gb_route_t *r, char *msg, size_t msglen);

#endif
