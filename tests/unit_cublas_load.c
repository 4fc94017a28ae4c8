/* unit_cublas_load.c: the cuBLAS peer's libraries (src/harness/impl/cublas.c), built where the
 * CUDA toolkit is found: not in the process until a cuBLAS peer is prepared (linked, they cost
 * every gemmbench process 360 ms at its start), then opened with every function the peer calls
 * (a name the libraries lack fails here, without a GPU), once. */
#include "unit.h"

#include "harness/impl/impl.h"

/* Whether a file whose name holds name is mapped into this process. */
static int mapped(const char *name)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f)
        return -1;
    char line[1024];
    int found = 0;
    while (!found && fgets(line, sizeof line, f))
        found = strstr(line, name) != NULL;
    fclose(f);
    return found;
}

int main(void)
{
    CHECK(mapped("libcublas") == 0);
    CHECK(mapped("libcudart") == 0);
    char msg[512] = "";
    CHECK_RC(gb__cublas_load(msg, sizeof msg), GB_OK);
    if (msg[0])
        printf("%s\n", msg);
    CHECK(mapped("libcublas") == 1);
    CHECK(mapped("libcudart") == 1);
    CHECK_RC(gb__cublas_load(msg, sizeof msg), GB_OK);
    return unit_finish();
}
