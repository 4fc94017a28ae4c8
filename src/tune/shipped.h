/* shipped.h: the tuned defaults embedded in the binary at build time from the JSON files of
 * kernels/tuned/ (cmake/embed.cmake writes the table). */
#ifndef GB_SHIPPED_H
#define GB_SHIPPED_H

#include <stddef.h>

typedef struct gb_shipped_file {
    const char *name;
    const char *data; /* NUL-terminated */
    size_t len;
} gb_shipped_file_t;

extern const gb_shipped_file_t gb_tune__shipped_files[];
extern const size_t gb_tune__shipped_count;

#endif
