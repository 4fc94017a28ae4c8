/* error.c: gb_strerror() and gb_errname(), generated from the error tables (the library's,
 * gemmbench_base.h, and the harness's, gemmbench.h), and the warning and build-log handlers. */
#include <stdarg.h>

#include "core.h"

const char *gb_strerror(int code)
{
    switch (code) {
#define GB_X_TEXT(name, value, text)                                                               \
    case value: return text;
        GB_ERROR_TABLE(GB_X_TEXT)
        GB_HARNESS_ERROR_TABLE(GB_X_TEXT)
#undef GB_X_TEXT
    default: return "unknown error";
    }
}

const char *gb_errname(int code)
{
    switch (code) {
#define GB_X_NAME(name, value, text)                                                               \
    case value: return #name;
        GB_ERROR_TABLE(GB_X_NAME)
        GB_HARNESS_ERROR_TABLE(GB_X_NAME)
#undef GB_X_NAME
    default: return "GB_E?";
    }
}

const char *gb_version(void)
{
    return GB_VERSION_STRING;
}

/* The caller's warning function: set once, before contexts open (not synchronised). */
static gb_warning_fn warning_fn;
static void *warning_user;

void gb_set_warning_handler(gb_warning_fn fn, void *user)
{
    warning_fn = fn;
    warning_user = user;
}

void gb__warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gb__vnotify(warning_fn, warning_user, fmt, ap);
    va_end(ap);
}

static gb_build_log_fn build_log_fn;
static void *build_log_user;

void gb_set_build_log_handler(gb_build_log_fn fn, void *user)
{
    build_log_fn = fn;
    build_log_user = user;
}

void gb__build_log(const char *program, const char *options, const char *log)
{
    if (!build_log_fn)
        return;
    for (const char *c = log; *c; c++)
        if (*c != ' ' && *c != '\n' && *c != '\t' && *c != '\r') {
            build_log_fn(program, options, log, build_log_user);
            return;
        }
}
