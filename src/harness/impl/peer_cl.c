/* peer_cl.c: what the library peers on our own OpenCL queue (CLBlast, our library) share: their
 * A, B, C buffers, the writes before a timed call, the read of C and the copies' times after it,
 * and the checks that do not depend on the library (impl.h). */
#include <stdio.h>

#include "impl.h"

int gb__peer_buffers(gb_peer_bufs_t *pb, gb_context_t *ctx, const gb_problem_t *p)
{
    size_t elems[3];
    const size_t es = gb_precision_bytes(p->precision);
    gb_problem_buffer_elems(p, &elems[0], &elems[1], &elems[2]);
    static const char *const what[3] = {"clCreateBuffer(A)", "clCreateBuffer(B)",
                                        "clCreateBuffer(C)"};
    int rc = GB_OK;
    for (int d = 0; d < 3 && rc == GB_OK; d++) {
        cl_int err;
        pb->bytes[d] = elems[d] * es;
        pb->buf[d] = clCreateBuffer(ctx->cl, d < 2 ? CL_MEM_READ_ONLY : CL_MEM_READ_WRITE,
                                    pb->bytes[d], NULL, &err);
        rc = gb__cl_check(ctx, err, what[d]);
    }
    return rc;
}

void gb__peer_buffers_free(gb_peer_bufs_t *pb)
{
    for (int d = 0; d < 3; d++)
        if (pb->buf[d])
            clReleaseMemObject(pb->buf[d]);
}

int gb__peer_write(gb_context_t *ctx, const gb_peer_bufs_t *pb, const void *const in[3],
                   cl_event ev[4], int finish)
{
    cl_int err = CL_SUCCESS;
    for (int d = 0; d < 3 && err == CL_SUCCESS; d++)
        if (in[d])
            err = clEnqueueWriteBuffer(ctx->queue, pb->buf[d], CL_FALSE, 0, pb->bytes[d], in[d], 0,
                                       NULL, &ev[d]);
    if (err == CL_SUCCESS && finish)
        err = clFinish(ctx->queue);
    return gb__cl_check(ctx, err, "writing the inputs");
}

int gb__peer_finish(gb_context_t *ctx, const gb_peer_bufs_t *pb, int rc, void *c_out,
                    cl_event ev[4], double t0, double t[GB_PHASE_COUNT])
{
    if (rc == GB_OK && c_out)
        rc = gb__cl_check(ctx,
                          clEnqueueReadBuffer(ctx->queue, pb->buf[2], CL_TRUE, 0, pb->bytes[2],
                                              c_out, 0, NULL, &ev[3]),
                          "reading C");
    t[GB_PHASE_WALL] = gb__now_ms() - t0;
    for (int i = 0; i < 4; i++)
        if (ev[i]) {
            t[i == 3 ? GB_PHASE_D2H : GB_PHASE_H2D] += gb__event_ms(ev[i], NULL);
            clReleaseEvent(ev[i]);
        }
    t[GB_PHASE_OPS] = t[GB_PHASE_MAIN];
    t[GB_PHASE_OFFLOAD] = t[GB_PHASE_OPS] + t[GB_PHASE_H2D] + t[GB_PHASE_D2H];
    return rc;
}

int gb__peer_check(const gb_impl_t *im, const gb_device_info_t *dev, gb_precision_t prec,
                   const gb_problem_t *p, char *msg, size_t msglen)
{
    (void)im, (void)p;
    if (gb_precision_arith(prec) == GB_PREC_D && dev && !dev->fp64)
        return gb__fail(msg, msglen, GB_ENOFP64,
                        "device '%s' has no double precision (cl_khr_fp64); choose single "
                        "precision",
                        dev->name);
    return GB_OK;
}

int gb__peer_program_id(const gb_impl_t *im, const gb_device_info_t *dev, const gb_problem_t *p,
                        char *buf, size_t len, char *msg, size_t msglen)
{
    (void)im, (void)dev, (void)p, (void)msg, (void)msglen;
    snprintf(buf, len, "none");
    return GB_OK;
}
