/* ptx-run.c: runs a GEMM kernel's PTX, as NVIDIA's OpenCL compiler made it, through the CUDA
 * driver API, so that CUDA's profilers (Nsight Compute), which do not see OpenCL kernels, can
 * measure it. The kernel must take gemmbench's GEMM arguments (M, N, K, alpha, A, offA, lda, B,
 * offB, ldb, beta, C, offC, ldc; row-major NN here), then what its family adds, told apart by the
 * number of parameters of its entry in the PTX: WS (15), WS, P (16: split-K's pieces, 1), WS, D,
 * PS (17: the launch of whole tiles and pieces, D every work-group, PS 1), those and CNT (18: the
 * pieces' counters, zeroed; WS then holds the 256 bytes a work-group that a kernel with TMA writes
 * its tensor maps to) or those and alphaRe, alphaIm (19: complex alpha, 1 and 0). No validation:
 * gemmbench validates the same kernel; this only times it (CUDA events, median of the calls) and
 * gives the profiler a launch. The CUDA driver loads no kernel with more than 48 KB of static
 * shared memory (NVIDIA's OpenCL does): such a kernel's shared arrays are laid out in one dynamic
 * array instead (same sizes, same alignments), which the driver allows up to the device's limit.
 *
 *   cc -O2 -o ptx-run bench/ptx-run.c -I/usr/local/cuda/include -lcuda
 *   ptx-run KERNEL.ptx ENTRY N GX GY LX [CALLS [s|d]]   (global GX x GY work-items, LX per
 *   group; N: the square's size, or MxNxK, row-major NN with packed rows; d: double precision,
 *   whose alpha and beta are doubles; PTX_RUN_DUMP=FILE writes the PTX as it is loaded,
 *   PTX_RUN_MAXREG=N caps the JIT's registers (and is the cap an entry is given below, in place
 *   of 255), PTX_RUN_NT=1 stores B as N x K, for a kernel that reads B transposed; with 18
 *   parameters, PTX_RUN_PIECES=P PTX_RUN_TILE=E launches every tile in P pieces (D 0, PS P; the
 *   grid then holds P work-groups a tile of E elements, FIXUP's counters zeroed)). The result
 *   line gives the registers a lane and work-groups an SM that ran: compare them with
 *   nv-inspect's ptxas.txt, which has what the OpenCL build of the same PTX got.
 *
 * bench/nv-inspect.sh keeps the PTX (kernel.ptx) and prints the geometry gemmbench used.
 *
 * NVIDIA's OpenCL reads some work-item functions from environment registers that its runtime
 * sets: %envreg0..2 hold the global offset in work-groups and %envreg3..5 in work-items (0 here:
 * get_global_id reads them), %envreg6..8 the number of work-groups (get_num_groups), which are
 * %nctaid under CUDA. Those reads are rewritten. */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Rewrites "%envregN" in place (same length or shorter, padded with spaces). 0 when the PTX
 * reads an environment register this tool does not know. */
static int rewrite_envregs(char *ptx)
{
    static const char *const with[9] = {"0", "0",         "0",         "0",        "0",
                                        "0", "%nctaid.x", "%nctaid.y", "%nctaid.z"};
    for (char *p = strstr(ptx, "%envreg"); p; p = strstr(p + 1, "%envreg")) {
        const int r = p[7] - '0';
        if (r < 0 || r > 8 || (p[8] >= '0' && p[8] <= '9') || !with[r]) {
            fprintf(stderr, "ptx-run: the PTX reads %%envreg%c, which is not known here\n", p[7]);
            return 0;
        }
        /* "%envregN" is 8 characters; the replacements are at most 9, so "mov.b32 %rX, %envreg6"
         * becomes "mov.u32 %rX, %nctaid.x" by moving the opcode's type too. */
        char *line = p;
        while (line > ptx && line[-1] != '\n')
            line--;
        char *mov = strstr(line, "mov.b32");
        if (!mov || mov > p) {
            fprintf(stderr, "ptx-run: an %%envreg read that is not a mov.b32\n");
            return 0;
        }
        mov[4] = 'u'; /* mov.u32: both special registers and immediates move as u32 */
        const size_t n = strlen(with[r]);
        if (n <= 8) {
            memcpy(p, with[r], n);
            memset(p + n, ' ', 8 - n);
        } else {
            /* One character longer: take the space after the comma before the operand. */
            if (p[-1] != ' ') {
                fprintf(stderr, "ptx-run: unexpected %%envreg syntax\n");
                return 0;
            }
            memmove(p - 1, with[r], n);
        }
    }
    return 1;
}

