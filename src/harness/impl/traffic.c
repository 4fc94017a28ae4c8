/* traffic.c: a configuration's declared global-memory traffic for one problem (gb_impl_traffic):
 * the route a run takes (kept on the implementation where it was planned for this problem and
 * device), the family's 'traffic' evaluated on it. What `run` prints and what `report` recomputes
 * for stored points come from here, so the two agree. */
#include <stdint.h>
#include <string.h>

#include "rt/core/core.h"
#include "impl.h"

int gb_impl_traffic(const gb_impl_t *im, const gb_device_info_t *dev, const gb_problem_t *p,
                    gb_traffic_t *out, char *msg, size_t msglen)
{
    memset(out, 0, sizeof *out);
    if (msg && msglen)
        msg[0] = '\0';
    const gb_family_t *f = im->config.family;
    if (!f || !gb_family_traffic(f, 0))
        return GB_OK;
    gb_problem_t q = *p;
    int rc = gb_problem_check(&q, msg, msglen);
    if (rc != GB_OK)
        return rc;
    /* Only what the expressions name is read of the device: the route must not be refused for
     * limits a stored point's facts do not keep (work-item and image sizes). */
    gb_device_info_t d = *dev;
    d.max_wg_size = SIZE_MAX;
    d.max_wi_sizes[0] = d.max_wi_sizes[1] = d.max_wi_sizes[2] = SIZE_MAX;
    d.image2d_max[0] = d.image2d_max[1] = SIZE_MAX;
    if (!d.type_name)
        d.type_name = "other";
    gb_route_t r;
    long long bytes[2];
    if ((rc = gb__kernel_route(im, &d, &q, 0, &r, msg, msglen)) != GB_OK ||
        (rc = gb__route_traffic(&im->config, &d, &r, bytes, msg, msglen)) != GB_OK)
        return rc;
    out->declared = 1;
    out->read = (uint64_t)bytes[0];
    out->write = (uint64_t)bytes[1];
    out->flops = gb_problem_flops(&q);
    const double total = (double)out->read + (double)out->write;
    out->intensity = total > 0 ? out->flops / total : 0;
    return GB_OK;
}
