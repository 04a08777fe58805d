/*
 * Internal interfaces shared by entry points, selection, tunables and detection.
 * Nothing here is exported from the shared library (-fvisibility=hidden); the
 * tests link the static library and use these directly.
 */
#ifndef ALTMEM_INTERNAL_H
#define ALTMEM_INTERNAL_H

#include "altmem.h"
#include "policy.h"

#include <stddef.h>
#include <stdint.h>

/* ---- Variant table (src/registry.c) ------------------------------------- */

struct altmem__variant {
    enum altmem_routine routine;
    const char *name;
    const char *summary;
    uint64_t requires;
    union {
        altmem_memcpy_fn *memcpy;
        altmem_memmove_fn *memmove;
        altmem_memset_fn *memset;
        altmem_copy_user_fn *copy_user;
        altmem_clear_user_fn *clear_user;
    } fn;
};

/* The selection rule, for altmem's variants (src/decide.c) and users'
   alternatives (src/patch/alternative.c) alike: a choice can run when the
   CPU has every feature it requires. */
static inline int altmem__runnable(uint64_t requires, uint64_t features)
{
    return (requires & ~features) == 0;
}

/* All variants (src/registry.c, generated from src/registry.def); within a
   routine, in preference order (best first). */
extern const struct altmem__variant altmem__variants[];
extern const size_t altmem__variant_total;

/* Index of (routine, name) in altmem__variants, or -1. name need not be
   NUL-terminated: len bytes are compared. */
int altmem__variant_find(enum altmem_routine r, const char *name, size_t len);
/* The variant an old name now means ("avx2_erms" -> "avx2"), or NULL; *old
   (if not NULL) gets the old name's static spelling. */
const char *altmem__variant_alias(const char *name, size_t len, const char **old);

/* ---- CPU detection (src/cpu/) ------------------------------------------- */

/* x86_64 identity, for the per-CPU rules (src/policy.c); zero elsewhere. */
enum altmem__vendor { ALTMEM__VENDOR_UNKNOWN, ALTMEM__VENDOR_INTEL, ALTMEM__VENDOR_AMD, ALTMEM__VENDOR_OTHER };
#define ALTMEM__ID_AVX_VNNI   (1u << 0) /* CPUID.(7,1):EAX[4], the VEX-encoded AVX-VNNI */
#define ALTMEM__ID_HYPERVISOR (1u << 1) /* CPUID.1:ECX[31]                               */

struct altmem__cpu {
    const char *arch;
    uint64_t features;
    size_t l1d_bytes, l2_bytes, l3_bytes;
    int vendor;                           /* enum altmem__vendor                */
    unsigned family, model, stepping;     /* x86 display family / model          */
    uint32_t idflags;                     /* ALTMEM__ID_*                        */
    uint32_t vector_bytes;                /* SVE VL / RVV VLENB / widest SIMD; 0 unknown */
    uint32_t zero_block;                  /* DC ZVA / cbo.zero block size; 0 = none */
    size_t glibc_nt;                      /* x86: glibc 2.36's non-temporal threshold here; 0 elsewhere */
    size_t glibc_movsb_stop;              /* x86: ... and where its rep movsb stops (AMD: the L2) */
    char notes[256];
};

/* Implemented once per architecture; the unknown-architecture one reports none. */
void altmem__cpu_detect(struct altmem__cpu *out);

/* The architectures' pure decoders, compiled on every host so that the tests
   run them anywhere (src/arch/<arch>/decode.h), write their notes with these:
   cpu_note starts a new item ("; " before it unless notes is empty): a, then
   v and b when b is not NULL; cpu_note_more appends a with no separator. */
void altmem__cpu_note(char *notes, size_t len, const char *a, unsigned long long v, const char *b);
void altmem__cpu_note_more(char *notes, size_t len, const char *a);

/* ---- Tunables (src/tunables.c) ------------------------------------------ */

#define ALTMEM_TUNABLES_ENV "ALTMEM_TUNABLES"

