/* program.c: the text an OpenCL program is compiled from, and its digest. Said once here for the
 * program cache (which compiles the text and keys entries by the digest), the registry loader and
 * the build-time generator (which give each family the digest that program ids name). */
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Between the prelude and the source: keeps the source's own line numbers in build logs. */
static const char line_one[] = "\n#line 1\n";

int gb__program_text(const char *prelude, const char *source, char **text, size_t *len,
                     char digest[65])
{
    const size_t plen = prelude ? strlen(prelude) : 0, llen = sizeof line_one - 1;
    const size_t slen = strlen(source);
    if (digest) {
        gb_sha256_t s;
        gb__sha256_init(&s);
        gb__sha256_update(&s, prelude ? prelude : "", plen);
        gb__sha256_update(&s, line_one, llen);
        gb__sha256_update(&s, source, slen);
        gb__sha256_hex_final(&s, digest);
    }
    if (!text)
        return GB_OK;
    char *t = malloc(plen + llen + slen + 1);
    if (!t)
        return GB_ENOMEM;
    memcpy(t, prelude ? prelude : "", plen);
    memcpy(t + plen, line_one, llen);
    memcpy(t + plen + llen, source, slen + 1);
    *text = t;
    if (len)
        *len = plen + llen + slen;
    return GB_OK;
}
