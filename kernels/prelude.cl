/* prelude.cl: compiled before every family's source. It maps GB_PRECISION (32 or 64) to the
 * element type `real` and its vectors, and gives width-generic vector helpers so a family can
 * be written once for any vector width W in 1, 2, 4, 8, 16: REALV(W), VLOAD(W), VSTORE(W),
 * HSUM(W). The harness passes GB_PRECISION, GB_ROW_MAJOR, GB_TRANS_A, GB_TRANS_B and every
 * family parameter as -D options, and GB_NVIDIA=1 on NVIDIA GPUs (where inline PTX builds). */
#ifndef GB_NVIDIA
#define GB_NVIDIA 0
#endif
#ifndef GB_PRECISION
#define GB_PRECISION 32
#endif
#ifndef GB_ROW_MAJOR
#define GB_ROW_MAJOR 1
#endif
#ifndef GB_TRANS_A
#define GB_TRANS_A 0
#endif
#ifndef GB_TRANS_B
#define GB_TRANS_B 0
#endif

#if GB_PRECISION == 64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double real;
typedef double2 real2;
typedef double4 real4;
typedef double8 real8;
typedef double16 real16;
#else
typedef float real;
typedef float2 real2;
typedef float4 real4;
typedef float8 real8;
typedef float16 real16;
#endif
typedef real real1;

#define GB_CAT_(a, b) a##b
#define GB_CAT(a, b) GB_CAT_(a, b)
#define REALV(w) GB_CAT(real, w)
#define VLOAD(w) GB_CAT(gb_vload, w)
#define VSTORE(w) GB_CAT(gb_vstore, w)
#define HSUM(w) GB_CAT(gb_hsum, w)

#define gb_vload1(o, p) ((p)[o])
#define gb_vload2 vload2
#define gb_vload4 vload4
#define gb_vload8 vload8
#define gb_vload16 vload16
#define gb_vstore1(v, o, p) ((p)[o] = (v))
#define gb_vstore2 vstore2
#define gb_vstore4 vstore4
#define gb_vstore8 vstore8
#define gb_vstore16 vstore16

/* Macros rather than functions: wide vector arguments trip ABI warnings on some CPUs. */
#define gb_hsum1(v) (v)
#define gb_hsum2(v) ((v).s0 + (v).s1)
#define gb_hsum4(v) (gb_hsum2((v).lo) + gb_hsum2((v).hi))
#define gb_hsum8(v) (gb_hsum4((v).lo) + gb_hsum4((v).hi))
#define gb_hsum16(v) (gb_hsum8((v).lo) + gb_hsum8((v).hi))

/* C = alpha * acc + beta * C, where beta == 0 means C is not read (BLAS semantics). */
#define GB_UPDATE(c, acc, alpha, beta) \
    ((c) = (beta) == (real)0 ? (alpha) * (acc) : (alpha) * (acc) + (beta) * (c))
