/*
 * altmem — memory routines bound at start-up to the best variant for this CPU.
 *
 * The three routines below have exactly the C standard's semantics:
 *   altmem_memcpy   copies n bytes; the regions must not overlap; returns dst.
 *   altmem_memmove  copies n bytes; the regions may overlap; returns dst.
 *   altmem_memset   stores (unsigned char)c into n bytes; returns dst.
 * n == 0 is allowed with any pointer values and touches no memory; dst == src is
 * allowed for memmove (and, as in every libc, works for memcpy too).
 *
 * Binding: each routine is bound once, when the library is loaded (an ELF
 * constructor), to the first variant in its preference list whose CPU features
 * are present (see altmem_variant() and `altmem info`).  Before that moment, and
 * in programs where constructors do not run (freestanding start-up code), every
 * routine is bound to its `generic` variant, which is correct on any CPU; call
 * altmem_init() to select.  The environment variable ALTMEM_TUNABLES can mask
 * features and pin variants (docs/tunables.md); it is ignored in setuid and
 * other AT_SECURE processes.
 */
#ifndef ALTMEM_H
#define ALTMEM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define ALTMEM_API __attribute__((visibility("default")))
#else
#define ALTMEM_API
#endif

#define ALTMEM_VERSION_MAJOR 0
#define ALTMEM_VERSION_MINOR 1
#define ALTMEM_VERSION_PATCH 0
#define ALTMEM_VERSION_STRING "0.1.0"

/* ---- The routines ------------------------------------------------------- */

ALTMEM_API void *altmem_memcpy(void *__restrict dst, const void *__restrict src, size_t n);
ALTMEM_API void *altmem_memmove(void *dst, const void *src, size_t n);
ALTMEM_API void *altmem_memset(void *dst, int c, size_t n);

/*
 * Fault-tolerant copy and clear, the kernel's copy_user / clear_user made exact.
 * They copy (zero) n bytes and return the number of bytes NOT done, r:
 *   - the first n - r bytes of dst are done;
 *   - nothing at or beyond dst + n - r is written;
 *   - r is byte-exact: every byte before the first inaccessible source or
 *     destination byte is done, including inside a word that straddles it.
 * An access is inaccessible when it raises SIGSEGV (unmapped, PROT_NONE, a
 * read-only destination) or SIGBUS (a file mapping past end of file).  src and
 * dst must not overlap.  Safe from any thread and from signal handlers, as long
 * as SIGSEGV and SIGBUS are not blocked in the calling thread (a fault with them
 * blocked is fatal: the kernel's rule); the first call installs a SIGSEGV/SIGBUS
 * handler that passes every other fault to the handler installed before it
 * (docs/uaccess.md); so does the first call of a copy_user/clear_user variant
 * taken from altmem_variant().
 */
ALTMEM_API size_t altmem_copy_user(void *dst, const void *src, size_t n);
ALTMEM_API size_t altmem_clear_user(void *dst, size_t n);

/* (Re)installs the fault handler in front of whatever handles SIGSEGV and
   SIGBUS now, chaining to it.  For programs that install their own handlers
   after altmem's first copy_user.  Returns 0, or -1 if sigaction failed. */
ALTMEM_API int altmem_uaccess_install(void);

typedef void *altmem_memcpy_fn(void *__restrict dst, const void *__restrict src, size_t n);
typedef void *altmem_memmove_fn(void *dst, const void *src, size_t n);
typedef void *altmem_memset_fn(void *dst, int c, size_t n);
typedef size_t altmem_copy_user_fn(void *dst, const void *src, size_t n);
typedef size_t altmem_clear_user_fn(void *dst, size_t n);

/*
 * Detect the CPU, read ALTMEM_TUNABLES and bind every routine.  Idempotent and
 * thread-safe: the first call does the work, later calls return at once.  The
 * library's constructor calls it; static and freestanding programs whose start-up
 * code runs no constructors call it themselves.  Rebinding swaps one aligned
 * pointer per routine, so a concurrent caller sees either the old or the new
 * variant, both correct.
 */
ALTMEM_API void altmem_init(void);

/* ---- CPU features ------------------------------------------------------- */

/* Portable feature bits.  One bitmask for every architecture. */
#define ALTMEM_FEAT_UAL     (UINT64_C(1) << 0) /* fast hardware unaligned scalar access */
#define ALTMEM_FEAT_SIMD128 (UINT64_C(1) << 1) /* SSE2 / NEON(ASIMD) / LSX            */
#define ALTMEM_FEAT_SIMD256 (UINT64_C(1) << 2) /* AVX2 (with OS support) / LASX       */
#define ALTMEM_FEAT_SIMD512 (UINT64_C(1) << 3) /* AVX-512 F+BW+VL (with OS support)    */
#define ALTMEM_FEAT_ERMS    (UINT64_C(1) << 4) /* x86 enhanced rep movsb/stosb        */
#define ALTMEM_FEAT_FSRM    (UINT64_C(1) << 5) /* x86 fast short rep movsb            */
#define ALTMEM_FEAT_SVE     (UINT64_C(1) << 6) /* aarch64 SVE, where the kernel keeps it cheap */
#define ALTMEM_FEAT_MOPS    (UINT64_C(1) << 7) /* aarch64 FEAT_MOPS cpy* / set*      */
#define ALTMEM_FEAT_RVV     (UINT64_C(1) << 8) /* riscv64 V (vector 1.0)              */
#define ALTMEM_FEAT_ZICBOZ  (UINT64_C(1) << 9) /* riscv64 Zicboz cbo.zero             */
#define ALTMEM_FEAT_COUNT   10

