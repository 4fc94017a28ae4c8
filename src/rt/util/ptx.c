/* ptx.c: a PTX program from the PTX that a device's OpenCL compiler made of a family's OpenCL C.
 * NVIDIA's OpenCL compiles for the plain architecture (.target sm_90), where the warp-group MMA
 * and setmaxnreg do not assemble; the family writes those instructions in inline assembly that
 * stays a comment ("//@..."), which the compiler passes into its PTX with the operands' virtual
 * registers filled in. Here each such line is made an instruction again and the target raised
 * (sm_90a), and the text is then loaded as the program's binary (docs/kernel-metadata.md, "PTX
 * programs"). The same path serves a family that asks for a number of work-groups an SM
 * (nvidia_min_groups): its kernels' .minnctapersm, which OpenCL C cannot state, with the target
 * kept. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* The marker that opens a deferred instruction's line, after blanks. */
static const char mark[] = "//@";

int gb__ptx_raise(const char *ptx, size_t len, const char *target, unsigned min_groups, char **out,
                  size_t *outlen, size_t *raised, char *msg, size_t msglen)
{
    *out = NULL;
    *raised = 0;
    const size_t tlen = strlen(target);
    /* A directive after every line of a work-group size: no more lines than the text has
     * newlines and one. */
    char directive[40] = "";
    if (min_groups)
        snprintf(directive, sizeof directive, ".minnctapersm %u\n", min_groups);
    const size_t dlen = strlen(directive);
    size_t lines = 1;
    for (size_t i = 0; dlen && i < len; i++)
        lines += ptx[i] == '\n';
    /* At most one longer .target line: the text grows by the target's length at most. */
    char *t = malloc(len + tlen + 2 + lines * (dlen + 1));
    if (!t)
        return gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
    size_t used = 0, sized = 0;
    int targets = 0;
    for (size_t at = 0; at < len;) {
        const char *line = ptx + at;
        const char *nl = memchr(line, '\n', len - at);
        const size_t n = nl ? (size_t)(nl - line) + 1 : len - at;
        size_t blank = 0;
        while (blank < n && (line[blank] == ' ' || line[blank] == '\t'))
            blank++;
        if (n - blank >= 8 && !strncmp(line + blank, ".target ", 8)) {
            /* ".target sm_90" or ".target sm_90, texmode_independent": the first name is the
             * architecture; what follows it is kept. */
            const char *arch = line + blank + 8;
            size_t alen = 0;
            while (arch + alen < line + n && arch[alen] != ',' && arch[alen] != '\n' &&
                   arch[alen] != ' ' && arch[alen] != '\r')
                alen++;
            if (targets++) {
                free(t);
                return gb__fail(msg, msglen, GB_EBUILD, "the compiler's PTX has two .target lines");
            }
            /* An empty target keeps the compiler's. */
            memcpy(t + used, line, blank + 8);
            used += blank + 8;
            memcpy(t + used, tlen ? target : arch, tlen ? tlen : alen);
            used += tlen ? tlen : alen;
            const size_t rest = (size_t)(line + n - (arch + alen));
            memcpy(t + used, arch + alen, rest);
            used += rest;
        } else if (n - blank >= sizeof mark - 1 && !strncmp(line + blank, mark, sizeof mark - 1)) {
            /* The marker becomes blanks: line numbers and columns stay as they were. */
            memcpy(t + used, line, n);
            memset(t + used + blank, ' ', sizeof mark - 1);
            used += n;
            (*raised)++;
        } else {
            memcpy(t + used, line, n);
            used += n;
            if (dlen && n - blank >= 8 &&
                (!strncmp(line + blank, ".reqntid", 8) || !strncmp(line + blank, ".maxntid", 8))) {
                if (t[used - 1] != '\n')
                    t[used++] = '\n';
                memcpy(t + used, directive, dlen);
                used += dlen;
                sized++;
            }
        }
        at += n;
    }
    if (dlen && !sized) {
        free(t);
        return gb__fail(msg, msglen, GB_EBUILD,
                        "the compiler's PTX states no kernel's work-group size (.reqntid), "
                        "which .minnctapersm needs: give the kernel reqd_work_group_size");
    }
    if (!targets) {
        free(t);
        return gb__fail(msg, msglen, GB_EBUILD,
                        "the compiler's binary is not PTX (no .target line): a PTX program needs "
                        "NVIDIA's OpenCL");
    }
    t[used] = '\0';
    *out = t;
    *outlen = used;
    return GB_OK;
}

void gb__binary_options(const char *options, char *out, size_t outlen)
{
    size_t used = 0;
    if (outlen)
        out[0] = '\0';
    int keep_value = 0; /* the word before was a "-cl-nv-" option waiting for its value */
    for (const char *p = options; p && *p;) {
        while (*p == ' ' || *p == '\t')
            p++;
        const size_t n = strcspn(p, " \t");
        if (!n)
            break;
        const int nv = !strncmp(p, "-cl-nv-", 7);
        const int keep = nv || (keep_value && p[0] != '-');
        keep_value = nv && !memchr(p, '=', n);
        if (keep && used + (used > 0) + n >= outlen)
            break; /* out ends before a word that does not fit, not between a word and its value */
        if (keep) {
            if (used)
                out[used++] = ' ';
            memcpy(out + used, p, n);
            used += n;
            out[used] = '\0';
        }
        p += n;
    }
}