/* The parameters of entry in the PTX (its ".entry NAME(" list), or -1 where it has none. */
static int entry_params(const char *ptx, const char *entry)
{
    const size_t len = strlen(entry);
    for (const char *p = strstr(ptx, ".entry "); p; p = strstr(p + 1, ".entry ")) {
        const char *name = p + 7;
        while (*name == ' ' || *name == '\t')
            name++;
        if (strncmp(name, entry, len) != 0)
            continue;
        const char *open = name + len;
        while (*open == ' ' || *open == '\t' || *open == '\n' || *open == '\r')
            open++;
        if (*open != '(')
            continue;
        const char *close = strchr(open, ')');
        if (!close)
            return -1;
        int n = 0;
        for (const char *q = strstr(open, ".param"); q && q < close; q = strstr(q + 6, ".param"))
            n++;
        return n;
    }
    return -1;
}

static int ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '$';
}

/* The next shared array declared from p on: a line whose first word is ".shared" (not an
 * instruction's state space, as in ld.shared), or NULL. */
static const char *next_shared(const char *ptx, const char *p)
{
    for (p = strstr(p, ".shared"); p; p = strstr(p + 1, ".shared")) {
        const char *line = p;
        while (line > ptx && (line[-1] == ' ' || line[-1] == '\t'))
            line--;
        if (line == ptx || line[-1] == '\n')
            return p;
    }
    return NULL;
}

/* The declaration ".shared [.align A] .TYPE NAME[N];" or ".shared [.align A] .TYPE NAME;" at
 * p, where TYPE's digits are its bits (.b8, .u32, .f64, ...): its bytes, its name (*name, *len)
 * and alignment (the element's size where none is given); 0 where it cannot be read. */
static size_t shared_decl(const char *p, const char **name, size_t *len, size_t *align)
{
    const char *br = strchr(p, '['), *semi = strchr(p, ';'), *eol = strchr(p, '\n');
    if (!semi || (eol && semi > eol))
        return 0;
    const int scalar = !br || br > semi;
    if (scalar)
        br = semi;
    const char *nm = br;
    while (nm > p && ident_char(nm[-1]))
        nm--;
    size_t bits = 8;
    *align = 0;
    for (const char *t = p + 7; t < nm; t++) {
        if (!strncmp(t, ".align", 6))
            *align = strtoul(t + 6, NULL, 10);
        else if (t[0] == '.' && t[1] && strtoul(t + 2, NULL, 10))
            bits = strtoul(t + 2, NULL, 10);
    }
    if (!*align)
        *align = bits / 8;
    *name = nm;
    *len = (size_t)(br - nm);
    return bits / 8 * (scalar ? 1 : (size_t)strtoul(br + 1, NULL, 10));
}

/* PTX_RUN_MAXREG as a number; 0 where it is unset or empty (no cap). */
static int reg_cap(void)
{
    const char *s = getenv("PTX_RUN_MAXREG");
    return s && *s ? atoi(s) : 0;
}

#define MAX_ARRAYS 64
#define DYN_NAME "gb_dyn_smem"

/* The PTX's static shared arrays laid out one after the other, each aligned as declared: the
 * bytes they take (what the CUDA driver would have to load), their names and offsets; movable
 * is 0 where one cannot be read (not counted) or there are more than MAX_ARRAYS. */
typedef struct {
    struct {
        char name[256];
        size_t off;
    } arr[MAX_ARRAYS];
    int n, movable;
    size_t total;
} layout_t;

static void shared_layout(const char *ptx, layout_t *lay)
{
    lay->n = 0;
    lay->movable = 1;
    lay->total = 0;
    for (const char *p = next_shared(ptx, ptx); p; p = next_shared(ptx, p + 1)) {
        const char *name;
        size_t len, align;
        const size_t size = shared_decl(p, &name, &len, &align);
        if (!size || lay->n == MAX_ARRAYS || len >= sizeof lay->arr[0].name) {
            lay->movable = 0;
            continue;
        }
        lay->total = (lay->total + align - 1) / align * align;
        memcpy(lay->arr[lay->n].name, name, len);
        lay->arr[lay->n].name[len] = '\0';
        lay->arr[lay->n].off = lay->total;
        lay->total += size;
        lay->n++;
    }
}