/* "UAL", "SIMD128", ...; NULL for a bit number without a name. */
ALTMEM_API const char *altmem_feature_name(unsigned bit);

struct altmem_cpu_info {
    const char *arch;       /* "x86_64", "aarch64", "riscv64", "loongarch64", or "unknown" */
    uint64_t detected;      /* what the CPU (and OS) reported                              */
    uint64_t masked;        /* removed by ALTMEM_TUNABLES hwcaps=-X                        */
    uint64_t forced;        /* added by ALTMEM_TUNABLES hwcaps=+UAL                        */
    uint64_t active;        /* (detected & ~masked) | forced: what selection used           */
    size_t l1d_bytes, l2_bytes, l3_bytes; /* 0 when unknown                                */
    int secure;             /* 1 if AT_SECURE: ALTMEM_TUNABLES was ignored                 */
    const char *notes;      /* detection remarks ("" when none), one line                  */
};

/* Fills *out (after altmem_init() if it has not run yet). */
ALTMEM_API void altmem_cpu(struct altmem_cpu_info *out);

/* Size in bytes from which the SIMD variants (x86_64) use non-temporal stores:
   derived from the cache sizes, or ALTMEM_TUNABLES nt_threshold=BYTES
   (docs/tunables.md); a rule may start some copies later (amd-zen5: never
   where dst - src is a multiple of 64, nor forward overlaps; altmem info names
   it).  After altmem_init() if it has not run yet. */
ALTMEM_API size_t altmem_nt_threshold(void);

/* ---- Policy: when the x86_64 variants change strategy ------------------- */

/* Set once at start-up by a table of per-CPU rules (each a published rule or a
   measurement, with its source), then ALTMEM_TUNABLES setting by setting
   (docs/tunables.md).  Sizes in bytes; SIZE_MAX = never.  Index 0, 1, 2 of
   the arrays: the 16-, 32- and 64-byte variants (sse2, avx2, avx512, and
   the copy_user/clear_user variants of the same names).
   Other architectures have these values too, and no variant that reads them. */
struct altmem_policy_info {
    int wide_vectors;              /* 1: 512-bit variants may be bound by default  */
    size_t nt_copy;                /* memcpy, memmove, copy_user: non-temporal from */
    size_t nt_memset;              /* memset, clear_user: non-temporal from         */
    size_t rep_movsb[3];           /* copies: rep movsb from                        */
    size_t rep_movsb_coaligned;    /* avx512 copies, (dst ^ src) % 64 == 0          */
    size_t rep_stosb[3];           /* sets: rep stosb from                          */
    size_t movsb_short_distance;   /* no rep movsb at (dst - src) % 4096 in 1..this */
    unsigned overridden;           /* ALTMEM_POLICY_* that ALTMEM_TUNABLES set      */
};
#define ALTMEM_POLICY_NT_COPY   1u
#define ALTMEM_POLICY_NT_MEMSET 2u
#define ALTMEM_POLICY_MOVSB     4u
#define ALTMEM_POLICY_STOSB     8u
#define ALTMEM_POLICY_SHORT     16u

/* Fills *out (after altmem_init() if it has not run yet). */
ALTMEM_API void altmem_policy(struct altmem_policy_info *out);

/* ---- The profile: settings measured on this machine (altmem tune) -------- */

/* Read once at start-up from ALTMEM_PROFILE, else the system profile (a path
   set at build time); applied only on the CPU it was measured on, with
   ALTMEM_TUNABLES overriding it setting by setting (docs/tunables.md). */
enum altmem_profile_status {
    ALTMEM_PROFILE_NONE = 0,       /* no file there (or ALTMEM_PROFILE=none)        */
    ALTMEM_PROFILE_APPLIED,        /* measured on this CPU, every line valid        */
    ALTMEM_PROFILE_IGNORED         /* why says why; the rules' choices stand        */
};
struct altmem_profile_info {
    const char *path;              /* the file looked for, or NULL                  */
    enum altmem_profile_status status;
    const char *why;               /* IGNORED: which line and why; else ""         */
    const char *text;              /* the file's text when read, else NULL          */
    size_t text_len;
    unsigned policy;               /* ALTMEM_POLICY_* values the profile set        */
};
/* Fills *out (after altmem_init() if it has not run yet). */
ALTMEM_API void altmem_profile(struct altmem_profile_info *out);
/* This CPU's identity line as a profile's "cpu:" line holds it; returns the
   length it needs (as snprintf: writes at most size - 1 bytes and a NUL). */
ALTMEM_API size_t altmem_cpu_identity(char *buf, size_t size);

