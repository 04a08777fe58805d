/*
 * `altmem run [--] CMD ARGS...`: runs CMD with libaltmem-preload.so added to
 * LD_PRELOAD, so that its memcpy, memmove, memset (and mempcpy, the _chk forms,
 * bzero, the wide forms) are altmem's.  docs/dropin.md.
 *
 * The library is found, in order:
 *   1. $ALTMEM_PRELOAD_LIB, if set (an explicit choice: used or refused, never
 *      silently replaced by another copy);
 *   2. relative to this executable (/proc/self/exe), in each directory of
 *      ALTMEM_RUN_SEARCH (set by tools/CMakeLists.txt): first where
 *      `cmake --install` puts it (<bindir>/../lib), then where the build tree
 *      has it, so both an installed and a just-built altmem work, and a moved
 *      prefix keeps working.
 * CMD replaces this process (execvp): its exit status and any signal that
 * kills it reach the caller unchanged, with no altmem process in between.
 */
#define _GNU_SOURCE
#include "run.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PRELOAD_NAME "libaltmem-preload.so"
#ifndef ALTMEM_RUN_SEARCH
#define ALTMEM_RUN_SEARCH ""
#endif

/* What a shell returns when it cannot run a command. */
#define EXIT_NOT_FOUND 127
#define EXIT_NOT_EXECUTABLE 126

static void run_usage(FILE *f)
{
    fprintf(f, "usage: altmem run [--] CMD [ARGS...]\n"
               "Runs CMD with " PRELOAD_NAME " in LD_PRELOAD (appended to any already there).\n"
               "Environment: ALTMEM_PRELOAD_LIB  the library to use instead of the one found\n"
               "                                 next to this altmem\n"
               "             ALTMEM_TUNABLES     read by the library in CMD (docs/tunables.md)\n");
}

/* The directory of this executable, without a trailing slash. */
static int self_dir(const char *argv0, char *out, size_t len)
{
    char path[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    if (n > 0) {
        path[n] = '\0';
    } else if (argv0 && strchr(argv0, '/') && realpath(argv0, path)) {
        /* No /proc (a chroot, an early-boot shell): the path we were run by. */
    } else {
        return -1;
    }
    char *slash = strrchr(path, '/');
    if (!slash)
        return -1;
    *slash = '\0';
    if ((size_t)snprintf(out, len, "%s", path[0] ? path : "/") >= len)
        return -1;
    return 0;
}

/* Absolute, symlink-free path of an existing readable file in *out, or -1. */
static int usable(const char *path, char *out)
{
    return access(path, R_OK) == 0 && realpath(path, out) ? 0 : -1;
}

int altmem_run_find_library(const char *argv0, const char *who, char *out)
{
    const char *forced = getenv("ALTMEM_PRELOAD_LIB");
    if (forced && forced[0]) {
        if (usable(forced, out) == 0)
            return 0;
        fprintf(stderr, "%s: ALTMEM_PRELOAD_LIB=%s: %s\n", who, forced, strerror(errno));
        return -1;
    }
    char dir[PATH_MAX];
    if (self_dir(argv0, dir, sizeof dir) != 0) {
        fprintf(stderr, "%s: cannot tell where this altmem is (no /proc/self/exe); "
                        "set ALTMEM_PRELOAD_LIB to the path of " PRELOAD_NAME "\n", who);
        return -1;
    }
    char looked[2 * PATH_MAX] = "";
    size_t used = 0;
    const char *search = ALTMEM_RUN_SEARCH;
    while (*search) {
        size_t n = strcspn(search, ":");
        char cand[PATH_MAX];
        int w = search[0] == '/' ? snprintf(cand, sizeof cand, "%.*s/%s", (int)n, search, PRELOAD_NAME)
                                 : snprintf(cand, sizeof cand, "%s/%.*s/%s", dir, (int)n, search, PRELOAD_NAME);
        if (w > 0 && (size_t)w < sizeof cand) {
            if (usable(cand, out) == 0)
                return 0;
            int m = snprintf(looked + used, sizeof looked - used, "%s%s", used ? ", " : "", cand);
            if (m > 0 && (size_t)m < sizeof looked - used)
                used += (size_t)m;
        }
        search += n + (search[n] == ':');
    }
    if (used)
        fprintf(stderr, "%s: cannot find " PRELOAD_NAME " (looked for %s); "
                        "set ALTMEM_PRELOAD_LIB to its path\n", who, looked);
    else
        fprintf(stderr, "%s: this altmem was built without " PRELOAD_NAME
                        " (ALTMEM_BUILD_SHARED=OFF); set ALTMEM_PRELOAD_LIB to its path\n", who);
    return -1;
}

int altmem_run_listed(const char *list, const char *lib)
{
    size_t len = strlen(lib);
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ": ");
        if (n == len && strncmp(p, lib, len) == 0)
            return 1;
        p += n;
        p += strspn(p, ": ");
    }
    return 0;
}

int altmem_run_main(const char *argv0, int argc, char **argv)
{
    int i = 1;
    if (i < argc && (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))) {
        run_usage(stdout);
        return 0;
    }
    if (i < argc && !strcmp(argv[i], "--"))
        i++;
    else if (i < argc && argv[i][0] == '-') {
        /* Options may be added later; a command whose name starts with '-'
           comes after "--". */
        fprintf(stderr, "altmem run: unknown option '%s' (put the command after --)\n", argv[i]);
        run_usage(stderr);
        return 2;
    }
    if (i >= argc) {
        fprintf(stderr, "altmem run: no command given\n");
        run_usage(stderr);
        return 2;
    }

    char lib[PATH_MAX];
    if (altmem_run_find_library(argv0, "altmem run", lib) != 0)
        return EXIT_NOT_FOUND;
    /* The dynamic loader splits LD_PRELOAD at spaces and colons and has no
       quoting, so such a path would name other files. */
    if (strpbrk(lib, ": ")) {
        fprintf(stderr, "altmem run: %s: LD_PRELOAD cannot name a path containing ':' or ' '; "
                        "copy or link the library to a path without them and set ALTMEM_PRELOAD_LIB\n", lib);
        return EXIT_NOT_FOUND;
    }

    /* Appended, not prepended: a library the user preloads on purpose (a
       sanitizer runtime must come first; a malloc replacement) keeps its place. */
    const char *old = getenv("LD_PRELOAD");
    if (old && old[0] && !altmem_run_listed(old, lib)) {
        size_t need = strlen(old) + 1 + strlen(lib) + 1;
        char *list = malloc(need);
        if (!list) {
            fprintf(stderr, "altmem run: out of memory\n");
            return EXIT_NOT_FOUND;
        }
        snprintf(list, need, "%s:%s", old, lib);
        setenv("LD_PRELOAD", list, 1);
        free(list);
    } else if (!old || !old[0]) {
        setenv("LD_PRELOAD", lib, 1);
    }

    fflush(NULL);
    execvp(argv[i], argv + i);
    int err = errno;
    /* A shell's wording: "not found" for a name looked up in PATH. */
    fprintf(stderr, "altmem run: %s: %s\n", argv[i],
            err == ENOENT && !strchr(argv[i], '/') ? "command not found" : strerror(err));
    return err == ENOENT ? EXIT_NOT_FOUND : EXIT_NOT_EXECUTABLE;
}
