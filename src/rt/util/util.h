/* util.h: the internal helpers every layer shares (the library's modules and the tool's): one
 * way to format a message, grow an array, read a file, hash bytes and make a program's compiled
 * text. No OpenCL, no project types beyond the error codes; nothing here is part of the public
 * API. */
#ifndef GB_UTIL_H
#define GB_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gemmbench.h"

#if defined(__GNUC__)
#define GB_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define GB_PRINTF(a, b)
#endif

/* Writes a formatted message into msg (when msg is not NULL and msglen > 0) and returns code. */
int gb__fail(char *msg, size_t msglen, int code, const char *fmt, ...) GB_PRINTF(4, 5);

/* Formats a message (up to 1023 bytes) and hands it to fn with user; nothing where fn is NULL. */
void gb__vnotify(void (*fn)(const char *msg, void *user), void *user, const char *fmt, va_list ap)
    GB_PRINTF(3, 0);

/* Appends formatted text at buf + *used (buf holds len bytes) and advances *used, never past
 * len - 1: text that does not fit is cut, and buf stays NUL-terminated. Returns 0 when cut. */
int gb__appendf(char *buf, size_t len, size_t *used, const char *fmt, ...) GB_PRINTF(4, 5);

/* Makes room for at least need elements of size elem in *buf (capacity *cap elements, doubled
 * as needed; *buf may be NULL with *cap 0). GB_OK, or GB_ENOMEM with *buf unchanged. */
int gb__grow(void *buf, size_t *cap, size_t need, size_t elem);
/* A growing NUL-terminated string: appends n bytes of s to *buf, of *len bytes in a capacity of
 * *cap (*buf may be NULL with both 0). GB_OK, or GB_ENOMEM with the string unchanged. */
int gb__append(char **buf, size_t *len, size_t *cap, const char *s, size_t n);

/* Copies s into dst (len bytes), cut to fit and NUL-terminated. Returns 0 when cut. */
int gb__copy(char *dst, size_t len, const char *s);

/* Text a name or value may be, in a table or a tab-separated file: valid UTF-8 (no overlong
 * form, surrogate or code point past U+10FFFF) without control characters (C0, DEL, C1), which
 * would move the cursor, clear a terminal or split a line. 1 or 0. */
int gb__text_ok(const char *s);
/* The length of the character of such text at s (avail bytes there), 1 to 4; 0 where s starts a
 * control character, invalid UTF-8 or a sequence cut by the end. */
size_t gb__text_char(const char *s, size_t avail);
/* s as it may be printed: each byte of a control character or of invalid UTF-8 written as
 * \xNN, cut to fit buf (len bytes) with "..." where cut. Returns buf. */
const char *gb__printable(const char *s, char *buf, size_t len);
/* The edit distance (Levenshtein) between a and b, each counted to its 63rd character. */
size_t gb__edit_distance(const char *a, const char *b);
/* Of the n names known, the one nearest to name when it is near enough to suggest ("did you
 * mean"): at most 3 edits, or fewer than half its length; NULL when none is, or name is one. */
const char *gb__did_you_mean(const char *name, const char *const *known, size_t n);

/* A heap copy of s (n bytes, NUL added), or NULL when out of memory; the caller frees it. */
char *gb__memdup(const char *s, size_t n);
char *gb__strdup(const char *s);

/* Reads all of f (at most max bytes) into a new NUL-terminated buffer *out (caller frees) of
 * *len bytes. GB_EIO when reading fails, GB_EOVERFLOW when there are more than max bytes,
 * GB_ENOMEM; *out is NULL on every error. */
int gb__read_stream(FILE *f, size_t max, char **out, size_t *len);
/* gb__read_stream on the file at path; GB_EIO also when it cannot be opened (errno says why). */
int gb__read_file(const char *path, size_t max, char **out, size_t *len);

