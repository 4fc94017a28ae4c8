/* message.c: the library's message, one per thread (gemmbench_blas.h: gb_blas_errmsg): what
 * every failing call of the library records before it returns its code. */
#include <stdarg.h>
#include <stdio.h>

#include "blas_int.h"

static _Thread_local char last_msg[2048];

int gb_blas__fail(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_msg, sizeof last_msg, fmt, ap);
    va_end(ap);
    return code;
}

const char *gb_blas_errmsg(void)
{
    return last_msg;
}
