/* hash.c: the git revision the tool was built from. */
#include "store.h"

#ifndef GB_GIT_REVISION
#define GB_GIT_REVISION "unknown"
#endif

const char *gb_store_git_revision(void)
{
    return GB_GIT_REVISION[0] ? GB_GIT_REVISION : "unknown";
}
