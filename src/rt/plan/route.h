/* route.h: how a problem reaches a kernel family's kernel, planned without a device: the
 * row/column-major operand swap, transposition and padding passes, copies that realign or
 * repack an operand, images over packed copies, the leading dimensions the kernel sees, launch
 * sizes, the workspace and the build options. Pure: no OpenCL call, so a unit test can check
 * every case against a device described by hand. The callers (the harness's kernel.c, the
 * library's tables.c) build and allocate what the route says; the launch (launch.h) binds and
 * enqueues it. */
#ifndef GB_ROUTE_H
#define GB_ROUTE_H

#include "gemmbench.h"
#include "rt/family/family.h"

/* gb_transpose's block (kernels/helpers.cl's GB_TT): elements a side, a work-group each. */
#define GB__TRANSPOSE_BLOCK 32
/* The helper passes' program's build options for prec (the precision's, the transpose block's),
 * into buf. */
const char *gb__helper_options(gb_precision_t prec, char *buf, size_t len);

/* The buffers a route names: the caller's A, B, C, the temporaries of A, B, C, and the
 * workspace (the argument WS). */
typedef enum gb_buf {
    GB_BUF_A,
    GB_BUF_B,
    GB_BUF_C,
    GB_BUF_TA,
    GB_BUF_TB,
    GB_BUF_TC,
    GB_BUF_WS
} gb_buf_t;

/* What a helper pass does (kernels/helpers.cl). */
typedef enum gb_pass {
    GB_PASS_COPY,   /* gb_copy: an operand copied, transposed where trans */
    GB_PASS_PACK,   /* gb_pack1m: op(A) of a complex problem as the real rows x cols matrix X */
    GB_PASS_EXPAND, /* gb_expand1m: alpha op(B) as the real rows x cols matrix Y of 2x2 blocks */
    GB_PASS_SCALE   /* gb_cscale: the complex C scaled by beta in place, before the kernel */
} gb_pass_t;

/* One helper pass: dst (d_outer x d_inner elements at d_off, leading dimension d_ld) written
 * from src (s_outer x s_inner at s_off, s_ld), transposed where trans; post: after the kernel.
 * The 1M passes (PACK, EXPAND) write their rows x cols matrix (its transpose where trans) from
 * the complex operand at s_off, s_ld, read transposed where s_trans; EXPAND conjugates as
 * conj_a, conj_b say, and with panel writes Y as the prologue's panels of that many columns
 * (d_outer rows each, one after another) instead of rows d_ld apart. SCALE scales the complex
 * C's d_outer x d_inner at d_off, d_ld. */
typedef struct gb_route_copy {
    int post, trans;
    int tiled; /* a transposition through local memory (gb_transpose): on a GPU, whose strided
                  reads waste most of each sector; a CPU's caches serve gb_copy's faster
                  (bench/notes/wgmma.md#tiled-transpose) */
    int wide;  /* a straight copy of real elements between 4-aligned rows: four elements a
                  work-item (gb_copy4, which the helpers build for real elements only) */
    gb_buf_t dst, src;
    size_t d_outer, d_inner, d_off, d_ld;
    size_t s_outer, s_inner, s_off, s_ld;
    gb_pass_t kind;
    int s_trans, conj_a, conj_b;
    size_t rows, cols, panel;
} gb_route_copy_t;

#define GB_ROUTE_MAX_COPIES 5 /* A in (packed), B in (expanded), C scaled, C in, C out */

typedef struct gb_route {
    gb_problem_t kernel;     /* the problem as the main kernel sees it: swapped, transposed,
                              padded, with the leading dimensions of the copies */
    int swapped;             /* served through the operand swap (A is the caller's B) */
    int transposed_c;        /* the kernel writes C transposed (the family's 'transposed_c') */
    int vector;              /* C, a contiguous vector, read as a row-major column
                                (gb__problem_vector): swapped where C is a row */
    int onem;                /* a complex problem on a real kernel: the 1M method (the kernel's
                                problem is gb__problem_1m's, its temporaries of its precision) */
    int made[2];             /* the kernel's A, B made by a 1M pass (not repacked copies) */
    int expand_b;            /* under 1M, the kernel stages Y from B as stored (its family's
                                expand_b), which it reads with twice its leading dimension */
    int b_panels;            /* the kernel's B made by 1M's EXPAND as the prologue's panels in
                                the workspace, the prologue not run (no temporary of B) */
    int flip[2];             /* the kernel's A, B transposed by a pass */
    int pad[3];              /* M, N, K padded with zeros to the family's multiples */
    int copy[3];             /* the kernel's A, B, C are temporaries */
    size_t temp_elems[3];    /* elements of each temporary (0: none) */
    int image[2];            /* the kernel's A, B read as image2d_t over their temporaries */
    int image_view;          /* images are views of the temporaries (else copied into images) */
    size_t image_size[2][2]; /* width and height in pixels */
    gb_route_copy_t copies[GB_ROUTE_MAX_COPIES];
    size_t ncopies;
    size_t global[2], local[2];
    int local_null; /* the driver chooses the work-group size */
    size_t side_global[GB_NSIDES][2], side_local[GB_NSIDES][2]; /* [s][0] 0: no launch */
    size_t ws_bytes; /* the workspace (argument WS): at least 16 bytes where declared */
    int has_ws;
    size_t counters;  /* the counters the kernel counts on (the family's 'counters') */
    size_t cnt_bytes; /* their buffer (argument CNT): at least 16 bytes where declared, else 0 */
    long long lets[GB_MAX_LETS]; /* the family's 'let' values, in its order */
    long long factor;            /* the launch factor's value (1 where none is declared) */
    int unsplit;                 /* built with the family's 'unsplit' values (factor 1) */
    char options[512];           /* the main program's build options */
    char ptx[24]; /* "": plain OpenCL C; else its program is made of the PTX its compiler makes:
                     raised to the target given ("sm_90a"), and after a "/" its kernels'
                     .minnctapersm ("sm_90a/2", "/3": the target kept; nvidia_min_groups) */
    char helper_options[64]; /* the helper passes' program's ("" when no copy is needed) */
    char text[128];          /* what a results row says: "swap, transpose B, pad to 64x64x64" */
} gb_route_t;

