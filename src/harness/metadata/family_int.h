/* family_int.h: what the metadata parser's files share (family.c parses a family's JSON,
 * family_params.c its parameters and presets): the parse's context and the helpers that read a
 * member or refuse it with a message naming the file and the key (family_json.c). */
#ifndef GB_FAMILY_INT_H
#define GB_FAMILY_INT_H

#include <cjson/cJSON.h>

#include "rt/family/registry.h"

typedef struct gb_family_ctx {
    const char *origin; /* the file, for messages */
    char *msg;
    size_t msglen;
} gb_family_ctx_t;

/* GB_EMETADATA with "ORIGIN: key 'KEY' WHY; fix the metadata" in c's message. */
int gb__family_bad(gb_family_ctx_t *c, const char *key, const char *why);
/* Every key of obj (written where, e.g. "requires") is one of known (NULL: any name, as for
 * names the family chooses) and appears once; the error names the key and the nearest known
 * one. Use KEYS("a", "b") for known and nknown. */
int gb__family_keys(gb_family_ctx_t *c, const cJSON *obj, const char *where,
                    const char *const *known, size_t nknown);
#define KEYS(...)                                                                                  \
    (const char *const[]){__VA_ARGS__},                                                            \
        sizeof((const char *const[]){__VA_ARGS__}) / sizeof(const char *)
/* A copy of s with malloc, or NULL when out of memory. */
char *gb__family_dup(const char *s);
/* An optional or required non-empty string member into *out (heap; NULL when absent). */
int gb__family_string(gb_family_ctx_t *c, const cJSON *obj, const char *key, int required,
                      char **out);
/* An integral number (at most 1e15 in magnitude) into *out. */
int gb__family_long(gb_family_ctx_t *c, const cJSON *v, const char *key, long *out);
/* "s", "d" or an array of them as a mask of 1u << gb_precision_t. */
int gb__family_precisions(gb_family_ctx_t *c, const cJSON *v, const char *key, unsigned *mask);
/* obj's member "layouts" (written where: "layouts", "parameters.X.layouts"), an array of "any"
 * or names like "row-NT", as a mask of 1u << gb_layout_index(); absent: 0, or refused where
 * required (a family's own). */
int gb__family_layouts(gb_family_ctx_t *c, const cJSON *obj, const char *key, int required,
                       unsigned *mask);
/* One layout's name, like "row-NT", as its gb_layout_index() (key: where it is written). */
int gb__family_layout_index(gb_family_ctx_t *c, const char *key, const char *s, unsigned *index);
/* The members "parameters" and "presets" of obj into f (family_params.c); f->precisions must
 * be set first, as presets name precisions. */
int gb__family_params(gb_family_ctx_t *c, const cJSON *obj, gb_family_t *f);
int gb__family_presets(gb_family_ctx_t *c, const cJSON *obj, gb_family_t *f);
/* The member "unsplit" of obj into f, after the parameters and the launch factor. */
int gb__family_unsplit(gb_family_ctx_t *c, const cJSON *obj, gb_family_t *f);

#endif
