/*
 * Your own routines, bound like altmem's: one patched direct branch at the entry,
 * rewritten at load time to reach the first variant whose CPU features are
 * present (after ALTMEM_TUNABLES masks).  Until then, and wherever the system
 * refuses to rewrite code, the entry jumps through a pointer to the same choice.
 *
 *     // prototype, as usual, in a header:
 *     size_t count_zeros(const unsigned char *p, size_t n);
 *
 *     // in one .c file, after the variants:
 *     #include <altmem_alternative.h>
 *     ALTMEM_ALTERNATIVE(count_zeros, count_zeros_bytes,                // fallback: needs nothing
 *                        ALTMEM_CHOICE(count_zeros_avx2, ALTMEM_FEAT_SIMD256),
 *                        ALTMEM_CHOICE(count_zeros_words, ALTMEM_FEAT_UAL));
 *
 * Choices are tried in order; the fallback comes last and must run anywhere.  The
 * binding happens in a constructor of the module that holds the declaration
 * (before main, or before dlopen returns).  ALTMEM_ALTERNATIVE_INFO(name) tells
 * what was chosen and how calls reach it.  Cost: each declared routine owns an
 * isolated block of text (4 KiB on x86_64 and riscv64, 16 KiB on aarch64 and
 * loongarch64) plus a probe block of the same size; see docs/alternatives.md.
 * Supported on x86_64, aarch64, riscv64 and loongarch64 with GCC or Clang.
 */
#ifndef ALTMEM_ALTERNATIVE_H
#define ALTMEM_ALTERNATIVE_H

/* The patch-site record (struct altmem__site, src/patch/patch.h), written once,
   here: four PC-relative words in the section altmem_patch_sites (the branch, the
   slot, the routine's name, the probe block) and the name itself.  Used by
   ALTMEM__STUB_ASM below, and by altmem's own entry points (src/arch/stubs.inc,
   which includes this header from assembly: the part for assembly is these
   three macros).  F gets the assembler text, its statements separated by `;`
   (every target's assembler takes it): ALTMEM__ASM_STR makes it a C string for
   __asm__ (stringified, never macro-expanded: the program's macros cannot change
   it), ALTMEM__ASM_TEXT leaves it as text for a .S file.  name_label defines the
   name's label, name_ref refers to it from the record. */
#define ALTMEM__SITE_RECORD(F, site, slot, probe, name_label, name_ref, name)     \
    F(.pushsection altmem_patch_sites, "a", %progbits;                              \
      .balign 4;                                                                   \
      .long site - .; .long slot - .; .long name_ref - .; .long probe - .;         \
      .popsection;                                                                 \
      .pushsection .rodata.altmem_names, "a", %progbits;                           \
      name_label: .asciz name;                                                     \
      .popsection)
#define ALTMEM__ASM_STR(...) #__VA_ARGS__ "\n"
#define ALTMEM__ASM_TEXT(...) __VA_ARGS__

#ifndef __ASSEMBLER__
#include <altmem.h>

