/* revision.c: the git revision the tool was built from (gb_revision.h, written at every build
 * by cmake/revision.cmake). */
#include "gb_revision.h"
#include "store.h"

const char *gb_store_git_revision(void)
{
    return GB_GIT_REVISION[0] ? GB_GIT_REVISION : "unknown";
}
