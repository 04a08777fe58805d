/*
 * The public entry points of libaltmem.so, as a program linked against the
 * shared library calls them (through the PLT): correct over sizes x offsets,
 * and bound the way this build says.  Under ALTMEM_BINDING=ifunc the address
 * the dynamic loader resolved for altmem_memcpy must be the bound variant itself.
 * Usage: test_entry_shared EXPECTED_BOUND_BY [pin [control]]
 * With "pin": checks that ALTMEM_TUNABLES reaches the binding, which the
 * resolvers make while the loader relocates, before the C library has set up
 * environ (tests/alternatives.cmake links this with -z now).  The program
 * picks a memcpy variant other than the detected one, runnable if there is one,
 * and runs itself again with ALTMEM_TUNABLES=memcpy=THAT (with "control":
 * without it, which must fail): bound to it, or, where it cannot run here (qemu's
 * riscv64 runs only generic), the pin refused.
 */
#include <altmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "entry_bound.h"
#include <unistd.h>

static unsigned char src[4096 + 64], dst[4096 + 64], ref[4096 + 64];


int main(int argc, char **argv)
{
    if (argc < 2 || argc > 4 || (argc >= 3 && strcmp(argv[2], "pin")) || (argc == 4 && strcmp(argv[3], "control"))) {
        fprintf(stderr, "usage: test_entry_shared EXPECTED_BOUND_BY [pin [control]]\n");
        return 2;
    }
    int fail = 0;
    const char *pinned = getenv("TEST_ENTRY_PINNED");
    if (argc >= 3 && !pinned) {
        struct altmem_binding_info b;
        altmem_binding(ALTMEM_MEMCPY, &b);
        /* A runnable one if there is one; else one this CPU cannot run, whose pin
           is refused (reason "refused"), which also shows the variable was read. */
        const char *other = NULL, *unrunnable = NULL;
        for (size_t i = 0; i < altmem_variant_count() && !other; i++) {
            struct altmem_variant_info v;
            altmem_variant(i, &v);
            if (v.routine == ALTMEM_MEMCPY && strcmp(v.name, b.variant)) {
                if (v.runnable)
                    other = v.name;
                else if (!unrunnable)
                    unrunnable = v.name;
            }
        }
        if (!other)
            other = unrunnable;
        if (!other) {
            printf("memcpy has one variant (%s): nothing to pin\n", b.variant);
            return 77;
        }
        char tun[128];
        snprintf(tun, sizeof tun, "memcpy=%s", other);
        if (argc == 4)
            unsetenv("ALTMEM_TUNABLES");
        else
            setenv("ALTMEM_TUNABLES", tun, 1);
        setenv("TEST_ENTRY_PINNED", other, 1);
        /* In a cross build this runs under qemu-user (tests/cross.cmake names it in
           ALTMEM_TEST_EMULATOR), and so must the second run. */
        const char *emulator = getenv("ALTMEM_TEST_EMULATOR");
        if (emulator && *emulator) {
            char *args[] = {"sh", "-c", "exec $ALTMEM_TEST_EMULATOR \"$0\" \"$1\"", argv[0], argv[1], NULL};
            execvp("sh", args);
        } else {
            char *args[] = {argv[0], argv[1], NULL};
            execv("/proc/self/exe", args);
        }
        perror("test_entry_shared: exec");
        return 1;
    }
    if (pinned) {
        struct altmem_binding_info b;
        altmem_binding(ALTMEM_MEMCPY, &b);
        struct altmem_variant_info v;
        int runnable = entry_variant_named(ALTMEM_MEMCPY, pinned, &v) && v.runnable;
        printf("memcpy bound to %s (reason %d), pinned %s, %s (ALTMEM_TUNABLES=%s)\n", b.variant, (int)b.reason,
               pinned, runnable ? "runnable" : "not runnable here: the pin must be refused",
               getenv("ALTMEM_TUNABLES") ? getenv("ALTMEM_TUNABLES") : "(unset)");
        fail |= runnable ? strcmp(b.variant, pinned) != 0 : b.reason != ALTMEM_BOUND_REFUSED;
    }
    for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++) {
        struct altmem_binding_info b;
        altmem_binding((enum altmem_routine)r, &b);
        printf("%s -> %s (bound by %s)\n", altmem_routine_name((enum altmem_routine)r), b.variant, b.bound_by);
        /* "copied": the plain routines; copy_user and clear_user keep the
           branch (their variants' exception tables name their own addresses). */
        const char *want = argv[1];
        if (!strcmp(want, "copied") && (r == ALTMEM_COPY_USER || r == ALTMEM_CLEAR_USER))
            want = "patched branch";
        if (strcmp(b.bound_by, want)) {
            printf("FAIL: expected bound by %s\n", want);
            fail = 1;
        }
    }
    if (!strcmp(argv[1], "ifunc")) {
        int ok = entry_is_bound_variant(ALTMEM_MEMCPY, (const void *)altmem_memcpy) &&
                 entry_is_bound_variant(ALTMEM_MEMMOVE, (const void *)altmem_memmove) &&
                 entry_is_bound_variant(ALTMEM_MEMSET, (const void *)altmem_memset);
        printf("resolved addresses are the bound variants: %s\n", ok ? "yes" : "NO");
        fail |= !ok;
    }
    for (size_t i = 0; i < sizeof src; i++)
        src[i] = (unsigned char)(i * 131 + 7);
    long cases = 0;
    for (size_t n = 0; n <= 600; n += (n < 80 ? 1 : 23))
        for (size_t so = 0; so < 16; so++)
            for (size_t d = 0; d < 16; d++, cases++) {
                memset(dst, 0xee, sizeof dst);
                memcpy(ref, dst, sizeof ref);
                memcpy(ref + d, src + so, n);
                fail |= altmem_memcpy(dst + d, src + so, n) != dst + d || memcmp(dst, ref, sizeof dst);
                memmove(ref + d + 7, ref + d, n);
                fail |= altmem_memmove(dst + d + 7, dst + d, n) != dst + d + 7 || memcmp(dst, ref, sizeof dst);
                memset(ref + so, (int)d, n);
                fail |= altmem_memset(dst + so, (int)d, n) != dst + so || memcmp(dst, ref, sizeof dst);
            }
    printf("%ld cases through the shared library's entry points: %s\n", cases, fail ? "FAILED" : "ok");
    return fail;
}
