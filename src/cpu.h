/*
 * The CPU description detection fills (src/arch/<arch>/cpu.c, or
 * src/cpu/cpu_unknown.c) and the architectures' pure decoders annotate
 * (src/arch/<arch>/decode.c, src/cpu/notes.c); the policy rules, the profile
 * and the decision read it.
 */
#ifndef ALTMEM_CPU_H
#define ALTMEM_CPU_H

#include <stddef.h>
#include <stdint.h>

/* x86_64 identity, for the per-CPU rules (src/policy.c); zero elsewhere. */
enum altmem__vendor { ALTMEM__VENDOR_UNKNOWN, ALTMEM__VENDOR_INTEL, ALTMEM__VENDOR_AMD, ALTMEM__VENDOR_OTHER };
#define ALTMEM__ID_AVX_VNNI   (1u << 0) /* CPUID.(7,1):EAX[4], the VEX-encoded AVX-VNNI (read on Intel with AVX-512 only) */
#define ALTMEM__ID_HYPERVISOR (1u << 1) /* CPUID.1:ECX[31]                               */
#define ALTMEM__ID_RTM        (1u << 2) /* CPUID.(7,0):EBX[11] RTM, not EDX[11] RTM_ALWAYS_ABORT */

struct altmem__cpu {
    const char *arch;
    uint64_t features;                    /* ALTMEM_FEAT_* bits (altmem.h)      */
    size_t l1d_bytes, l2_bytes, l3_bytes;
    int vendor;                           /* enum altmem__vendor                */
    unsigned family, model, stepping;     /* x86 display family / model          */
    uint32_t idflags;                     /* ALTMEM__ID_*                        */
    uint32_t vector_bytes;                /* SVE VL / RVV VLENB / widest SIMD; 0 unknown */
    uint32_t zero_block;                  /* DC ZVA / cbo.zero block size; 0 = none */
    size_t glibc_nt;                      /* x86: glibc 2.36's non-temporal threshold here; 0 elsewhere */
    size_t glibc_movsb_stop;              /* x86: ... and where its rep movsb stops (AMD: the L2) */
    int caches_late;                      /* the cache half of detection not yet run */
    uint32_t arch_raw[4];                 /* what the first half keeps for the second */
    char notes[256];
};

/* Detection in two halves, implemented once per architecture (the
   unknown-architecture one reports nothing): the identity and features, which
   selection needs at start-up, then the cache sizes, which only the thresholds
   of large calls need.  x86_64 runs the second half late, at the first call
   that could use them (src/select.c, altmem__settle): in a virtual machine its
   CPUID instructions exit to the hypervisor (docs/dropin.md, "Start-up cost").
   detect_id sets caches_late where a second half remains; detect_caches clears it. */
void altmem__cpu_detect_id(struct altmem__cpu *out);
void altmem__cpu_detect_caches(struct altmem__cpu *out);

/* Both halves. */
static inline void altmem__cpu_detect(struct altmem__cpu *out)
{
    altmem__cpu_detect_id(out);
    altmem__cpu_detect_caches(out);
}

/* The architectures' pure decoders, compiled on every host so that the tests
   run them anywhere (src/arch/<arch>/decode.h), write their notes with these
   (src/cpu/notes.c): cpu_note starts a new item ("; " before it unless notes
   is empty): a, then v and b when b is not NULL; cpu_note_more appends a with
   no separator. */
void altmem__cpu_note(char *notes, size_t len, const char *a, unsigned long long v, const char *b);
void altmem__cpu_note_more(char *notes, size_t len, const char *a);

#endif
