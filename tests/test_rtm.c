/*
 * The rule intel-rtm: on a CPU with RTM that can commit and AVX-512, the bound
 * memcpy, memmove and memset let a transaction commit.  The avx2 copies'
 * vzeroupper aborts every transaction it runs in (glibc BZ 27457), so there the
 * copies bind their evex variants, or avx512 (src/policy.c).
 *
 * Each public routine, at sizes 1 B to 4 KiB, runs inside _xbegin/_xend up to
 * ATTEMPTS times; a transaction may abort for reasons of its own (an interrupt,
 * a line evicted), so the check is that at least one commits per size, where
 * the avx2 copies commit none.  Each size is called once outside first: a page
 * fault inside a transaction aborts it without being served, so an untouched
 * page would abort every attempt.
 *
 *   test_rtm            the check (exit 77 where clang built it: there nothing
 *                       is promised); where RTM cannot commit or the CPU has no
 *                       AVX-512, the check that the rule did not apply there
 *                       (so that CI runs a check on every CPU, not a skip)
 *   test_rtm --control  the same check on the avx2 memcpy variant, or, where the
 *                       rule does not apply, the claim that it did: must fail
 */
#include <cpuid.h>
#include <immintrin.h>
#include <stdio.h>
#include <string.h>

#include "altmem.h"

#define ATTEMPTS 200

typedef void *copy_fn(void *, const void *, size_t);

static unsigned char src_buf[8192], dst_buf[8192];
static int failures;

/* Whether the policy rule of that name applied in this process (altmem info's list). */
static int rule_applied(const char *name)
{
    struct altmem_rule_info r;
    for (unsigned i = 0; altmem_policy_rule(i, &r) == 0; i++)
        if (!strcmp(r.name, name))
            return r.applied;
    printf("rtm: no rule named %s\n", name);
    return -1;
}

static int rtm_can_commit(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
        return 0;
    return (b & (1u << 11)) && !(d & (1u << 11)); /* RTM, not RTM_ALWAYS_ABORT */
}

/* Commits out of ATTEMPTS of one call inside a transaction. */
__attribute__((target("rtm"), noinline)) static int commits_copy(copy_fn *f, size_t n)
{
    int ok = 0;
    f(dst_buf, src_buf, n);
    for (int i = 0; i < ATTEMPTS; i++) {
        if (_xbegin() == _XBEGIN_STARTED) {
            f(dst_buf, src_buf, n);
            _xend();
            ok++;
        }
    }
    return ok;
}

/* One byte stored by plain code: where a transaction holding only this never
   commits, the host aborts every transaction (a hypervisor that shows RTM with
   TSX off), and nothing about the routines can be learnt. */
static void *plain_byte_copy(void *d, const void *s, size_t n)
{
    (void)n;
    *(volatile unsigned char *)d = *(const unsigned char *)s;
    return d;
}

static void *memmove_as_copy(void *d, const void *s, size_t n) { return altmem_memmove(d, s, n); }
static void *memcpy_as_copy(void *d, const void *s, size_t n) { return altmem_memcpy(d, s, n); }
static void *memset_as_copy(void *d, const void *s, size_t n)
{
    (void)s;
    return altmem_memset(d, 0x5a, n);
}

static copy_fn *variant(enum altmem_routine r, const char *name)
{
    for (size_t i = 0; i < altmem_variant_count(); i++) {
        struct altmem_variant_info v;
        if (altmem_variant(i, &v) == 0 && v.routine == r && !strcmp(v.name, name))
            return (copy_fn *)v.fn.memcpy;
    }
    return NULL;
}

static void check(const char *what, const char *bound, int ok, size_t n)
{
    if (ok == 0) {
        printf("FAIL rtm: %s (%s) at %zu B: 0 of %d transactions committed\n", what, bound, n, ATTEMPTS);
        failures++;
    }
}

int main(int argc, char **argv)
{
    int control = argc > 1 && !strcmp(argv[1], "--control");
    static const size_t sizes[] = {1, 8, 31, 32, 64, 100, 300, 1000, 4000};
#ifdef __clang__
    /* clang has no -ffixed-xmmN: its avx512 and evex builds use ymm0-15 and
       return through vzeroupper like avx2 (src/CMakeLists.txt), so a
       transaction aborts in every vector variant; docs/tunables.md, intel-rtm. */
    printf("rtm: a clang build: its vector variants return through vzeroupper, nothing promised, skipped\n");
    return 77;
#endif
    struct altmem_cpu_info cpu;
    altmem_cpu(&cpu);
    int applied = rule_applied("intel-rtm");
    if (!rtm_can_commit() || !(cpu.active & ALTMEM_FEAT_SIMD512)) {
        /* Nothing to commit: the rule must not have applied (the control claims it did). */
        printf("rtm: %s: the rule intel-rtm %s\n",
               !rtm_can_commit() ? "no RTM that can commit on this CPU" : "no AVX-512 in use (intel-rtm needs it)",
               applied == 0 ? "did not apply, as it must not here" : applied == 1 ? "applied: FAILED" : "unknown: FAILED");
        if (control) {
            printf("rtm: control: claims the rule applied: %s\n", applied ? "it did" : "it did not: FAILED");
            return !applied;
        }
        return applied;
    }
    memset(src_buf, 0xa5, sizeof src_buf);
    memset(dst_buf, 0, sizeof dst_buf);
    struct altmem_binding_info b[3];
    for (int r = 0; r < 3; r++)
        altmem_binding((enum altmem_routine)r, &b[r]);
    if (commits_copy(plain_byte_copy, 1) == 0) {
        /* Nothing commits, not even one byte store: the binding alone can be checked
           (the rule applied, memcpy not avx2; the control claims avx2). */
        int ok = applied == 1 && strcmp(b[0].variant, "avx2") != 0;
        printf("rtm: RTM is enumerated but no transaction commits here (0 of %d holding one byte store): "
               "the rule %s, memcpy bound %s%s\n", ATTEMPTS, applied == 1 ? "applied" : "did not apply", b[0].variant,
               control ? " (control: claims avx2)" : ok ? "" : ": FAILED");
        return control ? strcmp(b[0].variant, "avx2") != 0 : !ok;
    }
    copy_fn *avx2 = variant(ALTMEM_MEMCPY, "avx2");
    if (control && !avx2) {
        printf("rtm: no avx2 memcpy variant in this build\n");
        return 1;
    }
    printf("rtm: bound memcpy %s, memmove %s, memset %s; %d attempts per size%s\n", b[0].variant, b[1].variant,
           b[2].variant, ATTEMPTS, control ? " (control: memcpy through the avx2 variant)" : "");
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        size_t n = sizes[k];
        int c = commits_copy(control ? avx2 : memcpy_as_copy, n);
        int m = commits_copy(memmove_as_copy, n), s = commits_copy(memset_as_copy, n);
        printf("  %4zu B: memcpy %3d, memmove %3d, memset %3d committed\n", n, c, m, s);
        check("memcpy", control ? "avx2" : b[0].variant, c, n);
        check("memmove", b[1].variant, m, n);
        check("memset", b[2].variant, s, n);
    }
    printf("rtm: %d failures: %s\n", failures, failures ? "FAILED" : "passed");
    return failures != 0;
}