struct altmem_rule_info {
    const char *name;              /* "intel-avx512-no-vnni"                        */
    const char *when;              /* which CPUs, and why, in words                 */
    const char *changes;           /* what it sets                                  */
    const char *source;            /* the published rule or the measurement         */
    int applied;                   /* 1 if it matched this CPU                      */
};
/* Row i of the rule table, in the order applied (a later row overrides an
   earlier one).  Returns 0, or -1 when i is past the end. */
ALTMEM_API int altmem_policy_rule(unsigned i, struct altmem_rule_info *out);

/* ---- Variants and bindings ---------------------------------------------- */

enum altmem_routine {
    ALTMEM_MEMCPY = 0,
    ALTMEM_MEMMOVE = 1,
    ALTMEM_MEMSET = 2,
    ALTMEM_COPY_USER = 3,
    ALTMEM_CLEAR_USER = 4,
    ALTMEM_ROUTINE_COUNT
};

/* "memcpy", "memmove", "memset", "copy_user", "clear_user"; NULL when out of range. */
ALTMEM_API const char *altmem_routine_name(enum altmem_routine r);

/* A variant's entry point, whichever routine it serves (the one spelling of
   this union: the library's own table uses it too). */
union altmem_routine_fn {
    altmem_memcpy_fn *memcpy;
    altmem_memmove_fn *memmove;
    altmem_memset_fn *memset;
    altmem_copy_user_fn *copy_user;
    altmem_clear_user_fn *clear_user;
};

struct altmem_variant_info {
    enum altmem_routine routine;
    const char *name;        /* "generic", "ual", ...                               */
    const char *summary;     /* one line: what it assumes and how it works          */
    uint64_t requires;       /* ALTMEM_FEAT_* bits it needs                         */
    int runnable;            /* requires ⊆ detected: safe to call on this CPU       */
    unsigned preference;     /* 0 = tried first for its routine                     */
    union altmem_routine_fn fn;
};

/* Number of variants built into this library, all routines together. */
ALTMEM_API size_t altmem_variant_count(void);
/* Variant number i (0 <= i < altmem_variant_count()); returns 0, or -1 if out of range. */
ALTMEM_API int altmem_variant(size_t i, struct altmem_variant_info *out);

enum altmem_bind_reason {
    ALTMEM_BOUND_DEFAULT = 0,   /* altmem_init() has not run: generic */
    ALTMEM_BOUND_DETECTED,      /* first runnable variant in preference order        */
    ALTMEM_BOUND_OVERRIDDEN,    /* pinned by ALTMEM_TUNABLES                         */
    ALTMEM_BOUND_REFUSED,       /* a pin was refused; detected choice kept           */
    ALTMEM_BOUND_PROFILE        /* chosen by the profile (altmem tune)               */
};

struct altmem_binding_info {
    enum altmem_routine routine;
    const char *variant;             /* name of the bound variant                   */
    enum altmem_bind_reason reason;
    const char *why;                 /* one line for humans                          */
    const char *bound_by;            /* how calls reach the variant: "copied" (the
                                        entry holds the variant's code), "patched
                                        branch", "PLT slots", "pointer" or "ifunc"   */
    const char *bound_note;          /* why not "patched branch" where it could be;
                                        where a copy was asked for and the branch
                                        given, "not copied: " and why; or ""         */
};

/* Returns 0, or -1 if r is out of range. */
ALTMEM_API int altmem_binding(enum altmem_routine r, struct altmem_binding_info *out);

/* ---- Freestanding builds ------------------------------------------------ */

/*
 * For programs without a C library (-ffreestanding -nostdlib: bootloaders,
 * unikernels, static programs with their own start-up code) on Linux x86_64,
 * aarch64, riscv64 and loongarch64; see docs/freestanding.md.  They link the
 * freestanding flavour of the library (libaltmem-freestanding.a, or libaltmem.a
 * from a build configured with -DALTMEM_FREESTANDING=ON), which makes its few
 * system calls itself and references no symbol outside altmem.
 *
 * Their start-up code calls this once, before any other altmem function, with
 * the environment (NULL-terminated, as after argv on the initial stack) and the
 * auxiliary vector (type/value pairs ending with type 0, AT_NULL); either may be
 * NULL when there is none.  It reads ALTMEM_TUNABLES, AT_HWCAP and AT_SECURE
 * from them, then selects exactly as altmem_init() does.  Selection happens
 * once: called after it has already run (say, from an ELF constructor), it
 * writes one line to standard error and changes nothing.  Only the freestanding
 * flavour defines this function.
 */
ALTMEM_API void altmem_init_freestanding(char *const *envp, const unsigned long *auxv);
/* The same with a profile's text (the format of `altmem tune`; NULL: none): the
   freestanding flavour reads no file, so the program hands the profile over.
   Applied as a file would be (only on the CPU it names; ALTMEM_TUNABLES over it). */
ALTMEM_API void altmem_init_freestanding_profile(char *const *envp, const unsigned long *auxv, const char *profile);

#ifdef __cplusplus
}
#endif
#endif /* ALTMEM_H */
