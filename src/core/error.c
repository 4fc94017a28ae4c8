/* error.c: gb_strerror() and gb_errname(), generated from the single error table. */
#include "gemmbench.h"

const char *gb_strerror(int code)
{
    switch (code) {
#define GB_X_TEXT(name, value, text) case value: return text;
        GB_ERROR_TABLE(GB_X_TEXT)
#undef GB_X_TEXT
    default: return "unknown error";
    }
}

const char *gb_errname(int code)
{
    switch (code) {
#define GB_X_NAME(name, value, text) case value: return #name;
        GB_ERROR_TABLE(GB_X_NAME)
#undef GB_X_NAME
    default: return "GB_E?";
    }
}

const char *gb_version(void)
{
    return GB_VERSION_STRING;
}
