/* gemmbench.h: the public API of libgemmbench, the only installed header.
 *
 * libgemmbench enumerates OpenCL devices, loads GEMM kernel families (OpenCL C source plus JSON
 * metadata), runs a GEMM problem C = alpha*op(A)*op(B) + beta*C with one of them, times it and
 * validates the result against a double-precision CPU reference. The library never prints and
 * never aborts: every failing call returns a negative gb_error_t and leaves a one-line message on
 * its handle (or in the caller's buffer for calls without one).
 *
 * Threads: the library keeps no mutable global state of its own. A device list, a registry and
 * the families, presets and implementations taken from it are read-only once made: any number
 * of threads may read them at once. A context (gb_context_t) and everything made on it (its
 * queue, its message) belongs to one thread at a time; give each thread its own context (on the
 * same device or others) to measure in parallel. The one exception is gb_impl_prebuild: any
 * number of threads may call it on a context while one other thread uses that context, and the
 * warning and build-log handlers may then be called on those threads. What the library sets up
 * once per process is set up under pthread_once (the NVML energy library); the program cache on disk is shared
 * between threads and processes through files written whole and renamed into place.
 */
#ifndef GEMMBENCH_H
#define GEMMBENCH_H

#include <stddef.h>
#include <stdint.h>

#include "gemmbench_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- errors ---------------------------------------------------------------------------------- */

/* X(name, value, description): the harness's codes besides the GEMM library's (GB_ERROR_TABLE,
 * gemmbench_base.h), in the values that table leaves free: what a problem, its data and their
 * validation, the command line's runs and the results store refuse. The library never returns
 * them (its M, N or K of 0 is BLAS's quick return, not GB_EBADM). gb_strerror() and gb_errname()
 * know them. */
#define GB_HARNESS_ERROR_TABLE(X)                                                                  \
    X(GB_EBADM, -3, "M must be a positive integer")                                                \
    X(GB_EBADN, -4, "N must be a positive integer")                                                \
    X(GB_EBADK, -5, "K must be a positive integer")                                                \
    X(GB_EBADSCALAR, -12, "alpha or beta is not a finite number")                                  \
    X(GB_EBADDIST, -13, "unknown data distribution")                                               \
    X(GB_ERANGE, -15, "inputs or scalars overflow the precision")                                  \
    X(GB_ETIMEOUT, -24, "ran past its time limit")                                                 \
    X(GB_ECRASH, -25, "the process crashed while it ran")                                          \
    X(GB_ENOENERGY, -26, "energy could not be measured")                                           \
    X(GB_ENOSOURCE, -32, "kernel source file missing")                                             \
    X(GB_EVALIDATION, -50, "result failed validation")                                             \
    X(GB_EIO, -51, "file input/output failed")                                                     \
    X(GB_ENOSTORE, -60, "no results store there")                                                  \
    X(GB_ENOTSTORE, -61, "the file is not a gemmbench results store")                              \
    X(GB_ECORRUPT, -62, "the results store is damaged")                                            \
    X(GB_ESTORE, -63, "the results store failed")                                                  \
    X(GB_ENOPOINT, -64, "no such point in the results store")                                      \
    X(GB_EBADPOINT, -65, "malformed point")                                                        \
    X(GB_EBADPLAN, -66, "malformed plan")

typedef enum gb_harness_error {
#define GB_X_ENUM(name, value, text) name = value,
    GB_HARNESS_ERROR_TABLE(GB_X_ENUM)
#undef GB_X_ENUM
} gb_harness_error_t;

/* The library never prints. Where it recovers from something its user should still hear of (a
 * damaged program-cache entry, removed and rebuilt), it calls the function set here with a
 * one-line message; NULL (the default) drops them. Process-wide, like SQLite's
 * SQLITE_CONFIG_LOG: set it once, before opening contexts. */
typedef void (*gb_warning_fn)(const char *msg, void *user);
void gb_set_warning_handler(gb_warning_fn fn, void *user);

/* The driver's build log of each program that builds with something to say (warnings, notes),
 * with the program's name and build options; NULL (the default) drops them. A failed build's
 * log is in its error message instead. Programs loaded from the program cache are not built, so
 * have no log. Process-wide, set before opening contexts. */
typedef void (*gb_build_log_fn)(const char *program, const char *options, const char *log,
                                void *user);
void gb_set_build_log_handler(gb_build_log_fn fn, void *user);

/* ---- the problem ----------------------------------------------------------------------------- */

/* Storage precisions: single and double, FP16 (IEEE binary16) and bfloat16, the last two held in
 * 16 bits and computed in single precision (products accumulated in FP32), and complex single
 * and double (c, z), each element a real and an imaginary part side by side as BLAS stores
 * them. hh (the CLI's --accumulate h) is FP16 with its sums accumulated in FP16: every partial
 * sum rounded to FP16, to nearest even, judged by FP16's unit roundoff. */
typedef enum gb_precision {
    GB_PREC_S = 0,
    GB_PREC_D = 1,
    GB_PREC_H = 2,
    GB_PREC_B = 3,
    GB_PREC_C = 4,
    GB_PREC_Z = 5,
    GB_PREC_HH = 6
} gb_precision_t;
#define GB_PREC_COUNT 7
/* A mask of 1u << gb_precision_t: every one but hh, h with another accumulation, which is asked
 * for by name (--accumulate h), not swept by --precision all. */
#define GB_PREC_ALL (((1u << GB_PREC_COUNT) - 1) & ~(1u << GB_PREC_HH))
/* The mask of those stored in 16 bits (h, hh: FP16; b: bfloat16), computed in single. */
#define GB_PREC_STORAGE16 ((1u << GB_PREC_H) | (1u << GB_PREC_B) | (1u << GB_PREC_HH))
/* gb_precision_name's names, as a message lists them. */
#define GB_PREC_NAMES "s, d, h, b, c, z or hh"
typedef enum gb_layout { GB_ROW_MAJOR = 0, GB_COL_MAJOR = 1 } gb_layout_t;
typedef enum gb_trans { GB_NOTRANS = 0, GB_TRANS = 1 } gb_trans_t;

/* One GEMM: C (m x n) = alpha * op(A) (m x k) * op(B) (k x n) + beta * C. Leading dimensions of
 * 0 mean "the minimum"; gb_problem_check() fills them in. Offsets are in elements (a complex
 * element is two reals). For complex precisions alpha and beta have imaginary parts alpha_im
 * and beta_im, and conj_a (conj_b) with trans_a (trans_b) GB_TRANS makes op(A) the conjugate
 * transpose A^H (BLAS's 'C'); the transposition itself stays in trans_a, so everything that
 * only places elements treats C as T. Real precisions keep all four at 0. */
typedef struct gb_problem {
    gb_precision_t precision;
    gb_layout_t layout;
    gb_trans_t trans_a, trans_b;
    size_t m, n, k;
    double alpha, beta;
    size_t lda, ldb, ldc;
    size_t off_a, off_b, off_c;
    double alpha_im, beta_im;
    int conj_a, conj_b;
} gb_problem_t;

