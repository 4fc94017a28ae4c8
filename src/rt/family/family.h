/* family.h: a kernel family's metadata as parsed (private: the public header has accessors). */
#ifndef GB_FAMILY_H
#define GB_FAMILY_H

#include "gemmbench.h"

/* One kernel family as its metadata declares it (docs/kernel-metadata.md). Owned by the
 * registry; every pointer lives as long as the registry. */
/* Side kernels of a family's program, run with the main kernel's arguments where their global
 * sizes are positive: the prologue before the main kernel (e.g. packing an operand into the
 * workspace), the remainder after it (the part of C the main kernel leaves). */
enum { GB_SIDE_PROLOGUE, GB_SIDE_REMAINDER, GB_NSIDES };
typedef struct gb_side {
    char *entry; /* NULL: none */
    char *global[2], *local[2];
    char *panels; /* the prologue's, may be NULL: it packs the kernel's B into the workspace as
                     panels of this many columns ([n / P][k][P], each panel's K rows contiguous),
                     which the main kernel reads instead of B */
} gb_side_t;
/* Their metadata keys, by GB_SIDE_*. */
static inline const char *gb_side_key(int side)
{
    return side == GB_SIDE_PROLOGUE ? "prologue" : "remainder";
}

struct gb_family {
    char *name, *description, *origin, *source_file, *entry;
    char *author, *license;  /* as the metadata gives them (NULL: not given); bundles carry them */
    char *source;            /* the OpenCL C text */
    char program_digest[65]; /* sha256 of what is compiled: the prelude, then the source */
    unsigned precisions;     /* mask of 1u << gb_precision_t */
    unsigned layouts;        /* mask of 1u << gb_layout_index(), native layouts */
    char *layout_where[8];   /* by gb_layout_index(), may be NULL: that layout is native too where
                                this expression of the parameters is non-zero ("layouts_where") */
    char **args;
    size_t nargs;
    char *global[2], *local[2]; /* size expressions; local may be NULL (driver's choice) */
    char **constraints;
    size_t nconstraints;
    char **extensions;
    size_t nextensions;
    char *local_mem;           /* expression in bytes, may be NULL */
    char *multiple[3];         /* M, N, K must be multiples of these expressions (NULL: any);
                              the harness pads with zeros where they are not */
    char *ld_multiple[3];      /* A, B, C: leading dimension and offset must be multiples of these
                              (NULL: any); the harness copies an operand where they are not */
    char *ld_avoid[3];         /* A, B, C: leading dimensions that are multiples of these (NULL: no
                              rule) are copied to one that is not (a power-of-two row stride
                              that the kernel's loads suffer from) */
    char *expand_b;            /* NULL, or the macro under which the kernel, given a complex B as
                                  stored under 1M, stages Y's blocks from it itself (with alpha's
                                  parts in its arguments alphaRe and alphaIm) */
    char *expand_b_where;      /* expression, may be NULL (everywhere): where it does so */
    char *nv_max_registers;    /* expression, may be NULL: where positive, NVIDIA's compiler gets
                               -cl-nv-maxrregcount with its value (registers per work-item) */
    char *nv_min_groups;       /* expression, may be NULL: where positive, on NVIDIA's OpenCL the
                               program is built from the PTX its compiler makes, each kernel's
                               .minnctapersm set to its value (work-groups an SM must fit) */
    char *ptx_target;          /* NULL, or a PTX architecture ("sm_90a"): on NVIDIA's OpenCL the
                               program is the PTX its compiler makes of the source, raised to this
                               target (gb__ptx_raise), loaded as a binary; only devices of that
                               architecture take it */
    char *ptx_unless;          /* expression, may be NULL: where non-zero (an emulation), the
                                  source is built as plain OpenCL C on any device */
    gb_side_t side[GB_NSIDES]; /* "prologue" and "remainder" kernels (entry NULL: none) */
    char *workspace;           /* expression, may be NULL: bytes of a scratch buffer passed as the
                              argument WS to both kernels (0: a token buffer of 16 bytes) */
    char *transposed_c;   /* expression, may be NULL: where non-zero (e.g. a parameter) the kernel
                           writes element (i, j) of its C at j ldc + i, and every problem is
                           served through gb__problem_transposed_c */
    char *counters;       /* expression, may be NULL: 32-bit counters, zero before every launch (the
                       kernel leaves them so), passed as the argument CNT */
    char *traffic[2];     /* expressions, both NULL when not declared: bytes of global memory the
                         main kernel (with its remainder kernel) reads [0] and writes [1] */
    char *launch_factor;  /* expression, may be NULL (1): how many times C's elements (with a
                            work-group's margin) a launch may have in work-items, e.g. the
                            pieces of a split along K */
    char **unsplit_names; /* "unsplit": the parameter values that build the kernel without the
                             code for split tiles, which a route uses where its launch factor
                             comes to 1 (nothing split) */
    long *unsplit_values;
    size_t nunsplit;
    char **let_names, **let_exprs; /* names defined for the launch-size expressions, in order */
    size_t nlets;
    gb_param_t *params;
    size_t nparams;
    gb_preset_t *presets;
    size_t npresets;
    int images;             /* reads an operand as image2d_t (args imgA/imgB, or requires.images):
                              the device needs image support */
    int images_from_buffer; /* requires.image2d_from_buffer: the device must also make 2D images
                               over buffers (else the harness copies operands into images) */
    int builtin;            /* compiled into the library (gb_meta.c): static, never freed */
};

#endif