/* What of a device a route depends on (gb__route_plan reads nothing else of it but its name, for
 * messages): the facts that shape the route, and the limits that may refuse it. */
typedef struct gb_route_device {
    int nvidia;                 /* an NVIDIA GPU: -DGB_NVIDIA=1, and NVIDIA = 1 in expressions */
    int cpu;                    /* a CPU: transposing copies by gb_copy, not gb_transpose */
    unsigned compute_units;     /* CUS */
    int image2d_from_buffer;    /* images are views of their copies */
    unsigned image_pitch_align; /* those copies' rows padded to it */
    size_t max_wg_size, max_wi_sizes[2], image2d_max[2]; /* the limits */
} gb_route_device_t;

/* dev's facts as a route sees them. */
void gb__route_device(const gb_device_info_t *dev, gb_route_device_t *out);
/* Where families may take NVIDIA-only paths (an NVIDIA GPU): -DGB_NVIDIA=1, and NVIDIA = 1 in
 * expressions. */
int gb__route_nvidia(const gb_device_info_t *dev);
/* The device's facts as expressions see them (NVIDIA, CUS; dev NULL: no device, one compute
 * unit), into vars; returns GB_DEVICE_VARS. */
#define GB_DEVICE_VARS 2
struct gb_var;
size_t gb__route_device_vars(const gb_device_info_t *dev, struct gb_var *vars);
/* Whether routes planned on devices a and b are the same: their facts equal and, with limits,
 * their limits too (without: a route planned on a is the one b would plan where b's limits
 * refuse nothing, as gb_impl_traffic's device, whose limits are lifted). */
int gb__route_device_same(const gb_route_device_t *a, const gb_route_device_t *b, int limits);

/* Plans problem p (already checked) for configuration cfg on dev. GB_OK, GB_EMETADATA when the
 * family's expressions fail (msg names the key), GB_EOVERFLOW when a padded copy would exceed
 * 32-bit indexing. */
int gb__route_plan(const gb_config_t *cfg, const gb_problem_t *p, const gb_device_info_t *dev,
                   gb_route_t *r, char *msg, size_t msglen);

/* The scalars of a call on route r with the caller's alpha and beta in kp (the kernel's problem,
 * which keeps the imaginary parts under 1M): what the kernel takes (kernel[0] alpha, kernel[1]
 * beta), and under 1M what EXPAND multiplies op(B) by and SCALE multiplies C by (real,
 * imaginary), so that each rounds as the problem asks: a real alpha or beta is the kernel's. */
void gb__route_scalars(const gb_route_t *r, const gb_problem_t *kp, double kernel[2],
                       double alpha[2], double beta[2]);

/* The family's declared traffic for planned route r (gb__route_plan of cfg on dev): read and
 * write bytes into bytes[0] and bytes[1], evaluated with the names the geometry saw (the
 * problem as the kernel sees it, the parameters, NVIDIA, CUS, the lets). GB_OK with both -1
 * where the family declares none; GB_EMETADATA naming the file and key when an expression fails
 * or is negative. */
int gb__route_traffic(const gb_config_t *cfg, const gb_device_info_t *dev, const gb_route_t *r,
                      long long bytes[2], char *msg, size_t msglen);

/* Leading dimension, in elements, of the packed copy an image is made over, for rows of inner
 * elements: rounded up to the device's image pitch alignment where images are views. */
size_t gb__image_ld(const gb_device_info_t *dev, size_t inner);

#endif
