/* images.c: the images that kernels reading image2d_t get over their operand's packed copy: a
 * view of the copy where the device can make one, else an image of its own that the launch fills
 * from the copy on every call (src/rt/plan/launch.c). */
#include <stdlib.h>
#include <string.h>

#include "impl.h"

/* The image format of operands read as image2d_t: one 32-bit channel read without conversion,
 * so pixel (x, y) is element x of stored row (or column) y, and a sub-group block read at byte
 * x-coordinate 4*x returns the bits of elements x, x+1, ... to lanes 0, 1, ... */
static const cl_image_format image_format = {CL_R, CL_UNSIGNED_INT32};

/* Makes *img, a width x height image2d_t of image_format over the packed temporary buf: a view of
 * the same memory where the device can create one (cl_khr_image2d_from_buffer, OpenCL 2.0), else
 * an image of its own. The route has checked the size against the device's limits. */
int gb__kernel_image(gb_kernel_run_t *kr, cl_mem *img, cl_mem buf, size_t width, size_t height)
{
    const gb_device_info_t *dev = kr->ctx->dev;
    cl_uint nfmt = 0;
    cl_int err = clGetSupportedImageFormats(kr->ctx->cl, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0,
                                            NULL, &nfmt);
    cl_image_format *fmts = nfmt ? calloc(nfmt, sizeof *fmts) : NULL;
    int found = 0;
    if (err == CL_SUCCESS && fmts)
        err = clGetSupportedImageFormats(kr->ctx->cl, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, nfmt,
                                         fmts, NULL);
    for (cl_uint i = 0; err == CL_SUCCESS && fmts && i < nfmt; i++)
        found |= fmts[i].image_channel_order == image_format.image_channel_order &&
                 fmts[i].image_channel_data_type == image_format.image_channel_data_type;
    free(fmts);
    if (err != CL_SUCCESS)
        return gb__cl_check(kr->ctx, err, "clGetSupportedImageFormats");
    if (!found)
        return gb__ctx_fail(kr->ctx, GB_EUNSUPPORTED,
                            "device '%s' has no read-only 2D images of format CL_R / "
                            "CL_UNSIGNED_INT32, which image kernels need; choose another device",
                            dev->name);
    cl_image_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = width;
    desc.image_height = height;
    if (dev->image2d_from_buffer) {
        desc.image_row_pitch = width * sizeof(cl_uint);
        desc.buffer = buf;
    }
    *img = clCreateImage(kr->ctx->cl, CL_MEM_READ_ONLY, &image_format, &desc, NULL, &err);
    if (err != CL_SUCCESS)
        return gb__cl_check(kr->ctx, err,
                            dev->image2d_from_buffer
                                ? "creating an image over a buffer (clCreateImage)"
                                : "creating an image (clCreateImage)");
    return GB_OK;
}
