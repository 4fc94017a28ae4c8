/* bundle.h: result bundles that others can check (`gemmbench export --bundle`, `gemmbench
 * verify`): one JSON file holding the points as an export holds them, the program text each
 * point was compiled from (by its hash), the tuning entries the points are evidence of, and a
 * SHA-256 digest of the file that anyone can recompute (docs/bundles.md). */
#ifndef GB_BUNDLE_H
#define GB_BUNDLE_H

#include <stdio.h>

#include "tool/store/store.h"

#define GB_BUNDLE_FORMAT "gemmbench-bundle"
#define GB_BUNDLE_VERSION 1

/* Writes every point of st as a bundle into f, with the program text of each point whose
 * family reg has with the same text (a family changed since, or not in reg, gives its hash
 * alone), and the tuning entries of st that cite a point of it. *npoints, *nprograms: what it
 * holds. GB_OK, GB_ENOPOINT for an empty store, or an error with msg. */
int gb_bundle_write(gb_store_t *st, const gb_registry_t *reg, FILE *f, size_t *npoints,
                    size_t *nprograms, char *msg, size_t msglen);

/* What gb_bundle_verify found. */
typedef struct gb_bundle_check {
    size_t points, programs, tuned; /* what the bundle holds */
    size_t unchecked;               /* points whose program text is not in it (hash alone) */
    size_t checks, failures;        /* checks made, and those that failed */
    char failure[8][320];           /* the first failures, one line each */
} gb_bundle_check_t;

/* Checks text, a bundle (origin names it in messages): the digest against the file; each point's
 * id against its definition (as import does); its statistics against its timed calls, its
 * GFLOP/s against them and its shape, its bound and faithful verdicts against the errors
 * recorded; each program text against its hash and each point's hash against the texts; each
 * tuning entry's evidence against the points. GB_OK when it read as a bundle (the failures are
 * in c), GB_EBADARG when it is not one or is damaged past reading (msg), GB_ENOMEM. With points
 * not NULL, the points as parsed for import (gb_store_import_commit; the caller frees them;
 * NULL where they did not parse). */
int gb_bundle_verify(const char *text, size_t len, const char *origin, gb_bundle_check_t *c,
                     gb_store_import_t **points, char *msg, size_t msglen);

/* Whether text is a bundle, by the value of its first "format" key (a look, not a parse: the
 * documents gemmbench writes give that key first; a bundle it misses is refused by import as an
 * export of the wrong format, with that format named). 1 or 0. */
int gb_bundle_is(const char *text, size_t len);

#endif