/* The PTX with the arrays of lay moved into one ".extern .shared" array, DYN_NAME, of
 * lay->total bytes: a declaration becomes a comment, and each use of its name becomes
 * DYN_NAME+OFFSET (PTX takes "var+imm" in addresses and in mov). An entry that caps neither its
 * registers nor its groups an SM gets ".maxnreg 255": with an extern shared array and no such
 * directive, ptxas gave a 255-register kernel 32 registers and 5.9 KB of spills a lane (H200,
 * CUDA 13 driver), where the static arrays kept 255 and no spills. But ptxas may then take more
 * than the OpenCL build did (sgemm_wgmma_ct's pieces: 135 against 128, one work-group an SM
 * against two, bench/notes/thin.md#thin-ct-groups): maxnreg, where positive, is the cap given
 * instead. NULL when out of memory. */
static char *shared_to_dynamic(const char *ptx, const layout_t *lay, int maxnreg)
{
    int header = 0, capped = 0; /* between an .entry and its body; a cap seen there */
    const char *entry = strstr(ptx, ".entry "); /* the next entry's header */
    size_t cap = 2 * strlen(ptx) + 4096;
    char *out = malloc(cap), *o = out;
    if (!out)
        return NULL;
    for (const char *p = ptx; *p;) {
        const char *eol = strchr(p, '\n');
        const size_t ll = eol ? (size_t)(eol - p + 1) : strlen(p);
        /* A line grows by at most 64 bytes a name it holds, so 64 a character is enough. */
        if ((size_t)(o - out) + 64 * ll + 256 > cap) {
            const size_t used = (size_t)(o - out);
            cap = 2 * cap + 64 * ll;
            char *grown = realloc(out, cap);
            if (!grown) {
                free(out);
                return NULL;
            }
            out = grown;
            o = out + used;
        }
        const char *s = p;
        while (*s == ' ' || *s == '\t')
            s++;
        if (entry && entry < p + ll) {
            header = 1, capped = 0;
            entry = strstr(entry + 1, ".entry ");
        }
        if (header && (!strncmp(s, ".maxnreg", 8) || !strncmp(s, ".minnctapersm", 13)))
            capped = 1;
        if (header && *s == '{') {
            if (!capped)
                o += sprintf(o, ".maxnreg %d\n", maxnreg > 0 ? maxnreg : 255);
            header = 0;
        }
        if (!strncmp(s, ".shared", 7)) {
            o += sprintf(o, "// moved into %s: ", DYN_NAME); /* then the line as it was */
            memcpy(o, p, ll);
            o += ll;
        } else {
            for (size_t i = 0; i < ll;) {
                int hit = -1;
                if (ident_char(p[i]) && (i == 0 || (!ident_char(p[i - 1]) && p[i - 1] != '%')))
                    for (int a = 0; a < lay->n && hit < 0; a++) {
                        const size_t nl = strlen(lay->arr[a].name);
                        if (!strncmp(p + i, lay->arr[a].name, nl) && !ident_char(p[i + nl]))
                            hit = a;
                    }
                if (hit < 0) {
                    *o++ = p[i++];
                    continue;
                }
                i += strlen(lay->arr[hit].name);
                size_t off = lay->arr[hit].off;
                if (p[i] == '+' && p[i + 1] >= '0' && p[i + 1] <= '9') {
                    char *end;
                    off += strtoul(p + i + 1, &end, 10);
                    i = (size_t)(end - p);
                }
                o += off ? sprintf(o, "%s+%zu", DYN_NAME, off) : sprintf(o, "%s", DYN_NAME);
            }
        }
        if (!strncmp(s, ".address_size", 13))
            o += sprintf(o, ".extern .shared .align 16 .b8 %s[];\n", DYN_NAME);
        p += ll;
    }
    *o = '\0';
    return out;
}

