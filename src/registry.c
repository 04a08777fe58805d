/*
 * The registry's table and names: every variant (generated from
 * src/registry.def), the routines' and features' names, and lookup by name.
 * This module depends on nothing else in the library; tunables, profile,
 * decision and `altmem info` all name things through it.
 */
#include "variant_table.h"
#include "altmem.h"
#include "registry.h"
#include "lib/text.h"

/* 1 for the flag set avx512, else 0: the second of "~, 1" or of the unknown
   name and 0 (the preprocessor's probe idiom). */
#define ALTMEM__SECOND(a, b, ...) b
#define ALTMEM__PROBE(...) ALTMEM__SECOND(__VA_ARGS__, 0, ~)
#define ALTMEM__VEC512_avx512 ~, 1
#define ALTMEM__IS_VEC512(flags) ALTMEM__PROBE(ALTMEM__VEC512_##flags)
/* 1 for the flag set avx2: code on ymm0-15, whose every return from a 32-byte
   class runs vzeroupper (GCC's; the avx512 and evex sets keep to registers
   16-31 and need none, src/CMakeLists.txt, except in clang's builds). */
#define ALTMEM__VZEROUPPER_avx2 ~, 1
#define ALTMEM__IS_VZEROUPPER(flags) ALTMEM__PROBE(ALTMEM__VZEROUPPER_##flags)
/* 1 for the name avx512_halves: the Zen 4 build of the 64-byte variants. */
#define ALTMEM__HALVES64_avx512_halves ~, 1
#define ALTMEM__IS_HALVES64(name) ALTMEM__PROBE(ALTMEM__HALVES64_##name)

#define VARIANT(routine, name, arch, flags, source, requires, summary)                            \
    ALTMEM__IF_ARCH_##arch({ALTMEM__ID_##routine, #name, summary, requires,                       \
                            {.routine = altmem_##routine##_##name}, ALTMEM__IS_VEC512(flags),             \
                            ALTMEM__IS_HALVES64(name), ALTMEM__IS_VZEROUPPER(flags)},)

const struct altmem__variant altmem__variants[] = {
#include "registry.def"
};
#undef VARIANT
const size_t altmem__variant_total = sizeof altmem__variants / sizeof altmem__variants[0];

#define ROUTINE(routine, libc_name, access, reads) [ALTMEM__ID_##routine] = #routine,
static const char *const routine_names[ALTMEM_ROUTINE_COUNT] = {
#include "registry.def"
};
#undef ROUTINE
#define ROUTINE(routine, libc_name, access, reads) +1
_Static_assert(0
#include "registry.def"
                   == ALTMEM_ROUTINE_COUNT,
               "src/registry.def: one ROUTINE per enum altmem_routine value");
#undef ROUTINE

static const char *const feature_names[ALTMEM_FEAT_COUNT] = {
    "UAL", "SIMD128", "SIMD256", "SIMD512", "ERMS", "FSRM", "SVE", "MOPS", "RVV", "ZICBOZ",
};

const char *altmem_routine_name(enum altmem_routine r)
{
    return (unsigned)r < ALTMEM_ROUTINE_COUNT ? routine_names[r] : NULL;
}

const char *altmem_feature_name(unsigned bit)
{
    return bit < ALTMEM_FEAT_COUNT ? feature_names[bit] : NULL;
}

void altmem__text_features(struct altmem__text *t, uint64_t mask, const char *sep)
{
    int any = 0;
    /* Up to the highest set bit only: this runs at start-up, for every routine's
       reason (no __builtin_ctzll: without Zbb, riscv64 makes it a libgcc call,
       which the core may not make, tests/check_nolibc.sh). */
    for (unsigned b = 0; b < 64 && (mask >> b); b++) {
        if (!(mask >> b & 1))
            continue;
        if (any)
            altmem__text_puts(t, sep);
        const char *name = altmem_feature_name(b);
        if (name) {
            altmem__text_puts(t, name);
        } else {
            altmem__text_puts(t, "bit");
            altmem__text_putu(t, b);
        }
        any = 1;
    }
    if (!any)
        altmem__text_puts(t, "none");
}

/* Names of variants merged into their vector width's variant when rep movsb /
   rep stosb became policy (docs/tunables.md): pinning one binds that width,
   whose string-instruction use the policy and its tunables decide. */
static const struct {
    const char *old, *now;
} variant_aliases[] = {
    {"erms", "sse2"},
    {"avx2_erms", "avx2"},
    {"avx512_erms", "avx512"},
};

const char *altmem__variant_alias(const char *name, size_t len, const char **old)
{
    for (size_t i = 0; i < sizeof variant_aliases / sizeof variant_aliases[0]; i++)
        if (altmem__eq_nocase(name, len, variant_aliases[i].old)) {
            if (old)
                *old = variant_aliases[i].old;
            return variant_aliases[i].now;
        }
    return NULL;
}

int altmem__variant_find(enum altmem_routine r, const char *name, size_t len)
{
    for (size_t i = 0; i < altmem__variant_total; i++)
        if (altmem__variants[i].routine == r && altmem__eq_nocase(name, len, altmem__variants[i].name))
            return (int)i;
    const char *now = altmem__variant_alias(name, len, NULL);
    if (now) {
        size_t n = 0;
        while (now[n])
            n++;
        return altmem__variant_find(r, now, n);
    }
    return -1;
}

