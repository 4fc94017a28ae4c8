/* fuzz_shapes.c: shapes files (gb_plan_read_shapes, what `explore|tune --shapes FILE` and the
 * library's capture file give): any bytes, written to a file and read back, are refused with a
 * message naming the file (and, for a bad line, its number), or accepted as one shape per line
 * that is neither blank nor a comment, each M, N and K from 1 to 2^30, which the plan's key
 * "shapes" takes as they are. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tool/explore/explore.h"
#include "fuzz.h"

/* The lines of data that hold something besides blanks and a comment. */
static size_t shape_lines(const uint8_t *data, size_t size)
{
    size_t n = 0;
    int seen = 0, comment = 0;
    for (size_t i = 0; i <= size; i++) {
        if (i == size || data[i] == '\n') {
            n += seen ? 1u : 0u;
            seen = comment = 0;
        } else if (data[i] == '#') {
            comment = 1;
        } else if (!comment && !strchr(" \t\r", data[i])) {
            seen = 1;
        }
    }
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64];
    if (!path[0])
        snprintf(path, sizeof path, "/tmp/gb-fuzz-shapes-%ld.txt", (long)getpid());
    FILE *f = fopen(path, "wb");
    fuzz_assert(f != NULL);
    fuzz_assert(fwrite(data, 1, size, f) == size || size == 0);
    fclose(f);
    char *text = NULL, msg[1024] = "";
    const int rc = gb_plan_read_shapes(path, &text, msg, sizeof msg);
    unlink(path);
    fuzz_assert(rc == GB_OK || rc == GB_EBADARG || rc == GB_EIO || rc == GB_EOVERFLOW ||
                rc == GB_ENOMEM);
    if (rc != GB_OK) {
        fuzz_assert(text == NULL && strstr(msg, path) != NULL);
        return 0;
    }
    /* One MxNxK per line with a shape, each within its range. */
    size_t shapes = 0;
    for (const char *t = text; *t;) {
        unsigned long long d[3];
        char *end;
        for (int i = 0; i < 3; i++) {
            d[i] = strtoull(t, &end, 10);
            fuzz_assert(end != t && d[i] >= 1 && d[i] <= 1ull << 30);
            fuzz_assert(i == 2 || *end == 'x');
            t = i < 2 ? end + 1 : end;
        }
        fuzz_assert(*t == ',' || *t == '\0');
        t += *t == ',';
        shapes++;
    }
    fuzz_assert(shapes > 0 && shapes == shape_lines(data, size));
    gb_explore_plan_t pl;
    gb_plan_init(&pl);
    fuzz_assert(gb_plan_set(&pl, "shapes", text, "--shapes", msg, sizeof msg) == GB_OK);
    fuzz_assert(pl.nshapes == shapes);
    gb_plan_free(&pl);
    free(text);
    return 0;
}