#ifdef __cplusplus
extern "C" {
#endif

struct altmem_choice {
    void (*fn)(void);          /* the variant, cast to a generic function type */
    uint64_t requires;         /* ALTMEM_FEAT_* bits it needs                  */
    const char *name;
};

struct altmem_alternative_info {
    const char *chosen;        /* name of the bound choice                     */
    const char *bound_by;      /* "patched branch" or "pointer"                */
};

/* Used by ALTMEM_ALTERNATIVE: stores the first runnable choice in *slot, then
   rewrites the module's patch sites [sites_begin, sites_end). */
ALTMEM_API void altmem_alternative_bind(void (**slot)(void), const struct altmem_choice *choices,
                                        size_t count, const void *sites_begin, const void *sites_end,
                                        struct altmem_alternative_info *info);

#define ALTMEM_CHOICE(fn, features) { (void (*)(void))(fn), (features), #fn }

#define ALTMEM__STR2(x) #x
#define ALTMEM__STR(x) ALTMEM__STR2(x)

#if defined(__x86_64__)
#define ALTMEM__ISO "4096"
#define ALTMEM__STUB(sym, slot)                                                      \
    "3:\n\t.byte 0xe9\n\t.long 0\n\tjmp *" slot "(%rip)\n"
#define ALTMEM__FILL "0xcc"
#elif defined(__aarch64__)
#define ALTMEM__ISO "16384"
#define ALTMEM__STUB(sym, slot)                                                      \
    "3:\n\tb 4f\n4:\tadrp x16, " slot "\n\tldr x16, [x16, :lo12:" slot "]\n\tbr x16\n"
#define ALTMEM__FILL "0"
#elif defined(__riscv) && __riscv_xlen == 64
#define ALTMEM__ISO "4096"
#define ALTMEM__STUB(sym, slot)                                                      \
    ".option push\n\t.option norvc\n"                                                \
    "3:\n\tauipc t1, 0\n\tjalr zero, 8(t1)\n"                                        \
    "4:\tauipc t1, %pcrel_hi(" slot ")\n\tld t1, %pcrel_lo(4b)(t1)\n\tjr t1\n"     \
    "\t.option pop\n"
#define ALTMEM__FILL "0"
#elif defined(__loongarch__) && __loongarch_grlen == 64
#define ALTMEM__ISO "16384"
#define ALTMEM__STUB(sym, slot)                                                      \
    "3:\n\tb 4f\n4:\tpcalau12i $t8, %pc_hi20(" slot ")\n"                            \
    "\tld.d $t8, $t8, %pc_lo12(" slot ")\n\tjr $t8\n"
#define ALTMEM__FILL "0"
#else
#error "altmem_alternative.h: no patch stub for this architecture"
#endif

/* The entry `sym`, isolated in its own block (the branch at 3:) and followed by
   a probe block (1:); its record (ALTMEM__SITE_RECORD) follows it. */
#define ALTMEM__STUB_ASM(sym, slot)                                                  \
    ".pushsection altmem_user_text, \"ax\", %progbits\n"                             \
    "\t.balign " ALTMEM__ISO "\n"                                                    \
    "\t.hidden " slot "\n\t.globl " sym "\n\t.type " sym ", %function\n"             \
    sym ":\n" ALTMEM__STUB(sym, slot)                                                \
    "\t.size " sym ", . - " sym "\n"                                                 \
    "\t.balign " ALTMEM__ISO ", " ALTMEM__FILL "\n"                                  \
    "1:\t.fill " ALTMEM__ISO ", 1, " ALTMEM__FILL "\n"                               \
    ".popsection\n"

extern const char __start_altmem_patch_sites[] __attribute__((weak, visibility("hidden")));
extern const char __stop_altmem_patch_sites[] __attribute__((weak, visibility("hidden")));

#define ALTMEM_ALTERNATIVE(name, fallback, ...)                                      \
    __attribute__((visibility("hidden"))) void (*name##__altmem_slot)(void) =        \
        (void (*)(void))(fallback);                                                   \
    struct altmem_alternative_info name##__altmem_info = {#fallback, "pointer"};    \
    __asm__(ALTMEM__STUB_ASM(#name, ALTMEM__STR(name##__altmem_slot))               \
            ALTMEM__SITE_RECORD(ALTMEM__ASM_STR, 3b, name##__altmem_slot, 1b, 2, 2f, #name)); \
    __attribute__((constructor)) static void name##__altmem_bind(void)              \
    {                                                                                \
        static const struct altmem_choice choices[] = {__VA_ARGS__,                  \
                                                       ALTMEM_CHOICE(fallback, 0)};  \
        altmem_alternative_bind(&name##__altmem_slot, choices,                       \
                                sizeof choices / sizeof choices[0],                  \
                                __start_altmem_patch_sites, __stop_altmem_patch_sites, \
                                &name##__altmem_info);                                 \
    }                                                                                \
    struct altmem__alternative_##name##_semicolon

/* What ALTMEM_ALTERNATIVE(name, ...) bound (declare it where you use it:
   extern struct altmem_alternative_info name##__altmem_info;). */
#define ALTMEM_ALTERNATIVE_INFO(name) (name##__altmem_info)

#ifdef __cplusplus
}
#endif
#endif /* !__ASSEMBLER__ */
#endif