/* splitmix64-seeded xoshiro256** generator: deterministic for a seed on every platform. */
typedef struct gb_rng {
    uint64_t s[4];
} gb_rng_t;
void gb__rng_seed(gb_rng_t *r, uint64_t seed);
uint64_t gb__rng_next(gb_rng_t *r);
double gb__rng_uniform(gb_rng_t *r); /* [0, 1) */
double gb__rng_normal(gb_rng_t *r);
/* Uniform in [0, n) for n >= 1, without the modulo's bias. */
uint64_t gb__rng_below(gb_rng_t *r, uint64_t n);

/* FNV-1a, 64-bit, continued from h (start with GB_FNV_BASIS): for hash tables. */
#define GB_FNV_BASIS 14695981039346656037ull
uint64_t gb__fnv1a64(const void *data, size_t len, uint64_t h);

/* SHA-256 (FIPS 180-4), in parts: for ids and the identity of what is compiled. */
typedef struct gb_sha256 {
    uint32_t h[8];
    uint64_t bytes;
    unsigned char block[64];
} gb_sha256_t;
void gb__sha256_init(gb_sha256_t *s);
void gb__sha256_update(gb_sha256_t *s, const void *data, size_t len);
/* Ends the hash and writes 64 lower-case hex digits and a NUL into hex. */
void gb__sha256_hex_final(gb_sha256_t *s, char hex[65]);
/* The whole of data in one call. */
void gb__sha256_hex(const void *data, size_t len, char hex[65]);

/* Monotonic wall clock in milliseconds. */
double gb__now_ms(void);

/* mkdir -p of dir, and of the folder that holds path: 0, or -1 with errno. */
int gb__mkdir_p(const char *dir);
int gb__mkdir_parent(const char *path);

/* A user's file by the XDG rule: $env where it is set and not empty, else $xdg_var/sub where
 * that is an absolute path, else $HOME/home_dir/sub; NULL when none can be named or the path
 * does not fit buf (len bytes). buf. */
const char *gb__user_path(const char *env, const char *xdg_var, const char *home_dir,
                          const char *sub, char *buf, size_t len);

/* The default results store (the tool's; the runtime reads the tuning file beside it):
 * $GEMMBENCH_STORE, else $XDG_DATA_HOME/gemmbench/results.db, else
 * ~/.local/share/gemmbench/results.db; NULL when none can be named. buf. */
const char *gb__default_store_path(char *buf, size_t len);

/* The text a program is compiled from (program.c): prelude (NULL: none), a "#line 1" line, then
 * source. Its SHA-256 in hex into digest (NULL: not wanted); with text not NULL, the text itself,
 * NUL-terminated, in a new buffer the caller frees, and its length into *len (may be NULL).
 * GB_OK, or GB_ENOMEM (digest is written all the same). */
int gb__program_text(const char *prelude, const char *source, char **text, size_t *len,
                     char digest[65]);

/* ptx (len bytes, the PTX an OpenCL compiler made) as a PTX program for target (ptx.c): its
 * .target line names target ("": the compiler's kept), and every line that opens with "//@"
 * (after blanks) is that line's instruction, the marker blanked; with min_groups > 0 each
 * kernel's .reqntid or .maxntid line is followed by ".minnctapersm min_groups". *out is a new
 * NUL-terminated text (the caller frees it) of *outlen bytes; *raised counts the lines made
 * instructions. GB_OK, GB_ENOMEM, or GB_EBUILD with why in msg when the text has no .target
 * line (not PTX) or two, or min_groups > 0 and no kernel states its work-group size. */
int gb__ptx_raise(const char *ptx, size_t len, const char *target, unsigned min_groups, char **out,
                  size_t *outlen, size_t *raised, char *msg, size_t msglen);

/* Of a program's build options, those that still act when its binary is built (ptx.c): NVIDIA's
 * back-end ones ("-cl-nv-maxrregcount=128", "-cl-nv-opt-level 3"), which the PTX does not carry,
 * into out (outlen bytes, "" when none; it ends before a word that does not fit). The macros and
 * the front end's options did their work when the source was compiled. */
void gb__binary_options(const char *options, char *out, size_t outlen);

#endif
