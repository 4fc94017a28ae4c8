/* registry.h: the kernel registry's private parts: embedded files and family parsing. */
#ifndef GB_REGISTRY_H
#define GB_REGISTRY_H

#include <stddef.h>
#include "gemmbench.h"
#include "family.h"

typedef struct gb_embedded_file {
    const char *name;
    const char *data; /* NUL-terminated */
    size_t len;
} gb_embedded_file_t;

/* Generated at build time from kernels/ (cmake/embed.cmake). */
extern const gb_embedded_file_t gb__embedded_files[];
extern const size_t gb__embedded_count;
/* The embedded file of this name (e.g. "prelude.cl"), or NULL. */
const gb_embedded_file_t *gb__embedded(const char *name);

/* Parses one family's JSON text (origin names it in messages) into fam; the source is looked up
 * by the loader. GB_EMETADATA with the offending key in msg. */
int gb__family_parse(const char *json, size_t len, const char *origin, gb_family_t *fam, char *msg,
                     size_t msglen);
void gb__family_free(gb_family_t *fam);

/* Variables every expression of a family sees for one configuration and problem (problem may
 * be NULL). Returns how many were written into vars (capacity GB_MAX_PARAMS + 8). */
struct gb_var;
size_t gb__config_vars(const gb_config_t *cfg, gb_precision_t prec, const gb_problem_t *problem,
                       struct gb_var *vars);

#endif
