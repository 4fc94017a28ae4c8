/* util.c: messages, growth, copies and whole-file reads shared by every layer. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "util.h"

int gb__fail(char *msg, size_t msglen, int code, const char *fmt, ...)
{
    if (msg && msglen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, msglen, fmt, ap);
        va_end(ap);
    }
    return code;
}

void gb__vnotify(void (*fn)(const char *msg, void *user), void *user, const char *fmt, va_list ap)
{
    if (!fn)
        return;
    char msg[1024];
    vsnprintf(msg, sizeof msg, fmt, ap);
    fn(msg, user);
}

int gb__appendf(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
    if (!len)
        return 0;
    if (*used >= len)
        *used = len - 1;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *used, len - *used, fmt, ap);
    va_end(ap);
    if (n < 0) {
        buf[*used] = '\0';
        return 0;
    }
    const int fits = (size_t)n < len - *used;
    *used += fits ? (size_t)n : len - 1 - *used;
    return fits;
}

int gb__grow(void *buf, size_t *cap, size_t need, size_t elem)
{
    void **p = buf;
    if (need <= *cap && *p)
        return GB_OK;
    size_t n = *cap ? *cap : 8;
    while (n < need) {
        if (n > SIZE_MAX / 2)
            return GB_ENOMEM;
        n *= 2;
    }
    if (elem && n > SIZE_MAX / elem)
        return GB_ENOMEM;
    void *grown = realloc(*p, n * elem);
    if (!grown)
        return GB_ENOMEM;
    *p = grown;
    *cap = n;
    return GB_OK;
}

int gb__append(char **buf, size_t *len, size_t *cap, const char *s, size_t n)
{
    if (n > SIZE_MAX - *len - 1 || gb__grow(buf, cap, *len + n + 1, 1) != GB_OK)
        return GB_ENOMEM;
    memcpy(*buf + *len, s, n);
    *len += n;
    (*buf)[*len] = '\0';
    return GB_OK;
}

size_t gb__text_char(const char *text, size_t avail)
{
    const unsigned char *s = (const unsigned char *)text;
    if (!avail)
        return 0;
    if (s[0] < 0x20 || s[0] == 0x7f)
        return 0;
    if (s[0] < 0x80)
        return 1;
    size_t n;
    unsigned long cp;
    if (s[0] >= 0xc2 && s[0] <= 0xdf)
        n = 2, cp = s[0] & 0x1fu;
    else if (s[0] >= 0xe0 && s[0] <= 0xef)
        n = 3, cp = s[0] & 0x0fu;
    else if (s[0] >= 0xf0 && s[0] <= 0xf4)
        n = 4, cp = s[0] & 0x07u;
    else
        return 0; /* a continuation byte, an overlong lead (c0, c1) or past U+10FFFF (f5-ff) */
    if (avail < n)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0; /* also the terminating NUL */
        cp = cp << 6 | (s[i] & 0x3fu);
    }
    const unsigned long least[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < least[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ||
        (cp >= 0x80 && cp <= 0x9f))
        return 0; /* overlong, past Unicode, a surrogate, or a C1 control character */
    return n;
}

int gb__text_ok(const char *s)
{
    for (size_t n; *s; s += n)
        if (!(n = gb__text_char(s, SIZE_MAX)))
            return 0;
    return 1;
}

const char *gb__printable(const char *s, char *buf, size_t len)
{
    if (!len)
        return buf;
    size_t used = 0;
    buf[0] = '\0';
    while (*s) {
        size_t n = gb__text_char(s, SIZE_MAX);
        char piece[8];
        if (n) {
            memcpy(piece, s, n);
            piece[n] = '\0';
        } else {
            snprintf(piece, sizeof piece, "\\x%02x", (unsigned char)*s);
            n = 1;
        }
        const size_t plen = strlen(piece);
        if (used + plen + 4 > len) { /* room for "..." and the NUL */
            if (len >= 4) {
                while (used + 4 > len)
                    used--;
                memcpy(buf + used, "...", 4);
            }
            return buf;
        }
        memcpy(buf + used, piece, plen + 1);
        used += plen;
        s += n;
    }
    return buf;
}