/* Defaults: row-major, NN, alpha 1, beta 0, minimum leading dimensions, no offsets. */
void gb_problem_init(gb_problem_t *p, gb_precision_t prec, size_t m, size_t n, size_t k);
/* Checks every field and fills in zero leading dimensions. Returns the code of the first bad
 * field (GB_EBADM, GB_EBADLDA, ...), GB_EOVERFLOW when a buffer size overflows or exceeds
 * 32-bit kernel indexing; msg (may be NULL) gets a one-line explanation with the fix. */
int gb_problem_check(gb_problem_t *p, char *msg, size_t msglen);
/* The floating-point operations GFLOP/s counts for the problem: 2 M N K, and 8 M N K for complex
 * precisions (a complex multiply-add is four real multiplications and four additions). */
double gb_problem_flops(const gb_problem_t *p);
/* Elements each buffer holds (offset + ld * outer dimension), valid after gb_problem_check(). */
void gb_problem_buffer_elems(const gb_problem_t *p, size_t *a, size_t *b, size_t *c);
size_t gb_precision_bytes(gb_precision_t prec);
/* Whether the precision is complex (c, z): an element is two reals, real part first. */
int gb_precision_is_complex(gb_precision_t prec);
/* Reals per element: 2 for c and z, else 1. */
size_t gb_precision_parts(gb_precision_t prec);
/* "s", "d", "h", "b", "c", "z", "hh"; parse also takes "single", "double", "half", "fp16", "bf16",
 * "bfloat16", "complex", "complex64", "complex128", "32" and "64", and returns GB_EBADPRECISION
 * on anything else. */
const char *gb_precision_name(gb_precision_t prec);
int gb_precision_parse(const char *s, gb_precision_t *out);
/* For messages: "single", "double", "FP16", "bfloat16", "complex single", "complex double",
 * "FP16 with FP16 sums". */
const char *gb_precision_title(gb_precision_t prec);
/* The precision a precision's arithmetic is done in: itself for s and d, single for h, b and c
 * (h and b are storage-only formats here: FP32 accumulation), double for z. Device peaks are
 * indexed by it. */
gb_precision_t gb_precision_arith(gb_precision_t prec);
/* "s,d,h,b" style text of a mask of 1u << gb_precision_t into buf ("" for none). */
const char *gb_precision_mask_text(unsigned mask, char *buf, size_t len);
int gb_layout_parse(const char *s, gb_layout_t *out);
int gb_trans_parse(const char *s, gb_trans_t *out);
/* "N", "T" or "C" (conjugate transpose): the transposition into *trans and whether it
 * conjugates into *conj; GB_EBADTRANS on anything else. Whether C suits the precision is the
 * caller's to check (gb_problem_check refuses conjugation with a real precision). */
int gb_op_parse(const char *s, gb_trans_t *trans, int *conj);
/* "row-NT" style tag of the problem's layout and transpositions into buf (>= 8 bytes). */
const char *gb_problem_layout_tag(const gb_problem_t *p, char *buf, size_t len);

/* Input distributions: uniform on [lo, hi], standard normal, or integers in [-r, r] (with which
 * a small enough product is exact in floating point). */
typedef enum gb_dist_kind {
    GB_DIST_UNIFORM = 0,
    GB_DIST_NORMAL = 1,
    GB_DIST_INT = 2
} gb_dist_kind_t;
typedef struct gb_dist {
    gb_dist_kind_t kind;
    double lo, hi;
    long range;
} gb_dist_t;
/* Parses "uniform:LO:HI", "uniform", "normal" or "int:R". */
int gb_dist_parse(const char *s, gb_dist_t *out, char *msg, size_t msglen);
/* Canonical text of a distribution into buf. */
const char *gb_dist_format(const gb_dist_t *d, char *buf, size_t len);
/* The largest magnitude a distribution draws (before rounding to the precision): max(|lo|, |hi|)
 * for uniform, R for int, and for normal the bound of the generator's Box-Muller transform,
 * sqrt(2 ln 2^60) = 9.12. */
double gb_dist_max_abs(const gb_dist_t *d);
/* Is the problem valid with this data: does every input, product and sum that a GEMM of it
 * computes stay finite in the problem's precision? With X the distribution's largest magnitude
 * and K the inner dimension, the bound of every intermediate magnitude is
 *   S = max(1, |alpha|) (K X^2 + X) + max(1, |beta|) X
 * (sums of K products before or after the scaling by alpha, alpha times an element, beta times
 * C), and the problem is valid when S min(2, (1 + u)^(K + 2)) <= the precision's largest
 * finite value, the factor leaving room for the rounding of the reference's and the device's
 * own sums (u the unit roundoff of the precision's arithmetic). For h and b the largest value
 * is the storage format's (65504 for FP16), since the FP32 sums are stored in it. Pure
 * (no device). GB_OK, GB_EBADDIST for a distribution that is not one (unknown kind, non-finite
 * or reversed bounds), or GB_ERANGE with msg saying which value overflows and what to change
 * (the largest magnitude or |alpha| that would do, or a wider precision). Run by gb_bench_run
 * before anything else; commands call it before they start. */
int gb_problem_check_data(const gb_problem_t *p, const gb_dist_t *d, char *msg, size_t msglen);

/* ---- devices --------------------------------------------------------------------------------- */

typedef enum gb_device_type {
    GB_DEVTYPE_ALL = 0,
    GB_DEVTYPE_CPU,
    GB_DEVTYPE_GPU,
    GB_DEVTYPE_ACC,
    GB_DEVTYPE_DEFAULT
} gb_device_type_t;

/* Facts about one OpenCL device. Peaks are in GFLOP/s; 0 means the formula is unknown for this
 * device, and peak_formula then says why. */
typedef struct gb_device_info {
    size_t platform_index, device_index;
    char platform_name[128], platform_version[128];
    char name[128], vendor[128], driver[64], version[128];
    const char *type_name; /* "cpu", "gpu", "accelerator" or "other" */
    char family[64]; /* the architecture, shared with siblings: "nvidia-sm_90" (docs/tuning.md) */
    unsigned compute_units, clock_mhz;
    uint64_t global_mem, local_mem, max_alloc; /* local_mem: CL_DEVICE_LOCAL_MEM_SIZE */
    uint64_t local_mem_kernel; /* the most a kernel's own local arrays may take: local_mem, or more
                                  where the compiler allows it (NVIDIA: the architecture's shared
                                  memory per block, 227 KB on sm_90; docs/tuning.md) */
    size_t max_wg_size, max_wi_sizes[3];
    unsigned pref_vec_float, pref_vec_double, native_vec_float, native_vec_double;
    int fp64;
    /* Images, for kernels that read operands as image2d_t (docs/kernel-metadata.md). */
    int image_support;       /* CL_DEVICE_IMAGE_SUPPORT */
    int image2d_from_buffer; /* 2D images can be created over a buffer: cl_khr_image2d_from_buffer,
                                   or OpenCL >= 2.0 with a non-zero pitch alignment */
    unsigned image_pitch_align; /* CL_DEVICE_IMAGE_PITCH_ALIGNMENT, in pixels (0: none given) */
    size_t image2d_max[2];      /* CL_DEVICE_IMAGE2D_MAX_WIDTH and _HEIGHT, in pixels */
    char *extensions;           /* owned by the list */
    double peak_gflops[2];      /* by formula, indexed by gb_precision_arith() */
    char peak_formula[2][192];
    int host_unified; /* the device works in the host's memory: CL_DEVICE_HOST_UNIFIED_MEMORY,
                         or a CPU device (--host-mem mapped needs it) */
    void *cl_platform, *cl_device; /* cl_platform_id, cl_device_id */
} gb_device_info_t;

