/*
 * The decoding of a faulting FEAT_MOPS sequence's registers
 * (src/arch/aarch64/uaccess/mops_progress.h, altmem__ua_mops_done), on any host: qemu implements
 * only option A (and leaves a faulting prologue's registers in the input
 * format), so the option B format of cpyfm/cpyfe and setm/sete is never seen
 * under emulation.  Here both formats are made by hand for many sizes, progress
 * values and addresses (one wrapping the top of the address space), as the
 * Arm ARM describes them:
 *   input / option B  Xd = d + done, Xs = s + done, Xn = n - done
 *   option A          Xd = d + n,    Xs = s + n,    Xn = -(n - done)
 * and each must decode to done; registers that fit neither format (Xs out of
 * step, Xn off by one, Xd elsewhere) must decode to 0, the progress that is
 * always true.
 *
 *   test_uaccess_mops              the cases; exit 0 if all pass
 *   test_uaccess_mops --self-test  the same cases with a decoder that knows only
 *                                  the input format (Xd - d): the option A
 *                                  cases must fail
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "arch/aarch64/uaccess/mops_progress.h"

static int naive; /* --self-test */
static unsigned long failures, cases, optA_failures;

static size_t decode(const struct altmem__ua_mops_regs *r, uintptr_t d, uintptr_t s, size_t n, int copy)
{
    if (naive) {
        uint64_t o = r->xd - d;
        return o <= n ? o : 0;
    }
    return altmem__ua_mops_done(r, d, s, n, copy);
}

static void expect(const char *what, int optA, const struct altmem__ua_mops_regs *r, uintptr_t d, uintptr_t s,
                   size_t n, int copy, size_t want)
{
    cases++;
    size_t got = decode(r, d, s, n, copy);
    if (got == want)
        return;
    failures++;
    optA_failures += optA;
    if (!naive && failures <= 20)
        printf("FAIL %-22s %s d=%#jx s=%#jx n=%zu: Xd=%#jx Xs=%#jx Xn=%#jx -> %zu, expected %zu\n", what,
               copy ? "copy" : "set ", (uintmax_t)d, (uintmax_t)s, n, (uintmax_t)r->xd, (uintmax_t)r->xs,
               (uintmax_t)r->xn, got, want);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--self-test") == 0)
        naive = 1;
    else if (argc > 1) {
        fprintf(stderr, "usage: %s [--self-test]\n", argv[0]);
        return 2;
    }
    const uint64_t max = (UINT64_C(1) << 55) - 1; /* UA_MOPS_MAX */
    const size_t sizes[] = {0, 1, 2, 7, 63, 64, 4095, 4096, 4097, 65537, (size_t)1 << 32, (size_t)max};
    const uintptr_t addrs[] = {0x10000, 0, 0x7ffff7a00123, UINTPTR_MAX - 100, (uintptr_t)1 << 63};
    for (size_t a = 0; a < sizeof addrs / sizeof addrs[0]; a++)
        for (size_t b = 0; b < sizeof addrs / sizeof addrs[0]; b++)
            for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
                const uintptr_t d = addrs[a], s = addrs[b] + 4096 * b;
                const size_t n = sizes[z];
                const size_t dones[] = {0, 1, n / 2, n - 1, n};
                for (size_t k = 0; k < sizeof dones / sizeof dones[0]; k++) {
                    const size_t done = dones[k];
                    if (done > n)
                        continue;
                    for (int copy = 0; copy < 2; copy++) {
                        /* x1 is not set for a zeroing: any value */
                        const uint64_t xs_b = copy ? s + done : 0x5a5a5a5a, xs_a = copy ? s + n : 12345;
                        struct altmem__ua_mops_regs fb = {d + done, xs_b, n - done};
                        struct altmem__ua_mops_regs fa = {d + n, xs_a, -(uint64_t)(n - done)};
                        expect("input/option B", 0, &fb, d, s, n, copy, done);
                        expect("option A", done != n, &fa, d, s, n, copy, done);
                        if (naive)
                            continue;
                        /* Neither format: 0. */
                        if (done < n) {
                            struct altmem__ua_mops_regs bad = fb;
                            bad.xn += 1; /* Xn one too many */
                            expect("B, Xn off by one", 0, &bad, d, s, n, copy, 0);
                            bad = fa;
                            bad.xd -= 1; /* option A, Xd not the end */
                            expect("A, Xd not the end", 0, &bad, d, s, n, copy, 0);
                        }
                        if (copy && done > 0) {
                            struct altmem__ua_mops_regs bad = fb;
                            bad.xs -= 1; /* Xs out of step with Xd */
                            expect("B, Xs out of step", 0, &bad, d, s, n, copy, 0);
                            bad = fa;
                            bad.xs += 1;
                            expect("A, Xs out of step", 0, &bad, d, s, n, copy, 0);
                        }
                        if (n < max) {
                            struct altmem__ua_mops_regs bad = {d + n, xs_a, -(uint64_t)(n + 1)};
                            expect("A, more left than n", 0, &bad, d, s, n, copy, 0);
                            bad = (struct altmem__ua_mops_regs){d + n + 1, copy ? s + n + 1 : 0, 0};
                            expect("B, past the end", 0, &bad, d, s, n, copy, 0);
                        }
                    }
                }
            }
    if (naive) {
        /* The negative control: a decoder that reads Xd as the progress must get
           the option A cases wrong (and only them). */
        int ok = optA_failures > 0 && optA_failures == failures;
        printf("%s self-test: the input-format-only decoder failed %lu of %lu cases, %lu of them option A\n",
               ok ? "ok  " : "FAIL", failures, cases, optA_failures);
        return ok ? 0 : 1;
    }
    printf("%s %lu cases, %lu failed\n", failures ? "FAIL" : "ok  ", cases, failures);
    return failures ? 1 : 0;
}
