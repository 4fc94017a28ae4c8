/* runner.h: how a measured point's calls reach its implementation (bench.c): the serial offload
 * (the implementation's own call), the zero-copy one (host memory mapped: the kernel works in
 * the inputs' own buffers, runner.c) and the pipelined one (pipeline.c). */
#ifndef GB_RUNNER_H
#define GB_RUNNER_H

#include "harness/impl/impl.h"

typedef struct gb_pipeline gb_pipeline_t;

typedef struct gb_runner {
    const gb_impl_ops_t *ops;
    gb_context_t *ctx;
    void *state;             /* serial and mapped: the implementation prepared for the problem */
    gb_hostbuf_t *mapped[3]; /* mapped: A, B and C (the inputs' out), which the kernel works in */
    size_t c_bytes;          /* mapped: C's bytes, restored from the given C before each call */
    gb_pipeline_t *pipe;     /* pipelined */
} gb_runner_t;

/* Prepares im for problem p (checked, and passed by gb_bench_check with o) as o asks: the
 * serial offload, zero-copy on in's buffers (host memory mapped), or pipelined. Fills r's
 * description of the run (route, sizes, build time, panels). Errors on ctx; release in any
 * case (run zeroed first). */
int gb__runner_prepare(gb_runner_t *run, gb_context_t *ctx, const gb_impl_t *im,
                       const gb_problem_t *p, const gb_bench_options_t *o, gb_inputs_t *in,
                       gb_result_t *r);
/* One call, as gb_impl_ops_t.call: a, b and c are the inputs' buffers (mapped: their own
 * pointers; any may be NULL: the device keeps what the last call wrote), c_out the inputs'
 * out. */
int gb__runner_call(gb_runner_t *run, const void *a, const void *b, const void *c, void *c_out,
                    double t[GB_PHASE_COUNT]);
void gb__runner_release(gb_runner_t *run);

/* ---- the pipeline (pipeline.c) ------------------------------------------------------------ */

/* How C splits for a pipeline of asked panels: C's rows where it is row-major, its columns
 * where column-major, in panels of *each (ceil(rows / asked), rounded up to a multiple of 8
 * above 8; the last panel takes the rest), *n of them: fewer than asked where the rounding
 * leaves fewer, or C has fewer rows (columns) than panels asked (one each then). */
void gb__pipeline_split(const gb_problem_t *p, int asked, size_t *each, size_t *n);
/* Panel i's problem: p's rows (columns) i*each onwards, a GEMM of its own on the same
 * buffers: its M (N) and the offsets of the split operand (op(A) for row panels, op(B) for
 * column panels) and of C moved to the panel, everything else as p. */
void gb__pipeline_panel(const gb_problem_t *p, size_t each, size_t i, gb_problem_t *out);

/* The pipeline of p (checked) over im on ctx: the whole A, B and C on the device, a queue for
 * the copies to it and one for the copies back (the kernels run on the context's), and each
 * panel prepared on those buffers. Fills r as prepare does (panel 0's route, with the panels
 * said after it; build time and helpers of them all). Errors on ctx; close in any case. */
int gb__pipeline_open(gb_pipeline_t **out, gb_context_t *ctx, const gb_impl_t *im,
                      const gb_problem_t *p, int asked, gb_result_t *r);
/* One pipelined call, as gb_impl_ops_t.call. */
int gb__pipeline_call(gb_pipeline_t *pl, const void *a, const void *b, const void *c, void *c_out,
                      double t[GB_PHASE_COUNT]);
void gb__pipeline_close(gb_pipeline_t *pl); /* accepts NULL */

#endif