/* Lists every device of every platform into *out (free with gb_device_list_free). A machine
 * with no platform is not an error: *count is 0. */
int gb_device_list(gb_device_info_t **out, size_t *count, char *msg, size_t msglen);
void gb_device_list_free(gb_device_info_t *list, size_t count);
/* Does the device advertise this extension? */
int gb_device_has_extension(const gb_device_info_t *d, const char *ext);

/* Device selection in the Intel sample's terms: platform by index or name substring (NULL: the
 * first that has a matching device), type, device by index within the platform or name
 * substring (NULL: the first). */
typedef struct gb_device_selector {
    const char *platform;
    gb_device_type_t type;
    const char *device;
} gb_device_selector_t;
/* A device type by name, any case: all, cpu, gpu, acc (accelerator) or default, or the OpenCL
 * constant's name (CL_DEVICE_TYPE_GPU); GB_EBADARG otherwise. */
int gb_device_type_parse(const char *s, gb_device_type_t *out);
int gb_device_select(const gb_device_info_t *list, size_t count, const gb_device_selector_t *sel,
                     size_t *index, char *msg, size_t msglen);

/* ---- kernel families ------------------------------------------------------------------------- */

#define GB_MAX_PARAMS 32
#define GB_MAX_LETS 16 /* names a family's 'let' may define */
#define GB_NAME_MAX 48

typedef struct gb_param {
    char *name, *doc;
    long def;
    long *values; /* allowed values, or NULL with nvalues 0 */
    size_t nvalues;
    long lo, hi;      /* allowed range when values is NULL */
    int untuned;      /* "tune": false: a tuning space holds only the default, unless narrowed */
    unsigned layouts; /* "layouts": the native layouts where it changes the kernel (mask of 1u <<
                       * gb_layout_index()); a family with none of them tunes only its default;
                       * 0: every layout */
    int adaptive;     /* "adapts" given: adapts is the value by which the kernel fits itself to
                       * each shape (SPLITK 0, the grid's need), which the tuner keeps in place
                       * of a fixed value that is not faster beyond the noise */
    long adapts;
} gb_param_t;

typedef struct gb_preset {
    char *name, *doc;
    unsigned precisions; /* mask of 1u << gb_precision_t the preset is for */
    size_t nset;
    char **set_names;
    long *set_values;
} gb_preset_t;

/* One kernel family as its metadata declares it (docs/kernel-metadata.md): opaque, read through
 * the accessors below. Owned by the registry; every pointer they return lives as long as the
 * registry. */
typedef struct gb_family gb_family_t;

const char *gb_family_name(const gb_family_t *f);
const char *gb_family_description(const gb_family_t *f); /* "" when the metadata has none */
/* The metadata file it came from: "kernels/naive.json", or a path under --kernel-path. */
const char *gb_family_origin(const gb_family_t *f);
const char *gb_family_entry(const gb_family_t *f);   /* the main kernel's name */
unsigned gb_family_precisions(const gb_family_t *f); /* mask of 1u << gb_precision_t */
/* A precision mask with the complex precisions its real ones serve by the 1M method (c where
 * it has s, z where it has d: docs/methodology.md). */
unsigned gb_precisions_1m(unsigned mask);
unsigned gb_family_layouts(
    const gb_family_t *f); /* native layouts: mask of 1u << gb_layout_index() */
/* The expression of the parameters under which layout i (gb_layout_index()) is native too
 * ("layouts_where"), or NULL. */
const char *gb_family_layout_where(const gb_family_t *f, unsigned i);
size_t gb_family_param_count(const gb_family_t *f);
const gb_param_t *gb_family_param(const gb_family_t *f, size_t i); /* NULL past the end */
size_t gb_family_preset_count(const gb_family_t *f);
const gb_preset_t *gb_family_preset(const gb_family_t *f, size_t i); /* NULL past the end */
/* Requirements as the metadata writes them: constraint expressions and extensions (NULL past the
 * end), and the local memory expression in bytes (NULL when none). */
const char *gb_family_constraint(const gb_family_t *f, size_t i);
const char *gb_family_extension(const gb_family_t *f, size_t i);
const char *gb_family_local_memory(const gb_family_t *f);
/* The declared global-memory traffic of the main kernel in bytes, as the metadata writes it:
 * the read expression (write 0) or the write expression (write 1); NULL when the family
 * declares none (docs/kernel-metadata.md, "Memory traffic"). */
const char *gb_family_traffic(const gb_family_t *f, int write);

/* Bit index of a layout/transposition combination in gb_family_t.layouts (0..7). */
unsigned gb_layout_index(gb_layout_t layout, gb_trans_t ta, gb_trans_t tb);
/* For a problem whose layout the user left open: keeps p's layout and transpositions if the
 * family runs them natively, else sets the family's first native combination. */
void gb_family_native_layout(const gb_family_t *f, gb_problem_t *p);

typedef struct gb_registry gb_registry_t;
/* Loads the built-in families, then those in kernel_path (NULL for none), which add to or
 * replace built-in ones by name. Free with gb_registry_close. On error *out is NULL and msg
 * names the file and key at fault. */
int gb_registry_open(gb_registry_t **out, const char *kernel_path, char *msg, size_t msglen);
void gb_registry_close(gb_registry_t *reg);
size_t gb_registry_count(const gb_registry_t *reg);
const gb_family_t *gb_registry_family(const gb_registry_t *reg, size_t i);
/* Finds a family or a preset by name (exact, then case-insensitive; at each, a family's name
 * before a preset's, so that a family of --kernel-path named like a built-in preset is found).
 * *preset is NULL when the name is a family's. Returns GB_ENOKERNEL when nothing matches. */
int gb_registry_find(const gb_registry_t *reg, const char *name, const gb_family_t **family,
                     const gb_preset_t **preset);

