/* peers.h: libraries run as implementations beside our kernels (CLBlast on the same OpenCL
 * queue, cuBLAS where the CUDA toolkit was found at build time), through the same calls as a
 * kernel family so that timing and validation are identical. */
#ifndef GB_PEERS_H
#define GB_PEERS_H

#include "../device/context.h"

typedef struct gb_peer gb_peer_t;

/* The peers compiled in, as registry families (library set, no source). Caller adds them. */
size_t gb__peer_count(void);
const char *gb__peer_name(size_t i);
const char *gb__peer_description(size_t i);

/* Prepares library `name` for problem p (checked). Returns GB_EUNSUPPORTED with a message on
 * ctx when the library cannot run on this device (cuBLAS needs an NVIDIA GPU). */
int gb__peer_prepare(gb_context_t *ctx, const char *name, const gb_problem_t *p, gb_peer_t **out);
/* One call, as gb__impl_call: writes inputs, runs the library's GEMM, reads C, times phases.
 * The library's own helper kernels cannot be told apart from its GEMM: "main" is the time
 * from enqueue to completion of the library call, and "helpers" is 0. */
int gb__peer_call(gb_peer_t *pe, const void *a, const void *b, const void *c, void *c_out,
                  double t[GB_PHASE_COUNT]);
void gb__peer_release(gb_peer_t *pe);

#endif