size_t gb__edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), row[64];
    la = la > 63 ? 63 : la;
    lb = lb > 63 ? 63 : lb;
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            const size_t up = row[j], sub = diag + (a[i - 1] != b[j - 1]);
            const size_t best = up + 1 < row[j - 1] + 1 ? up + 1 : row[j - 1] + 1;
            row[j] = sub < best ? sub : best;
            diag = up;
        }
    }
    return row[lb];
}

const char *gb__did_you_mean(const char *name, const char *const *known, size_t n)
{
    size_t best = 0, dist = (size_t)-1;
    for (size_t i = 0; i < n; i++) {
        const size_t d = gb__edit_distance(name, known[i]);
        if (d < dist) {
            dist = d;
            best = i;
        }
    }
    if (!n || dist == 0)
        return NULL;
    return dist <= 3 || dist * 2 < strlen(known[best]) ? known[best] : NULL;
}

char *gb__memdup(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

char *gb__strdup(const char *s)
{
    return gb__memdup(s, strlen(s));
}

int gb__read_stream(FILE *f, size_t max, char **out, size_t *len)
{
    size_t cap = 0, n = 0;
    char *buf = NULL;
    *out = NULL;
    *len = 0;
    for (;;) {
        /* One byte more than max is read, to tell a file of exactly max bytes from a longer one. */
        if (gb__grow(&buf, &cap, n + 4096 < max + 2 ? n + 4096 : max + 2, 1) != GB_OK) {
            free(buf);
            return GB_ENOMEM;
        }
        size_t want = cap - n - 1;
        size_t got = fread(buf + n, 1, want, f);
        n += got;
        if (n > max) {
            free(buf);
            return GB_EOVERFLOW;
        }
        if (got < want)
            break;
    }
    if (ferror(f)) {
        free(buf);
        return GB_EIO;
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return GB_OK;
}

int gb__read_file(const char *path, size_t max, char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return GB_EIO;
    int rc = gb__read_stream(f, max, out, len);
    fclose(f);
    return rc;
}

int gb__copy(char *dst, size_t len, const char *s)
{
    if (!len)
        return 0;
    const size_t n = strlen(s), take = n < len ? n : len - 1;
    memcpy(dst, s, take);
    dst[take] = '\0';
    return take == n;
}

double gb__now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

int gb__mkdir_p(const char *dir)
{
    char buf[1024];
    if (snprintf(buf, sizeof buf, "%s", dir) >= (int)sizeof buf)
        return -1;
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(buf, 0755) != 0 && errno != EEXIST)
                return -1;
            *p = '/';
        }
    return mkdir(buf, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

int gb__mkdir_parent(const char *path)
{
    char dir[1024];
    if (snprintf(dir, sizeof dir, "%s", path) >= (int)sizeof dir)
        return -1;
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir)
        return 0;
    *slash = '\0';
    return gb__mkdir_p(dir);
}

const char *gb__user_path(const char *env, const char *xdg_var, const char *home_dir,
                          const char *sub, char *buf, size_t len)
{
    const char *set = getenv(env), *xdg = getenv(xdg_var), *home = getenv("HOME");
    int n;
    if (set && set[0])
        n = snprintf(buf, len, "%s", set);
    else if (xdg && xdg[0] == '/')
        n = snprintf(buf, len, "%s/%s", xdg, sub);
    else if (home && home[0])
        n = snprintf(buf, len, "%s/%s/%s", home, home_dir, sub);
    else
        return NULL;
    return n > 0 && (size_t)n < len ? buf : NULL;
}

const char *gb__default_store_path(char *buf, size_t len)
{
    return gb__user_path("GEMMBENCH_STORE", "XDG_DATA_HOME", ".local/share", "gemmbench/results.db",
                         buf, len);
}