/* A kernel of the GEMMbench paper's metadata form, as gb_paper_import made it a family. */
typedef struct gb_paper_kernel {
    char name[GB_NAME_MAX]; /* the family's name: the paper's "name" */
    char json[4200];        /* our metadata file, written */
    gb_precision_t precision;
    int ta, tb;     /* the paper's transA, transB */
    char layout[8]; /* "row-NT" */
    long dj, di;    /* elements of C per work-item along j (columns) and i (rows) */
} gb_paper_kernel_t;
/* Imports the kernels that the GEMMbench paper's metadata file at path describes (an object
 * {"name", "file", "type", "transA", "transB", "dj", "di"} or a list of them;
 * docs/kernel-metadata.md): for each writes DIR/NAME.json, our metadata, and copies its source
 * into dir (made if missing) unless it is there, so that --kernel-path dir runs it. Every
 * kernel is checked before anything is written: bad input is GB_EMETADATA (GB_ENOSOURCE for a
 * missing source, GB_EBADARG for a file in the way) with one line in msg, and nothing written.
 * On success *out holds *count kernels (free with free()). */
int gb_paper_import(const char *path, const char *dir, gb_paper_kernel_t **out, size_t *count,
                    char *msg, size_t msglen);

/* Parameter assignments by name. */
typedef struct gb_params {
    size_t count;
    char name[GB_MAX_PARAMS][GB_NAME_MAX];
    long value[GB_MAX_PARAMS];
} gb_params_t;
int gb_params_set(gb_params_t *ps, const char *name, long value);
/* Parses "NAME=VALUE" into ps. */
int gb_params_parse(gb_params_t *ps, const char *assignment, char *msg, size_t msglen);
/* Looks a value up; returns 1 and sets *value if present. */
int gb_params_get(const gb_params_t *ps, const char *name, long *value);
/* Whether a and b assign the same values to the same names, in any order. */
int gb_params_equal(const gb_params_t *a, const gb_params_t *b);
/* "NAME=V NAME=V" in their order into buf ("" for none, cut to fit); returns buf. */
const char *gb_params_text(const gb_params_t *ps, char *buf, size_t len);

/* A kernel ready to configure: a family with every parameter valued (defaults, then the
 * preset's, then the caller's overrides). */
typedef struct gb_config {
    const gb_family_t *family;
    const gb_preset_t *preset;
    gb_params_t params;
} gb_config_t;

/* Resolves a kernel or preset name with overrides (may be NULL). GB_ENOKERNEL for an unknown
 * name, GB_EBADPARAM for an unknown parameter or a value outside the allowed set. */
int gb_config_resolve(const gb_registry_t *reg, const char *kernel, const gb_params_t *overrides,
                      gb_config_t *out, char *msg, size_t msglen);
/* Sets the work-group size parameters (LX, LY) from --lws; 0, 0 is the driver's choice (LX=0
 * LY=0: launched with no work-group size), for a family whose local size is LX, LY and whose
 * source never reads them. GB_EBADLWS when the family fixes its work-group size, needs the size
 * it names (for 0, 0), or a value is not allowed. */
int gb_config_set_lws(gb_config_t *cfg, size_t lws0, size_t lws1, char *msg, size_t msglen);
/* The name to print: the preset's, else the family's. */
const char *gb_config_name(const gb_config_t *cfg);
/* Can this configuration run this problem on this device? Checks precision, fp64, layout,
 * extensions, constraints, work-group size and local memory. GB_OK or the reason's code with
 * msg explaining it. problem may be NULL to check only what does not depend on it. */
int gb_config_check(const gb_config_t *cfg, const gb_device_info_t *dev, gb_precision_t prec,
                    const gb_problem_t *problem, char *msg, size_t msglen);

/* ---- search spaces ---------------------------------------------------------------------------- */

/* A kernel family's tuning space in one precision on one device (NULL: no device limits): each
 * parameter's candidate values (its 'values'; for a range, its powers of two with its ends and
 * its default; or the values given for it), and the configurations that pass the family's
 * constraints that do not name M, N or K (those are checked per problem), and its local memory
 * and work-group size against the device. Counted, ranked and unranked without being listed:
 * parameters are assigned in order, a check is evaluated as soon as the last parameter it names
 * has a value, and the number of valid completions of a prefix is memoised under the values it
 * depends on. Read-only once open: threads may share one. */
typedef struct gb_space gb_space_t;

#define GB_SPACE_MAX_VALUES 255 /* candidate values of one parameter */

/* Values to tune a parameter over, replacing its candidates (each must be allowed). */
typedef struct gb_space_values {
    const char *name;
    const long *values;
    size_t n;
} gb_space_values_t;

/* A configuration of a space: the index of each parameter's value, in the space's order. */
typedef struct gb_space_cand {
    unsigned char v[GB_MAX_PARAMS];
} gb_space_cand_t;

/* Opens f's space (narrow: nnarrow parameters' values, may be NULL). GB_EBADPARAM for a family
 * without parameters or a name or value it does not have; GB_EUNSUPPORTED, GB_ENOFP64, GB_ENOEXT,
 * GB_ENOIMAGES where the device cannot run the family at all; GB_ECONSTRAINT, GB_EWGSIZE or
 * GB_ELOCALMEM when no configuration is left, naming the check that emptied the space;
 * GB_EOVERFLOW over 2^62 configurations. msg says which. Close with gb_space_close. */
int gb_space_open(gb_space_t **out, const gb_family_t *f, gb_precision_t prec,
                  const gb_device_info_t *dev, const gb_space_values_t *narrow, size_t nnarrow,
                  char *msg, size_t msglen);
/* The same bound to one problem: the family's constraints on M, N and K (which gb_space_open
 * leaves to each configuration's check) hold in it too, so that no configuration that problem
 * refuses is counted or proposed. problem NULL: gb_space_open. */
int gb_space_open_for(gb_space_t **out, const gb_family_t *f, gb_precision_t prec,
                      const gb_device_info_t *dev, const gb_space_values_t *narrow, size_t nnarrow,
                      const gb_problem_t *problem, char *msg, size_t msglen);
void gb_space_close(gb_space_t *sp);
const gb_family_t *gb_space_family(const gb_space_t *sp);
/* The number of valid configurations. */
uint64_t gb_space_count(const gb_space_t *sp);
/* The parameters in the space's order, and each one's candidate values (ascending). */
size_t gb_space_nparams(const gb_space_t *sp);
const char *gb_space_param(const gb_space_t *sp, size_t i);
size_t gb_space_nvalues(const gb_space_t *sp, size_t i);
long gb_space_value(const gb_space_t *sp, size_t i, size_t j);
/* GB_OK when c passes every check, else the failing check's code (msg names it). */
int gb_space_check(const gb_space_t *sp, const gb_space_cand_t *c, char *msg, size_t msglen);
/* The valid configurations in a fixed order: the r-th of them (r < count; GB_EBADARG past it),
 * and a valid c's position (UINT64_MAX for one that is not valid). A uniform r is a uniform
 * sample of the space. */
int gb_space_unrank(const gb_space_t *sp, uint64_t r, gb_space_cand_t *c);
uint64_t gb_space_rank(const gb_space_t *sp, const gb_space_cand_t *c);
/* The valid configurations one step from c (one parameter to its next smaller or larger
 * candidate) into out (at most cap); returns how many. */