#define CK(x)                                                                                      \
    do {                                                                                           \
        CUresult e_ = (x);                                                                         \
        if (e_ != CUDA_SUCCESS) {                                                                  \
            const char *s_ = NULL;                                                                 \
            cuGetErrorString(e_, &s_);                                                             \
            fprintf(stderr, "ptx-run: %s failed: %s\n", #x, s_ ? s_ : "?");                        \
            exit(3);                                                                               \
        }                                                                                          \
    } while (0)

static int cmp(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    if (argc < 7) {
        fprintf(stderr, "usage: ptx-run KERNEL.ptx ENTRY N|MxNxK GX GY LX [CALLS [s|d]]\n");
        return 2;
    }
    int M = atoi(argv[3]), N = M, K = M;
    if (strchr(argv[3], 'x') && sscanf(argv[3], "%dx%dx%d", &M, &N, &K) != 3)
        M = 0;
    const int calls = argc > 7 ? atoi(argv[7]) : 10;
    const unsigned gx = (unsigned)atoi(argv[4]), gy = (unsigned)atoi(argv[5]);
    const unsigned lx = (unsigned)atoi(argv[6]);
    const int dbl = argc > 8 && argv[8][0] == 'd';
    const size_t esize = dbl ? sizeof(double) : sizeof(float);
    if (M < 1 || N < 1 || K < 1 || !gx || !gy || !lx || gx % lx || calls < 1 || calls > 1000) {
        fprintf(stderr, "ptx-run: bad N, geometry or CALLS\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        fprintf(stderr, "ptx-run: cannot read %s\n", argv[1]);
        return 2;
    }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    rewind(f);
    char *ptx = calloc((size_t)len + 1, 1);
    if (!ptx || fread(ptx, 1, (size_t)len, f) != (size_t)len) {
        fprintf(stderr, "ptx-run: cannot read %s\n", argv[1]);
        return 2;
    }
    fclose(f);
    if (!rewrite_envregs(ptx))
        return 2;
    const int nparams = entry_params(ptx, argv[2]);
    if (nparams < 0) {
        fprintf(stderr, "ptx-run: %s has no entry %s\n", argv[1], argv[2]);
        return 2;
    }
    if (nparams < 14 || nparams > 19) {
        fprintf(stderr, "ptx-run: entry %s takes %d parameters; this tool knows 14-19\n", argv[2],
                nparams);
        return 2;
    }
    /* cuModuleLoadData refuses a kernel whose static shared memory passes 48 KB, which NVIDIA's
     * OpenCL loads (its tiles of up to 227 KB on sm_90): such arrays become one dynamic array. */
    const int maxreg = reg_cap(); /* the JIT's register cap, and an entry's moved below */
    static layout_t lay;
    shared_layout(ptx, &lay);
    const size_t dyn = lay.total > 48 * 1024 ? lay.total : 0;
    if (dyn && !lay.movable) {
        fprintf(stderr, "ptx-run: %s has a shared array this tool cannot read\n", argv[1]);
        return 2;
    }
    if (dyn) {
        char *moved = shared_to_dynamic(ptx, &lay, maxreg);
        if (!moved) {
            fprintf(stderr, "ptx-run: out of memory\n");
            return 3;
        }
        free(ptx);
        ptx = moved;
        fprintf(stderr, "ptx-run: %zu bytes of shared arrays moved into one dynamic array\n", dyn);
    }
    const char *dump = getenv("PTX_RUN_DUMP"); /* the PTX as loaded, to read or to give ptxas */
    FILE *df = dump ? fopen(dump, "w") : NULL;
    if (df) {
        fputs(ptx, df);
        fclose(df);
    }

    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    CUfunction fn;
    CK(cuInit(0));
    CK(cuDeviceGet(&dev, 0));
    CK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CK(cuCtxSetCurrent(ctx));
    /* The JIT's own report (registers, spills) on stderr: what ran, beside what ptxas says. */
    static char log[8192];
    CUjit_option opt[] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                          CU_JIT_LOG_VERBOSE, CU_JIT_MAX_REGISTERS};
    void *val[] = {log, (void *)(size_t)sizeof log, (void *)(size_t)1, (void *)(size_t)maxreg};
    CK(cuModuleLoadDataEx(&mod, ptx, maxreg ? 4 : 3, opt, val));
    fprintf(stderr, "%s", log);
    CK(cuModuleGetFunction(&fn, mod, argv[2]));
    if (dyn)
        CK(cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)dyn));

    /* One buffer size for A (M x K), B (K x N) and C (M x N), all row-major and packed. */
    size_t elems = (size_t)M * (size_t)K;
    if ((size_t)K * (size_t)N > elems)
        elems = (size_t)K * (size_t)N;
    if ((size_t)M * (size_t)N > elems)
        elems = (size_t)M * (size_t)N;
    const size_t bytes = elems * esize;
    unsigned char *h = malloc(bytes);
    if (!h)
        return 3;
    srand(42);
    for (size_t i = 0; i < elems; i++) {
        const double x = (double)rand() / (double)RAND_MAX * 2.0 - 1.0;
        if (dbl)
            ((double *)(void *)h)[i] = x;
        else
            ((float *)(void *)h)[i] = (float)x;
    }
    CUdeviceptr a, b, c;
    CK(cuMemAlloc(&a, bytes));
    CK(cuMemAlloc(&b, bytes));
    CK(cuMemAlloc(&c, bytes));
    CK(cuMemcpyHtoD(a, h, bytes));
    CK(cuMemcpyHtoD(b, h, bytes));
    CK(cuMemsetD8(c, 0, bytes));

    const char *nt = getenv("PTX_RUN_NT");
    int off = 0, lda = K, ldb = nt && atoi(nt) ? K : N, ldc = N;
    float alpha = 1.0f, beta = 0.0f;
    double alpha_d = 1.0, beta_d = 0.0;
    /* What the family adds (the top of this file): no workspace but the tensor maps', every tile
     * whole (D: every work-group, PS 1) or one piece (P 1), counters zeroed, alpha real. The driver
     * reads as many entries as the kernel has parameters. */
    CUdeviceptr ws = 0, cnt = 0;
    int pieces = 1, whole = (int)(gx / lx * gy);
    const char *pz = getenv("PTX_RUN_PIECES"), *tz = getenv("PTX_RUN_TILE");
    int ps = nparams == 18 && pz ? atoi(pz) : 1;
    const size_t tile = tz ? (size_t)atol(tz) : 0;
    if (ps > 1 && (!tile || whole % ps)) {
        fprintf(stderr,
                "ptx-run: PTX_RUN_PIECES=%d needs PTX_RUN_TILE (a tile's elements) and a "
                "grid of whole tiles' pieces\n",
                ps);
        return 2;
    }
    if (nparams == 18) {
        /* the pieces' sums (PS x tiles x a tile's FP32), then 256 bytes a work-group of maps */
        const size_t sums = ps > 1 ? (size_t)whole * tile * 4 : 0;
        CK(cuMemAlloc(&ws, sums + (size_t)whole * 256));
        CK(cuMemAlloc(&cnt, (size_t)whole * 4));
        CK(cuMemsetD8(cnt, 0, (size_t)whole * 4));
    }
    int d = ps > 1 ? 0 : whole;
    float re = 1.0f, im = 0.0f;
    double re_d = 1.0, im_d = 0.0;
    void *alpha_re = dbl ? (void *)&re_d : (void *)&re;
    void *args[] = {&M,
                    &N,
                    &K,
                    dbl ? (void *)&alpha_d : (void *)&alpha,
                    &a,
                    &off,
                    &lda,
                    &b,
                    &off,
                    &ldb,
                    dbl ? (void *)&beta_d : (void *)&beta,
                    &c,
                    &off,
                    &ldc,
                    &ws,
                    nparams == 16 ? &pieces : &d,
                    &ps,
                    nparams == 18 ? (void *)&cnt : alpha_re,
                    dbl ? (void *)&im_d : (void *)&im};
    CUevent e0, e1;
    CK(cuEventCreate(&e0, 0));
    CK(cuEventCreate(&e1, 0));
    float *ms = calloc((size_t)calls, sizeof *ms);
    for (int i = -1; i < calls; i++) {
        CK(cuEventRecord(e0, 0));
        CK(cuLaunchKernel(fn, gx / lx, gy, 1, lx, 1, 1, (unsigned)dyn, 0, args, NULL));
        CK(cuEventRecord(e1, 0));
        CK(cuEventSynchronize(e1));
        if (i >= 0)
            CK(cuEventElapsedTime(&ms[i], e0, e1));
    }
    qsort(ms, (size_t)calls, sizeof *ms, cmp);
    const double med = ms[calls / 2];
    int regs = 0, groups = 0;
    CK(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, fn));
    CK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&groups, fn, (int)lx, dyn));
    printf("%s %dx%dx%d grid %ux%u block %u: median %.4f ms, %.1f GFLOP/s over %d calls; %d "
           "registers a lane, work-groups an SM: %d\n",
           argv[2], M, N, K, gx / lx, gy, lx, med, 2.0 * M * (double)N * K / (med * 1e6), calls,
           regs, groups);
    cuMemFree(a);
    cuMemFree(b);
    cuMemFree(c);
    if (ws) {
        cuMemFree(ws);
        cuMemFree(cnt);
    }
    cuDevicePrimaryCtxRelease(dev);
    free(h);
    free(ms);
    free(ptx);
    return 0;
}
