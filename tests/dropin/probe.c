/*
 * probe altmem|libc [BOUND_BY [NOTE]]
 * probe overflow
 *
 * An ordinary program (not linked with altmem) that reports who provides its
 * memory routines, and checks that answer:
 *   altmem  every name of src/preload/exports.map that the C library also
 *           exports resolves into libaltmem-preload.so, the program's own
 *           reference to memcpy is the same function, and altmem_binding()
 *           (looked up at run time) says how the preloaded library bound
 *           itself: BOUND_BY, when given, must match ("patched branch",
 *           "pointer"), and NOTE must occur in its "not patched" note;
 *   libc    none of them does, and there is no altmem_binding: the negative
 *           control, so a check that could never fail is caught.
 * In both cases the routines are then called, through the program's own
 * references, and their results checked against byte loops (calls.h): a
 * preload that loads but computes wrongly fails here too.
 *
 * overflow: calls __memcpy_chk with a destination too small, which must end
 * the process the C library's way (__chk_fail: "*** buffer overflow detected
 * ***", SIGABRT); returning is a failure.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <altmem.h>
#include "calls.h"

/* altmem.h for its types only: the program is not linked with altmem, and
   finds altmem_binding at run time, when it is there. */
typedef __typeof__(altmem_binding) binding_fn;

static const char *const names[] = {
    "memcpy", "memmove", "memset", "mempcpy", "__mempcpy", "bcopy", "bzero", "__bzero", "explicit_bzero",
    "__memcpy_chk", "__memmove_chk", "__mempcpy_chk", "__memset_chk", "__explicit_bzero_chk",
    "wmemcpy", "wmemmove", "wmempcpy", "wmemset",
    "__wmemcpy_chk", "__wmemmove_chk", "__wmempcpy_chk", "__wmemset_chk",
};

static int failures;

static void fail(const char *what)
{
    printf("FAIL: %s\n", what);
    failures++;
}

static const char *base(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

extern void *__memcpy_chk(void *dst, const void *src, size_t n, size_t dstlen);

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "overflow")) {
        static char src[64] = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde";
        static char dst[64];
        void *(*volatile chk)(void *, const void *, size_t, size_t) = __memcpy_chk;
        fflush(stdout);
        chk(dst, src, 33, 32);
        printf("FAIL: __memcpy_chk(n=33, dstlen=32) returned\n");
        return 1;
    }
    if (argc < 2 || (strcmp(argv[1], "altmem") && strcmp(argv[1], "libc"))) {
        fprintf(stderr, "usage: probe altmem|libc [BOUND_BY [NOTE]]\n");
        return 2;
    }
    int want_altmem = !strcmp(argv[1], "altmem");
    void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);

    unsigned ours = 0, theirs = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        /* Only what this C library exports can be interposed on. */
        if (libc && !dlsym(libc, names[i]))
            continue;
        void *f = dlsym(RTLD_DEFAULT, names[i]);
        Dl_info info;
        const char *from = f && dladdr(f, &info) && info.dli_fname ? info.dli_fname : "(nowhere)";
        int is_ours = strstr(base(from), "altmem-preload") != NULL;
        printf("%-22s %s\n", names[i], from);
        if (is_ours)
            ours++;
        else
            theirs++;
    }
    /* The program's own reference (its GOT/PLT), not just the loader's view. */
    void *(*volatile own)(void *, const void *, size_t) = memcpy;
    int own_is_dlsym = (void *)own == dlsym(RTLD_DEFAULT, "memcpy");
    binding_fn *binding = (binding_fn *)dlsym(RTLD_DEFAULT, "altmem_binding");
    printf("summary: %u names from libaltmem-preload.so, %u from elsewhere; program's memcpy %s "
           "the loader's; altmem_binding %s\n",
           ours, theirs, own_is_dlsym ? "is" : "is NOT", binding ? "present" : "absent");

    if (want_altmem) {
        if (theirs || !ours)
            fail("not every name resolves into libaltmem-preload.so");
        if (!own_is_dlsym)
            fail("the program's memcpy is not the one the loader reports");
        if (!binding) {
            fail("altmem_binding not found");
        } else {
            static const char *const routine[] = {"memcpy", "memmove", "memset"};
            for (int r = 0; r < 3; r++) {
                struct altmem_binding_info b;
                if (binding((enum altmem_routine)r, &b) != 0) {
                    fail("altmem_binding failed");
                    continue;
                }
                printf("binding: %-8s %-8s %-15s %s\n", routine[r], b.variant, b.bound_by,
                       b.bound_note && b.bound_note[0] ? b.bound_note : "-");
                if (argc > 2 && strcmp(b.bound_by, argv[2]))
                    fail("bound by something else than expected");
                if (argc > 3 && !(b.bound_note && strstr(b.bound_note, argv[3])))
                    fail("the not-patched note does not say what was expected");
            }
        }
    } else {
        if (ours)
            fail("a name resolves into libaltmem-preload.so in a run without it");
        if (binding)
            fail("altmem_binding present in a run without altmem");
    }
    failures += check_calls();
    printf("probe %s: %s\n", argv[1], failures ? "FAILED" : "passed");
    return failures ? 1 : 0;
}