size_t gb_space_neighbours(const gb_space_t *sp, const gb_space_cand_t *c, gb_space_cand_t *out,
                           size_t cap);
/* c as parameter assignments, and back (a parameter ps lacks takes its default); GB_EBADPARAM
 * when a value is not one of the space's candidates. */
void gb_space_params(const gb_space_t *sp, const gb_space_cand_t *c, gb_params_t *out);
int gb_space_find(const gb_space_t *sp, const gb_params_t *ps, gb_space_cand_t *c);

/* ---- implementations ------------------------------------------------------------------------ */

/* What an implementation planned for one problem (gb_impl_plan): private to the implementations,
 * held by value so that a copy of a gb_impl_t holds it too. */
#define GB_IMPL_PLAN_BYTES 4096
typedef struct gb_impl_plan {
    int planned; /* 0: nothing kept */
    union {
        unsigned char bytes[GB_IMPL_PLAN_BYTES];
        long long align_ll;
        double align_d;
        void *align_p;
    } u;
} gb_impl_plan_t;

/* What computes a problem, behind one interface (check, prepare, call, release): a kernel
 * family's configuration, or a library peer run through the same harness on the same inputs
 * (CLBlast on the same OpenCL queue; cuBLAS where the CUDA toolkit was found at build time). A
 * value: ops says which (its contents are private); config is the kernel configuration, where
 * the implementation has one (gb_impl_can(im, GB_CAN_TUNE)); plan what gb_impl_plan kept
 * (zeroed by gb_impl_kernel and gb_impl_resolve). */
typedef struct gb_impl_ops gb_impl_ops_t;
typedef struct gb_impl {
    const gb_impl_ops_t *ops;
    gb_config_t config;
    gb_impl_plan_t plan;
} gb_impl_t;

/* Every implementation there is: count, and the i-th into *out (GB_ENOKERNEL past the last):
 * the families of reg in its order, each as its default configuration, then the library peers
 * compiled in (gemmbench's own library, CLBlast and cuBLAS where found, the host's OpenBLAS). */
size_t gb_impl_count(const gb_registry_t *reg);
int gb_impl_at(const gb_registry_t *reg, size_t i, gb_impl_t *out);

/* A kernel configuration as an implementation (cfg is copied; its family must outlive *out). */
void gb_impl_kernel(gb_impl_t *out, const gb_config_t *cfg);
/* Resolves a name: a kernel family or preset of reg, with overrides (NULL for none) as
 * gb_config_resolve() takes them, else a library peer by name (which takes no parameters:
 * GB_EBADPARAM). GB_ENOKERNEL when nothing has that name. */
int gb_impl_resolve(const gb_registry_t *reg, const char *name, const gb_params_t *overrides,
                    gb_impl_t *out, char *msg, size_t msglen);
/* The name to print: the preset's, the family's or the peer's. */
const char *gb_impl_name(const gb_impl_t *im);
/* Where it comes from: the family's metadata file ("kernels/naive.json") or "library". */
const char *gb_impl_origin(const gb_impl_t *im);
/* Its one-line description: the family's ("" when its metadata has none) or the peer's. */
const char *gb_impl_description(const gb_impl_t *im);
/* The folder a family loaded with --kernel-path came from, into buf, from an origin as
 * gb_impl_origin gives it (a stored point's); NULL for a built-in family or a library peer. */
const char *gb_impl_origin_folder(const char *origin, char *buf, size_t len);
/* The precisions it runs: a mask of 1u << gb_precision_t. */
unsigned gb_impl_precisions(const gb_impl_t *im);

/* What an implementation can do, or is: asked of it rather than told by what it is made of. */
typedef enum gb_impl_cap {
    GB_CAN_TUNE = 1u << 0,    /* has parameters, set by name, swept and tuned (config.params) */
    GB_CAN_LWS = 1u << 1,     /* takes a work-group size (gb_config_set_lws) */
    GB_CAN_CHECK = 1u << 2,   /* its own kernels can be checked ('gemmbench check') */
    GB_CAN_TRAFFIC = 1u << 3, /* declares its memory traffic (gb_impl_traffic) */
    GB_IS_LIBRARY = 1u << 4,  /* a library peer: no parameters and no program of its own */
    GB_IS_REDUCED = 1u << 5   /* computes on purpose in a precision below the one asked
                                 (cublas_tf32: FP32 inputs rounded to TF32): held to the error
                                 bound, its faithful verdict said but not required
                                 (gb_validation_outcome) */
} gb_impl_cap_t;
/* Its capabilities: a mask of gb_impl_cap_t. */
unsigned gb_impl_caps(const gb_impl_t *im);
/* Whether it has every capability of caps. */
int gb_impl_can(const gb_impl_t *im, unsigned caps);
/* For a problem whose layout the user left open: keeps p's layout and transpositions if the
 * implementation runs them natively, else sets its first native combination. */
void gb_impl_native_layout(const gb_impl_t *im, gb_problem_t *p);
/* Can it run this problem (NULL: what does not depend on the problem) in precision prec on this
 * device (NULL: what does not depend on the device)? GB_OK, or the reason's code with msg
 * explaining it, as gb_config_check(). Some limits show only once a kernel is compiled
 * (GB_EWGSIZE from register use): gb_bench_run() reports those. */
int gb_impl_check(const gb_impl_t *im, const gb_device_info_t *dev, gb_precision_t prec,
                  const gb_problem_t *problem, char *msg, size_t msglen);
/* The identity of what would be compiled for the (checked) problem on dev, into buf (at least
 * 41 bytes): "sha256:", 16 hex digits of the family's program text (its source after the shared
 * prelude), "/", and 16 hex digits of how it is built for this problem (its build options, and
 * the helper passes' program and options where the problem needs them); "none" for a library
 * peer. GB_EMETADATA when the family's expressions cannot be evaluated for this problem. */
int gb_impl_program_id(const gb_impl_t *im, const gb_device_info_t *dev, const gb_problem_t *p,
                       char *buf, size_t len, char *msg, size_t msglen);
/* Plans what im runs for the (checked) problem p on dev (a kernel family's route: its copies,
 * build options, launch sizes) and keeps it on im, so that gb_impl_program_id, gb_impl_prebuild,
 * gb_impl_traffic and gb_bench_run, given im with the same configuration and the same problem
 * and device, take it rather than plan again: a job plans its point once. GB_OK (a library peer
 * has nothing to plan), else the code and message gb_impl_program_id would give, with nothing
 * kept. */
int gb_impl_plan(gb_impl_t *im, const gb_device_info_t *dev, const gb_problem_t *p, char *msg,
                 size_t msglen);

/* What one call of an implementation's main kernel (with its remainder kernel) reads from and
 * writes to global memory, as its family declares it (docs/kernel-metadata.md, "Memory
 * traffic"): the bytes its loads and stores name, per work-item, not DRAM traffic after caches;
 * helper passes (transpositions, padding) are not included. */
