/* cmd_build_worker.c: `gemmbench __build-worker`, which `tune` starts as its build processes
 * (src/tool/tune/builders.c) and nobody types: not in the help. It opens the device the tuner
 * measures on (its index in the device list, checked against its name) and the kernels of the
 * same --kernel-path, then builds each candidate it reads on standard input and answers on
 * standard output, until its input ends.
 *   gemmbench __build-worker --device INDEX --device-name NAME [--kernel-path DIR] */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tool/tune/builders.h"
#include "rt/util/util.h"
#include "cli.h"

int cmd_build_worker(int argc, char **argv)
{
    const char *index = NULL, *name = NULL, *kpath = NULL;
    for (int i = 1; i < argc; i += 2) {
        const char **to = !strcmp(argv[i], "--device")        ? &index
                          : !strcmp(argv[i], "--device-name") ? &name
                          : !strcmp(argv[i], "--kernel-path") ? &kpath
                                                              : NULL;
        if (!to || i + 1 >= argc)
            return cli_error(GB_EBADARG, "__build-worker is tune's build process: not for use "
                                         "by hand");
        *to = argv[i + 1];
    }
    if (!index || !name)
        return cli_error(GB_EBADARG, "__build-worker needs --device and --device-name");
    char msg[1024];
    gb_registry_t *reg = NULL;
    gb_device_info_t *list = NULL;
    size_t count = 0;
    int rc = gb_registry_open(&reg, kpath, msg, sizeof msg);
    if (rc == GB_OK)
        rc = gb_device_list(&list, &count, msg, sizeof msg);
    char *end;
    unsigned long i = strtoul(index, &end, 10);
    /* The index first; the name where this process lists the devices otherwise. */
    for (size_t j = 0; rc == GB_OK && (i >= count || strcmp(list[i].name, name)) && j < count; j++)
        if (!strcmp(list[j].name, name))
            i = j;
    if (rc == GB_OK && (end == index || *end || i >= count || strcmp(list[i].name, name)))
        rc = gb__fail(msg, sizeof msg, GB_ENODEVICE,
                      "device %s is not '%s' here (this process sees %zu device(s), the first "
                      "'%s')",
                      index, name, count, count ? list[0].name : "");
    /* Answers go to a copy of standard output; whatever else prints goes to standard error. */
    const int fd = rc == GB_OK ? dup(1) : -1;
    FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (rc == GB_OK && (!out || dup2(2, 1) < 0))
        rc = gb__fail(msg, sizeof msg, GB_EIO, "cannot set up standard output");
    if (rc == GB_OK)
        rc = gb_builder_serve(reg, &list[i], stdin, out, msg, sizeof msg);
    if (out)
        fclose(out);
    gb_device_list_free(list, count);
    gb_registry_close(reg);
    return rc == GB_OK ? EXIT_OK : cli_error(rc, "build process: %s", msg);
}