struct altmem__tunables {
    uint64_t mask;                        /* hwcaps=-X                          */
    uint64_t force;                       /* hwcaps=+X                          */
    int pin[ALTMEM_ROUTINE_COUNT];        /* variant index, or -1               */
    const char *pin_old[ALTMEM_ROUTINE_COUNT]; /* the merged name pinned ("avx2_erms"), or NULL */
    int verbose;                          /* print bindings at init             */
    int debug;                            /* print every patched site           */
    int no_patch;                         /* bind=pointer: leave sites alone    */
    int nt_set;                           /* nt_threshold=BYTES was given       */
    size_t nt_threshold;                  /* ... and its value                  */
    int memset_nt_set;                    /* memset_nt_threshold=BYTES          */
    size_t memset_nt_threshold;
    int movsb_set;                        /* rep_movsb_threshold=BYTES          */
    size_t movsb;
    int stosb_set;                        /* rep_stosb_threshold=BYTES          */
    size_t stosb;
    int short_set;                        /* rep_movsb_short_distance=N (0..4095) */
    size_t short_distance;
};

typedef void altmem__warn_fn(const char *line, size_t len, void *ctx);

/* Parses an ALTMEM_TUNABLES value.  Every malformed or unknown part produces one
   warning line (no trailing newline) through warn and is skipped; the rest is
   applied.  Returns the number of warnings. */
int altmem__tunables_parse(const char *value, struct altmem__tunables *out,
                           altmem__warn_fn *warn, void *ctx);

/* ---- Policy (src/policy.c) ----------------------------------------------- */

/* When the x86_64 variants switch strategy.  Widths index 0, 1, 2 = the 16-,
   32- and 64-byte variants (sse2, avx2, avx512 and their copy_user /
   clear_user namesakes).  (size_t)-1 = never. */
struct altmem__policy {
    int allow512;                 /* 512-bit variants may be bound by default   */
    int no512_rule;               /* ... else the rule that said no, or -1      */
    size_t nt_copy;               /* memcpy, memmove, copy_user: streaming from  */
    size_t nt_set;                /* memset, clear_user: streaming from          */
    size_t movsb[3];              /* rep movsb from, per width                   */
    size_t movsb_coaligned;       /* ... 64-byte width, src, dst equally aligned */
    size_t stosb[3];              /* rep stosb from, per width                   */
    size_t short_distance;        /* no rep movsb at (dst - src) mod 4096 in 1..this */
    size_t zero_block;            /* DC ZVA / cbo.zero block (the CPU's), 0 = none */
    uint32_t rules;               /* bit i: altmem__policy_rules[i] applied       */
};

struct altmem__policy_rule {
    const char *name;             /* "intel-avx512-no-vnni"                          */
    const char *when;             /* in words: which CPUs, and why                   */
    const char *changes;          /* what it sets                                    */
    const char *source;           /* a published rule, or a measurement in docs/perf/ */
    int (*match)(const struct altmem__cpu *cpu);
    void (*apply)(const struct altmem__cpu *cpu, struct altmem__policy *p);
};
extern const struct altmem__policy_rule altmem__policy_rules[];
extern const size_t altmem__policy_rule_count;

/* The rules' choice for this CPU: pure, no side effects (tests/test_select.c). */
void altmem__policy_for(const struct altmem__cpu *cpu, struct altmem__policy *out);
/* Sets the variables below (altmem__bind does, before binding any variant). */
void altmem__policy_install(const struct altmem__policy *p);

/* ---- Selection: the decision (src/decide.c), init and binding (src/select.c) */

struct altmem__bound {
    int variant;                          /* index into altmem__variants        */
    enum altmem_bind_reason reason;
    char why[256];
};

/* How calls reach the bound variants; ALTMEM_BIND_MODE is set by the build. */
#define ALTMEM_BIND_PATCH 1   /* patched direct branch, pointer fallback (src/arch/<arch>/entry.S) */
#define ALTMEM_BIND_POINTER 2 /* C entry points through the pointer (src/entry.c)                  */
#define ALTMEM_BIND_IFUNC 3   /* GNU IFUNC resolved by the dynamic loader (src/entry.c)            */
#ifndef ALTMEM_BIND_MODE
#define ALTMEM_BIND_MODE ALTMEM_BIND_POINTER
#endif

/* ---- The profile (src/profile.c) ---------------------------------------- */

#define ALTMEM_PROFILE_ENV "ALTMEM_PROFILE"
#define ALTMEM__PROFILE_MAX (64 * 1024)   /* bytes; a larger file is not a profile */
#ifndef ALTMEM_PROFILE_PATH
#define ALTMEM_PROFILE_PATH "/usr/local/etc/altmem/profile"
#endif

struct altmem__text;
/* This CPU's identity as the profile's cpu: line holds it (without "cpu: "). */
void altmem__cpu_identity(const struct altmem__cpu *cpu, struct altmem__text *t);
/* Parses a profile's text for this CPU into *out (settings only).  1: apply
   it; 0: ignore it, why_buf says why (which line, what). */