typedef struct gb_traffic {
    int declared;         /* 0: the family declares no traffic, or a library peer */
    uint64_t read, write; /* bytes */
    double flops;         /* 2*M*N*K of the caller's problem */
    double intensity;     /* flops / (read + write): FLOP per byte */
} gb_traffic_t;
/* The declared traffic of im on problem p (checked or not: leading dimensions are filled in
 * here) on dev, for the route the problem takes (M, N, K as the kernel sees them). Of dev only
 * the vendor, type and compute units are read (the names NVIDIA and CUS); its limits are not
 * checked, so that a stored point's facts are enough. GB_OK with out->declared 0 where nothing is
 * declared; GB_EMETADATA when the family's expressions fail for this problem (msg names the
 * file and key), or the problem's own error. Achieved GB/s is (read + write) over the main
 * kernel's time (gb_result_t.time_ms[GB_PHASE_MAIN]). */
int gb_impl_traffic(const gb_impl_t *im, const gb_device_info_t *dev, const gb_problem_t *p,
                    gb_traffic_t *out, char *msg, size_t msglen);

/* ---- running and measuring ------------------------------------------------------------------- */

typedef struct gb_context gb_context_t;
/* Opens an OpenCL context and profiling queue on dev (which must outlive the context). */
int gb_context_open(gb_context_t **out, const gb_device_info_t *dev, char *msg, size_t msglen);
void gb_context_close(gb_context_t *ctx);
/* The last error's message on this context ("" if none). Valid until the next call. */
const char *gb_context_errmsg(const gb_context_t *ctx);
const gb_device_info_t *gb_context_device(const gb_context_t *ctx);
/* Makes ctx load each program it builds once more from the disk cache (where there is one), as
 * a build process does for the tuner: on NVIDIA's OpenCL that load fills CUDA's JIT cache, so the
 * tuner's own load of the program takes milliseconds (docs/tuning.md). */
void gb_context_reload_built(gb_context_t *ctx, int on);

typedef struct gb_stats {
    size_t n;
    double min, max, median, mean, std, ci95_lo, ci95_hi;
} gb_stats_t;

/* A confidence interval of the median of n samples (x is not modified) that holds whatever
 * their distribution, at any n: the order statistics [x_(l), x_(n+1-l)] with the largest l
 * whose coverage, 1 - 2 P(Binomial(n, 1/2) < l), is at least 95%. Below 6 samples no such pair
 * reaches 95%, and the interval is [min, max], of coverage 1 - 2^(1-n). Its bounds are samples,
 * so an interval of times is never negative (a t-interval of the mean over 3 timed calls once
 * gave [-2.8, 5.9] ms). *coverage (may be NULL) gets the interval's coverage. GB_OK, or
 * GB_EBADARG for n 0 and GB_ENOMEM. */
int gb_median_ci(const double *x, size_t n, double *lo, double *hi, double *coverage);

typedef enum gb_validate_mode {
    GB_VALIDATE_AUTO = -1,
    GB_VALIDATE_OFF = 0,
    GB_VALIDATE_ON = 1
} gb_validate_mode_t;

/* What one call's time is made of. Each timed call writes A, B and C to the device, runs the
 * helper passes (transposition, padding) and the main kernel, and reads C back. */
typedef enum gb_phase {
    GB_PHASE_MAIN = 0, /* the main kernel's event time, with its remainder kernel's */
    GB_PHASE_HELPERS,  /* helper kernels' event times (0 when there are none) */
    GB_PHASE_H2D,      /* host-to-device copies of A, B, C */
    GB_PHASE_D2H,      /* device-to-host copy of C */
    GB_PHASE_OPS,      /* main + helpers */
    GB_PHASE_OFFLOAD,  /* host-to-device + helpers + main + device-to-host */
    GB_PHASE_WALL,     /* host wall time of the whole call */
    GB_PHASE_COUNT
} gb_phase_t;
/* "main", "helpers", "h2d", "d2h", "ops", "offload", "wall". */
const char *gb_phase_name(gb_phase_t ph);

/* Which time the GFLOP/s headline uses: the main kernel, main + helpers (default), or the whole
 * offload including copies. */
typedef enum gb_timing { GB_TIMING_KERNEL = 0, GB_TIMING_OPS, GB_TIMING_OFFLOAD } gb_timing_t;
int gb_timing_parse(const char *s, gb_timing_t *out);
const char *gb_timing_name(gb_timing_t t);
/* The phase a timing choice reads. */
gb_phase_t gb_timing_phase(gb_timing_t t);

/* Where the operands' host copies live, which the calls' copies read and write: ordinary
 * (pageable) memory, or memory the driver has pinned for DMA (a buffer made with
 * CL_MEM_ALLOC_HOST_PTR and mapped), which copies faster; or (mapped) host memory the kernel
 * reads and writes in place, with no copies (a buffer made with CL_MEM_USE_HOST_PTR over it,
 * unmapped before the kernel and mapped after), on a device that shares the host's memory
 * (gb_device_info_t.host_unified). */
typedef enum gb_host_mem { GB_HOST_PAGEABLE = 0, GB_HOST_PINNED, GB_HOST_MAPPED } gb_host_mem_t;
#define GB_HOST_KINDS 3
int gb_host_mem_parse(const char *s, gb_host_mem_t *out);
/* "pageable", "pinned" or "mapped". */
const char *gb_host_mem_name(gb_host_mem_t h);

/* --pipeline: the panels asked when none is said, and the most. */
#define GB_PIPELINE_DEFAULT 4
#define GB_PIPELINE_MAX 256

typedef struct gb_bench_options {
    int warmup, iterations;
    gb_validate_mode_t validate;
    uint64_t seed;
    gb_dist_t dist;
    gb_timing_t timing;
    gb_host_mem_t host_mem;
    int cold; /* before every warm-up and timed call, a buffer several times the device's
                 global-memory cache is written, so that no operand is left in a cache */
    /* Adaptive: after the `iterations` calls, more until the 95% CI of the headline phase's
     * mean is within max_rel_ci of the mean (0: no such stop), or until min_time_s of timed
     * calls are spent (0: no such stop), whichever comes first; at most GB_BENCH_MAX_SAMPLES
     * calls (or the iterations, where more are asked), and GB_BENCH_MAX_ADAPTIVE_S seconds
     * where only the CI stops. The result says which
     * stop applied (gb_result_t.stop). */
    double min_time_s, max_rel_ci;
    /* Pipelined offload (timing offload only; not with host_mem mapped): C is split into this
     * many panels (row panels of a row-major C, column panels of a column-major one; fewer
     * where C has fewer rows or columns), each a GEMM of its own, whose copies overlap the
     * other panels' kernels on separate queues (docs/offload.md). 0: the serial offload. */
    int pipeline;
    /* Called once, on the calling thread, when the first call (the validating one, else the
     * first warm-up or timed call) has ended, before the others: the programs are built by
     * then, and so is what a driver compiles at a kernel's first launch (PoCL compiles its
     * work-group functions there), so a limit on the runs alone starts here (tune's
     * --candidate-timeout). NULL: none. Not part of what a measurement is (nor of its id). */
    void (*first_call_done)(void *user);
    void *first_call_user;
} gb_bench_options_t;
#define GB_BENCH_MAX_SAMPLES 10000
#define GB_BENCH_MAX_ADAPTIVE_S 60.0
void gb_bench_options_init(gb_bench_options_t *o);

