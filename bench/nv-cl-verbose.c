/* nv-cl-verbose.c: what NVIDIA's OpenCL compiler makes of a kernel's PTX: builds it through
 * clCreateProgramWithBinary on the first NVIDIA GPU with -cl-nv-verbose (or the options given)
 * and prints the build log, ptxas's report as the OpenCL runtime ran it (target, registers,
 * spills, shared memory per entry), to set beside bench/nv-inspect.sh's offline ptxas and
 * bench/ptx-run.c's CUDA driver for the same PTX (bench/notes/dgemm.md#dmma-async-opencl).
 *
 *   cc -O2 -o nv-cl-verbose bench/nv-cl-verbose.c -lOpenCL
 *   nv-cl-verbose KERNEL.ptx [OPTIONS]
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: nv-cl-verbose KERNEL.ptx [OPTIONS]\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        fprintf(stderr, "nv-cl-verbose: cannot read %s\n", argv[1]);
        return 2;
    }
    fseek(f, 0, SEEK_END);
    const long n = ftell(f);
    rewind(f);
    unsigned char *ptx = calloc((size_t)n + 1, 1); /* NUL-terminated, as the runtime reads it */
    if (!ptx || fread(ptx, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "nv-cl-verbose: cannot read %s\n", argv[1]);
        return 2;
    }
    fclose(f);
    cl_platform_id ps[16];
    cl_uint np = 0;
    if (clGetPlatformIDs(16, ps, &np) != CL_SUCCESS)
        np = 0;
    for (cl_uint i = 0; i < np; i++) {
        char name[256] = "";
        clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        cl_device_id dev;
        if (!strstr(name, "NVIDIA") ||
            clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_GPU, 1, &dev, NULL) != CL_SUCCESS)
            continue;
        cl_int err, status;
        cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
        const size_t len = (size_t)n + 1;
        const unsigned char *bins[1] = {ptx};
        cl_program prog = err == CL_SUCCESS
                              ? clCreateProgramWithBinary(ctx, 1, &dev, &len, bins, &status, &err)
                              : NULL;
        if (!prog) {
            fprintf(stderr, "nv-cl-verbose: the runtime refused the PTX (error %d)\n", err);
            return 3;
        }
        err = clBuildProgram(prog, 1, &dev, argc > 2 ? argv[2] : "-cl-nv-verbose", NULL, NULL);
        size_t loglen = 0;
        clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &loglen);
        char *log = calloc(loglen + 1, 1);
        if (log)
            clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, loglen, log, NULL);
        printf("%s\n", log ? log : "");
        if (err != CL_SUCCESS)
            fprintf(stderr, "nv-cl-verbose: the build failed (error %d)\n", err);
        free(log);
        clReleaseProgram(prog);
        clReleaseContext(ctx);
        free(ptx);
        return err == CL_SUCCESS ? 0 : 3;
    }
    fprintf(stderr, "nv-cl-verbose: no NVIDIA GPU on any OpenCL platform\n");
    return 2;
}