int altmem__profile_parse(const char *text, size_t len, const struct altmem__cpu *cpu,
                          struct altmem__tunables *out, char *why_buf, size_t why_len);

struct altmem__profile_state {
    const char *path;                     /* the file looked for, or NULL (none) */
    int status;                           /* enum altmem_profile_status          */
    char why[256];                        /* ignored: why; applied: ""           */
    const char *text;                     /* its text (applied or ignored)       */
    size_t len;
    int pin[ALTMEM_ROUTINE_COUNT];        /* 1: this routine's pin came from it  */
    unsigned policy;                      /* ALTMEM_POLICY_* it set              */
};

struct altmem__state {
    struct altmem__cpu cpu;
    struct altmem__tunables tun;
    uint64_t active;
    int secure;
    struct altmem__bound bound[ALTMEM_ROUTINE_COUNT];
    char patch_note[120];                 /* why sites were not patched, or ""  */
    struct altmem__policy policy;         /* the rules' choice, then ALTMEM_TUNABLES */
    struct altmem__policy rules_policy;   /* the rules' choice alone            */
    struct altmem__profile_state prof;
};

/* The whole decision, with no side effects: from detected CPU, the raw
   ALTMEM_TUNABLES value (may be NULL) and the AT_SECURE flag to bindings.  The
   library calls it at init; the tests call it with made-up inputs. */
void altmem__decide(const struct altmem__cpu *cpu, const char *tunables, int secure,
                    struct altmem__state *out, altmem__warn_fn *warn, void *ctx);
/* The same with a profile's text (NULL: none) read from path: applied under
   ALTMEM_TUNABLES, which overrides it setting by setting; ignored (one warning)
   unless it was measured on this CPU and every line is valid. */
void altmem__decide_profile(const struct altmem__cpu *cpu, const char *tunables, const char *profile,
                            size_t profile_len, const char *path, int secure, struct altmem__state *out,
                            altmem__warn_fn *warn, void *ctx);

/* Size from which the SIMD variants use non-temporal stores, derived from the
   cache sizes when ALTMEM_TUNABLES does not set nt_threshold (src/decide.c). */
size_t altmem__nt_default(const struct altmem__cpu *cpu);

/* Installs a decision: points every routine's entry at its variant. */
void altmem__bind(const struct altmem__state *st);

/* The state altmem_init() decided (valid after it returns). */
extern struct altmem__state altmem__global;
/* 1 once selection has run (or is running): too late for the freestanding
   entry's vectors (src/init_freestanding.c). */
int altmem__selection_started(void);

/* ---- Freestanding string helpers (no libc) ------------------------------ */

static inline size_t altmem__strlen(const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}

/* Case-insensitive comparison of s[0..len) with the NUL-terminated lit. */
static inline int altmem__eq_nocase(const char *s, size_t len, const char *lit)
{
    size_t i = 0;
    for (; i < len && lit[i]; i++) {
        char a = s[i], b = lit[i];
        if (a >= 'A' && a <= 'Z')
            a = (char)(a - 'A' + 'a');
        if (b >= 'A' && b <= 'Z')
            b = (char)(b - 'A' + 'a');
        if (a != b)
            return 0;
    }
    return i == len && lit[i] == '\0';
}

/* Bounded text builder for diagnostics: never overflows, always NUL-terminated. */
struct altmem__text {
    char *buf;
    size_t cap, len;
};

static inline void altmem__text_putn(struct altmem__text *t, const char *s, size_t n)
{
    for (size_t i = 0; i < n && t->len + 1 < t->cap; i++)
        t->buf[t->len++] = s[i];
    if (t->cap)
        t->buf[t->len] = '\0';
}

static inline void altmem__text_puts(struct altmem__text *t, const char *s)
{
    altmem__text_putn(t, s, altmem__strlen(s));
}

static inline void altmem__text_putu(struct altmem__text *t, unsigned long long v)
{
    char d[24];
    size_t n = 0;
    do {
        d[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        altmem__text_putn(t, &d[--n], 1);
}

/* Appends the names of the bits in mask, separated by sep ("none" if empty). */
void altmem__text_features(struct altmem__text *t, uint64_t mask, const char *sep);
/* s[0..n) quoted, at most 40 characters, unprintable bytes as '?' (src/tunables.c). */
void altmem__text_quoted(struct altmem__text *t, const char *s, size_t n);

#endif