typedef struct gb_validation {
    int done; /* 0: not validated (skipped or off) */
    int passed;
    int exact;          /* exact-integer mode: every element must equal the reference */
    double max_ratio;   /* max |C - Cref| / (u * G) over elements, u the storage format's */
    double bound_ratio; /* the failing threshold in the same units (for h and b where |Cref| = G) */
    size_t worst_i, worst_j;
    size_t n_over, n_nonfinite, n_canary; /* elements over the bound, NaN/Inf, touched canaries */
    char reason[160];                     /* why it failed or was skipped */
    /* The second, tighter verdict (docs/methodology.md): on a sample of C's elements, the
     * worst error (u*G) against an honest sequential computation's in the same precision on the
     * same data (for h and b: FP32's u, each error less the final rounding to the storage
     * format, docs/methodology.md). faithful: "faithful", "not faithful", or "" where it was not judged (then
     * both figures are -1). */
    char faithful[16];
    double faithful_worst, faithful_honest;
} gb_validation_t;
/* Faithful: the worst error at most this many times the honest computation's (or than one u*G,
 * where that is more). */
#define GB_FAITHFUL_LAMBDA 8.0
/* That ratio, the worst error against the honest one or one u*G (faithful: at most
 * GB_FAITHFUL_LAMBDA); -1 where the verdict was not judged. */
double gb_faithful_ratio(const gb_validation_t *v);

/* What a validated result must meet to pass ('--verdict'): GB_VERDICT_FAITHFUL (the default),
 * within the error bound and, where the faithful verdict was judged, faithful to the precision
 * asked, unless the implementation declares a reduced precision (GB_IS_REDUCED), which is held
 * to the bound alone; GB_VERDICT_BOUND, the looser one, within the error bound alone. */
typedef enum gb_verdict { GB_VERDICT_FAITHFUL = 0, GB_VERDICT_BOUND } gb_verdict_t;
/* "faithful" or "bound"; GB_EBADARG for anything else. */
int gb_verdict_parse(const char *s, gb_verdict_t *out);
const char *gb_verdict_name(gb_verdict_t v);
/* What became of a result under a verdict. */
typedef enum gb_outcome {
    GB_OUTCOME_PASS = 0,    /* validated, and passes */
    GB_OUTCOME_UNVALIDATED, /* not validated: neither passes nor fails */
    GB_OUTCOME_FAIL,        /* over the error bound (or not finite, or canaries touched) */
    GB_OUTCOME_UNFAITHFUL   /* within the bound, but judged not faithful and held to it */
} gb_outcome_t;
/* The outcome of v for an implementation of capabilities caps (gb_impl_caps) under verdict:
 * GB_OUTCOME_FAIL and GB_OUTCOME_UNFAITHFUL are failures (a run exits 1, a tuner does not
 * choose it). */
gb_outcome_t gb_validation_outcome(const gb_validation_t *v, unsigned caps, gb_verdict_t verdict);

typedef struct gb_result {
    gb_stats_t time_ms[GB_PHASE_COUNT]; /* per phase, over the timed calls */
    double *samples_ms[GB_PHASE_COUNT]; /* time_ms[].n each; freed by gb_result_free */
    /* What ended the timed calls: "count" (the iterations asked), "ci" (--max-rel-ci met),
     * "time" (--min-time spent), "cap" (GB_BENCH_MAX_SAMPLES calls, or
     * GB_BENCH_MAX_ADAPTIVE_S seconds with the CI still wide). */
    char stop[8];
    gb_timing_t timing; /* which phase the headline uses */
    double gflops;      /* 2*M*N*K / median time of the headline phase */
    double gflops_wall; /* 2*M*N*K / median wall time */
    double efficiency;  /* gflops / formula peak, or -1 when the peak is unknown */
    double build_ms;    /* this call's time getting every program: building it, loading it from
                        the binary cache, or taking it prebuilt (gb_impl_prebuild), waiting for
                        a prebuild in flight included */
    int cache_hit;      /* nothing was built by this call: every program came from the binary
                        cache or was prebuilt on the context */
    size_t global[2], local[2];
    int local_null;  /* the driver chose the work-group size */
    int swapped;     /* served through the row/column-major operand swap */
    char route[128]; /* how the problem reached the kernel: "native", "swap",
                                 "transpose B", "pad M,N,K", ... */
    size_t helpers;  /* helper kernels per call */
    size_t panels;   /* a pipelined offload's panels (0: the serial offload) */
    /* Energy, from the energy loop: after the timed calls, calls repeated for at least
     * GEMMBENCH_ENERGY_MIN_S seconds (1 by default; 0 turns it off) between two reads of the
     * device's energy counter (docs/methodology.md). energy_j, energy_w and gflops_per_watt
     * are -1 when energy is unavailable (energy_why says why). */
    double energy_j;        /* joules per call of the energy loop */
    double energy_w;        /* the loop's average power, watts */
    double gflops_per_watt; /* 2*M*N*K * energy_calls / the loop's joules / 1e9 */
    size_t energy_calls;    /* calls in the loop (0 when it did not run) */
    double energy_s;        /* seconds the loop lasted (-1 when it did not run) */
    char energy_source[48]; /* "NVML total energy", "RAPL package 0"; "" when unavailable */
    char energy_scope[32];  /* what the loop ran: "device-only calls" (timing kernel or ops:
                                 helper passes and main kernel, no copies) or "whole calls incl.
                                 copies" (timing offload); "" when it did not run */
    char energy_why[128];   /* why energy is unavailable, when it is */
    /* Clocks around the timed calls (docs/methodology.md, "Clocks and throttling"), read
     * before the first and after the last: the SM clock (NVIDIA, NVML) or cpu0's frequency
     * (Linux cpufreq) in MHz, and the GPU's temperature at the end in degrees C, -1 where not
     * read; throttle: what held the GPU's clocks down meanwhile ("power cap", "thermal", ..,
     * comma-separated), "none", or "" where not watched; governor: cpu0's scaling governor on a
     * CPU device, "" where not read. */
    double clock_mhz_start, clock_mhz_end, temp_c;
    char clocks_source[16]; /* "NVML", "cpufreq", or "" */
    char throttle[96];
    char governor[24];
    char build_options[512];
    gb_validation_t validation;
} gb_result_t;
void gb_result_free(gb_result_t *r);

/* Prepares (builds, allocates), runs and (per opts) validates one implementation on one problem.
 * Returns GB_OK even when validation fails (see r->validation); an error code when the run could
 * not happen, with the message on ctx (build logs included).
 * The context keeps the last problem's inputs (as generated and in its precision) and, once a
 * run has validated, their reference and gauge: a call with the same problem (every field), the
 * same opts->dist and opts->seed uses them again rather than computing them anew, with the same
 * results; another problem replaces them, and gb_context_close frees them. They take 8 bytes
 * per element of the A, B and C buffers (gb_problem_buffer_elems), 4 more in single precision,
 * and 16 more per element of C once validated. */
int gb_bench_run(gb_context_t *ctx, const gb_impl_t *im, const gb_problem_t *problem,
                 const gb_bench_options_t *opts, gb_result_t *r);
/* Whether opts can be measured with im on problem (checked) on dev, before anything runs (as
 * gb_bench_run checks first): host memory mapped needs a device that shares the host's memory
 * and an implementation that computes in the caller's buffers; a pipeline needs timing offload,
 * copies to overlap (not mapped), an implementation that can enqueue its work behind the
 * copies, and each panel a problem it can run. GB_OK, else GB_EBADARG (options that do not go
 * together) or GB_EUNSUPPORTED, or the panel's own check's code, with msg naming the option
 * and the fix. */
int gb_bench_check(const gb_device_info_t *dev, const gb_impl_t *im, const gb_problem_t *problem,
                   const gb_bench_options_t *opts, char *msg, size_t msglen);
/* The part of gb_bench_check that needs neither device nor implementation: options that do not
 * go together (a pipeline without timing offload, or with host memory mapped; a pipeline of
 * fewer than 2 or more than GB_PIPELINE_MAX panels). GB_OK or GB_EBADARG with msg. */
int gb_bench_options_check(const gb_bench_options_t *opts, char *msg, size_t msglen);
/* Makes now what gb_bench_run of problem with opts would make at its start and keep on ctx: the
 * inputs and, where it would validate, their reference: for a tuner, while its first build
 * runs. GB_OK, or the error gb_bench_run would meet, with the message on ctx. */
int gb_bench_inputs_ready(gb_context_t *ctx, const gb_problem_t *problem,
                          const gb_bench_options_t *opts);
/* Whether dev has an energy counter the energy loop can read (NVML on an NVIDIA GPU, RAPL on a
 * CPU, or the file GEMMBENCH_RAPL_FILE names: docs/methodology.md, "Energy"): 1 with source
 * naming it, else 0 with why saying why not. Reads the counter once; runs nothing. */
int gb_energy_counter(const gb_device_info_t *dev, char *source, size_t slen, char *why,
                      size_t wlen);
/* The energy loop's minimum duration in seconds from GEMMBENCH_ENERGY_MIN_S: 1 where it is
 * unset, 0 where it turns the loop off, -1 where it is not a number of seconds from 0 to
 * 3600. */
double gb_energy_min_s(void);

/* Builds ahead of measuring: compiles (or loads from the binary cache) every program that
 * preparing im for problem on ctx would build, and keeps it on the context, so that a later
 * gb_bench_run of the same im and problem on ctx builds nothing (its result's cache_hit is 1,
 * its build_ms the time taken to fetch them, waiting included for a prebuild that another thread
 * has in flight). For a tuner: threads prebuild the next candidates while one thread measures.
 * Any number of threads may call it on one context at once, while one other thread uses the
 * context (gb_bench_run); two threads that want one program build it once. The context keeps
 * the last 256 programs built this way, the oldest released first (a run already prepared with
 * one keeps it), and frees them in gb_context_close. GB_OK, also for a library peer (nothing to
 * build); else the code gb_bench_run would return, with its message in msg (never on ctx):
 * problem or implementation checks, GB_EBUILD with the build log, GB_EWGSIZE where the compiled
 * kernel allows fewer work-items per group than im asks. */
int gb_impl_prebuild(gb_context_t *ctx, const gb_impl_t *im, const gb_problem_t *problem, char *msg,
                     size_t msglen);

/* ---- measured ceilings ------------------------------------------------------------------------ */

#define GB_CEIL_SWEEP 8 /* sizes of the host-device copy sweep */
#define GB_CEIL_READS 4 /* sizes of the device-memory read sweep */
typedef struct gb_ceilings {
    double peak_gflops[2]; /* by micro-benchmark, indexed by gb_precision_arith(); 0: not run */
    double bandwidth_gbs;  /* device memory copy: bytes read + written per second, 1e9 */
    /* Reads alone of 4 MiB to 256 MiB (by 4): the best event time of each, in us, and the line
     * through the two largest (or the largest and the origin, where the first would cost less
     * than nothing): a short stream's fixed cost (launch, ramp, tail, as events time them) and
     * the rate past it: a kernel that streams b bytes from memory takes about read_fixed_us +
     * b / (read_gbs * 1e3) us or more on the same clock. The smaller reads may be served from a
     * cache, which is why the line is drawn through the largest. */
    size_t nreads;
    struct {
        size_t bytes;
        double us;
    } reads[GB_CEIL_READS];
    double read_fixed_us, read_gbs;
    /* Host-device copies from and to each kind of host memory (indexed by gb_host_mem_t), in
     * GB/s: the plateau of a sweep of sizes, the best rate from 16 MiB up (0: not measured).
     * Mapped memory is not copied: its rates are the bytes over the time of handing the buffer
     * to the device (unmap) and back to the host (map), measured only where the device shares
     * the host's memory. */
    double h2d_gbs[GB_HOST_KINDS], d2h_gbs[GB_HOST_KINDS];
    size_t nsweep;
    struct {
        size_t bytes;
        double h2d_gbs[GB_HOST_KINDS], d2h_gbs[GB_HOST_KINDS];
    } sweep[GB_CEIL_SWEEP];
    char method[320];
} gb_ceilings_t;
/* Measures the device's peak FLOP/s (an FMA-chain kernel per precision), memory bandwidth (a
 * copy kernel), the time of reads alone over a sweep of sizes, and the host-device copies'
 * rates over a sweep of sizes for each kind of host memory. Takes a few seconds. Errors on
 * ctx. */
int gb_ceilings_measure(gb_context_t *ctx, gb_ceilings_t *out);

/* ---- the program binary cache ---------------------------------------------------------------- */

/* The cache directory into buf ($GEMMBENCH_CACHE_DIR, $XDG_CACHE_HOME/gemmbench or
 * ~/.cache/gemmbench), or NULL when GEMMBENCH_NO_CACHE is set or no home is known. */
const char *gb_cache_dir(char *buf, size_t len);
/* Calls fn with each entry's key text (device, driver, options, program, source hash) and the
 * binary's size; a damaged entry is listed as such (it is removed and rebuilt when next used,
 * with a warning: gb_set_warning_handler). */
int gb_cache_list(void (*fn)(const char *key_text, uint64_t bytes, void *user), void *user);
/* Removes every entry; *removed counts the binaries. */
int gb_cache_clear(size_t *removed);

#ifdef __cplusplus
}
#endif
#endif
