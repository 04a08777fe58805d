/*
 * The policy (src/policy.c): *when* the variants switch strategy, set once at
 * start-up by the per-CPU rules and ALTMEM_TUNABLES (docs/tunables.md).  The
 * variants read the variables (the x86_64 ones above their small size classes;
 * the aarch64 and riscv64 memsets the zeroing block); the decision
 * (src/decide.c) runs the rules, and binding (src/select.c) installs the result.
 * Depends on no other header of the library: the variants include it alone.
 */
#ifndef ALTMEM_POLICY_H
#define ALTMEM_POLICY_H

#include <stddef.h>
#include <stdint.h>

/* ---- The variables the variants read ------------------------------------ */

/* Index 0, 1, 2: the 16-, 32- and 64-byte variants.  (size_t)-1 = never.

   One structure, laid out by who reads what: a path above the small classes
   reads one or two of its 64-byte lines (as separate variables, placed by the
   compiler, the 64-byte memcpy's path read four).  A line a call touches beside
   its data evicts one of them when the data fill the L1d: at 24 KiB, source and
   destination page-aligned fill all 12 ways of every set of Intel 6/207's
   48 KiB L1d, and the copies there were 0.92-0.99x glibc 2.41 reading three or
   four lines, 0.96-1.01x reading one or two (docs/perf/intel-family6-model207.md,
   "The policy's variables in one line a path").  Each keeps its name: a macro
   for its member. */
struct altmem__policy_vars {
    /* ---- line 1: the 64-byte copies from their loop limit, and every width's rep movsb */
    /* The 64-byte copies' loops run below this: their rep movsb starts,
       streaming and the hand-over to the 32-byte variant (split_loads), one
       compare before the loops. */
    size_t copy_loop_below_512;
    /* The 64-byte copies (memcpy, memmove) hand a copy of more than this many bytes,
       below the non-temporal threshold, whose source and destination differ mod 64
       (so that every 64-byte load of their loop would cross a line) to the 32-byte
       variant of the same routine.  (size_t)-1 = never. */
    size_t copy_split_loads_above;
    /* memcpy, memmove, copy_user: non-temporal stores from this size (when source
       and destination do not overlap; equally aligned mod 64, from
       nt_threshold_coaligned, line 5, where a rule starts them later). */
    size_t nt_threshold;
    /* Each width's copies (memcpy, memmove, copy_user) use rep movsb, and its sets
       (memset, clear_user) rep stosb (line 3), from this size up to the
       non-temporal threshold. */
    size_t rep_movsb_start_coaligned;   /* 64 B, (dst ^ src) % 64 == 0 */
    size_t rep_movsb_start[3];
    /* No rep movsb where (dst - src) mod 4096 is in 1..this (0: anywhere). */
    size_t movsb_short_distance;

    /* ---- line 2: the 16- and 32-byte copies from their loop limit */
    /* The 16- and 32-byte copies' inline loops run below this: their rep movsb
       start or streaming start, whichever is lower (x86_vec_set.h). */
    size_t copy_loop_below[2];
    /* ... the 32-byte copies' with src and dst equally aligned mod 32, where the
       32-byte start below apart ones is lower (else the same as [1]). */
    size_t copy_loop_below_32_coaligned;
    /* The 16- and 32-byte copies' large() (entered from their loop limit): rep
       movsb with no other test below this, where no short distance is avoided and
       no 16-byte stop applies (the lesser of streaming and those stops; 0: never). */
    size_t rep_movsb_direct_below[2];
    size_t rep_movsb_start_32_apart;    /* 32 B, (dst ^ src) % 32 != 0 */
    /* ... the 16-byte copies' (memcpy, memmove) streaming start: nt_threshold,
       or never where a rule says their streaming loop loses. */
    size_t nt_threshold_16;
    /* ... the lowest of the 16-byte copies' rep movsb stops (line 4): below it,
       none to tell apart (one compare). */
    size_t rep_movsb_stop_16_min;

    /* ---- line 3: the sets */
    /* ... and below the lesser of rep stosb's start and memset's non-temporal
       threshold, its vector loop: one compare where the 32-byte memsets enter
       it inline. */
    size_t memset_loop_below[3];
    size_t rep_stosb_start[3];
    /* memset, clear_user: non-temporal stores from this size. */
    size_t memset_nt_threshold;
    /* ... and the 16-byte memset's rep stosb, from its loop limit, below this: the
       lesser of memset's streaming start and one past its rep stosb stop, where it
       loops again (amd-zen4): one compare on the way to rep stosb. */
    size_t rep_stosb_direct_below_16;

    /* ---- line 4: what only forward overlaps, the 16-byte stops and streaming read */
    /* The 16-byte copies' rep movsb stops (x86_vec_copy.h, movsb_stop): a
       forward overlap, source and destination apart, a source 64 B-4 KiB ahead. */
    size_t rep_movsb_stop_16;
    size_t rep_movsb_stop_16_apart;
    size_t rep_movsb_stop_16_near;
    /* memmove with a forward overlap (src ahead of dst by less than n) streams
       from here, never below nt_threshold. */
    size_t nt_threshold_fwd_overlap;
    /* ... and takes rep movsb only from here, per width (0: from the width's
       start; where a rule sets it, rep_movsb_direct_below is 0: large() tests it). */
    size_t rep_movsb_start_fwd_overlap[3];
    /* memcpy / memmove's streaming loop takes four 4 KiB pages at a time (1), or
       goes straight through (0). */
    size_t copy_nt_four_pages;

    /* ---- line 5: what only streaming-sized copies and the 64-byte memset's lines read */
    /* ... the 32- and 64-byte copies with (dst - src) % 64 == 0 stream only from
       here (not below nt_threshold; amd-zen5: never, where rep movsb keeps them
       faster than streaming while the misaligned ones lose to it). */
    size_t nt_threshold_coaligned;
    /* The 64-byte memset stores (256, 512] at a dst not 64-aligned as aligned
       lines between unaligned ends, and ends its loop on a line (63: the mask
       that tells such a dst, one test in the entry's room), or as overlapping
       unaligned vectors from each end (0: amd-zen5, where the lines lost). */
    size_t memset_lines_mask;
    /* The 64-byte copies (memcpy, memmove, copy_user) hand a forward streaming
       copy whose source and destination differ mod 64 to the 32-byte variant
       of the same routine (1: amd-zen5, where its loop streamed faster), or
       stream it themselves (0). */
    size_t copy_split_loads_streaming;
} __attribute__((aligned(64)));
extern struct altmem__policy_vars altmem__policy_vars __attribute__((visibility("hidden")));

#define altmem__copy_loop_below_512 (altmem__policy_vars.copy_loop_below_512)
#define altmem__copy_split_loads_above (altmem__policy_vars.copy_split_loads_above)
#define altmem__nt_threshold (altmem__policy_vars.nt_threshold)
#define altmem__rep_movsb_start_coaligned (altmem__policy_vars.rep_movsb_start_coaligned)
#define altmem__rep_movsb_start (altmem__policy_vars.rep_movsb_start)
#define altmem__movsb_short_distance (altmem__policy_vars.movsb_short_distance)
#define altmem__copy_loop_below (altmem__policy_vars.copy_loop_below)
#define altmem__copy_loop_below_32_coaligned (altmem__policy_vars.copy_loop_below_32_coaligned)
#define altmem__rep_movsb_direct_below (altmem__policy_vars.rep_movsb_direct_below)
#define altmem__rep_movsb_start_32_apart (altmem__policy_vars.rep_movsb_start_32_apart)
#define altmem__nt_threshold_16 (altmem__policy_vars.nt_threshold_16)
#define altmem__rep_movsb_stop_16_min (altmem__policy_vars.rep_movsb_stop_16_min)
#define altmem__memset_loop_below (altmem__policy_vars.memset_loop_below)
#define altmem__rep_stosb_start (altmem__policy_vars.rep_stosb_start)
#define altmem__memset_nt_threshold (altmem__policy_vars.memset_nt_threshold)
#define altmem__rep_stosb_direct_below_16 (altmem__policy_vars.rep_stosb_direct_below_16)
#define altmem__rep_movsb_stop_16 (altmem__policy_vars.rep_movsb_stop_16)
#define altmem__rep_movsb_stop_16_apart (altmem__policy_vars.rep_movsb_stop_16_apart)
#define altmem__rep_movsb_stop_16_near (altmem__policy_vars.rep_movsb_stop_16_near)
#define altmem__nt_threshold_fwd_overlap (altmem__policy_vars.nt_threshold_fwd_overlap)
#define altmem__rep_movsb_start_fwd_overlap (altmem__policy_vars.rep_movsb_start_fwd_overlap)
#define altmem__copy_nt_four_pages (altmem__policy_vars.copy_nt_four_pages)
#define altmem__nt_threshold_coaligned (altmem__policy_vars.nt_threshold_coaligned)
#define altmem__memset_lines_mask (altmem__policy_vars.memset_lines_mask)
#define altmem__copy_split_loads_streaming (altmem__policy_vars.copy_split_loads_streaming)

/* Each line's members within it (the paths above read their line only). */
#define ALTMEM__POLICY_LINE(member) (__builtin_offsetof(struct altmem__policy_vars, member) / 64)
_Static_assert(ALTMEM__POLICY_LINE(movsb_short_distance) == 0, "line 1 is one line");
_Static_assert(ALTMEM__POLICY_LINE(copy_loop_below) == 1 && ALTMEM__POLICY_LINE(rep_movsb_stop_16_min) == 1,
               "line 2 is one line");
_Static_assert(ALTMEM__POLICY_LINE(memset_loop_below) == 2 && ALTMEM__POLICY_LINE(rep_stosb_direct_below_16) == 2,
               "line 3 is one line");
_Static_assert(ALTMEM__POLICY_LINE(rep_movsb_stop_16) == 3 && ALTMEM__POLICY_LINE(copy_nt_four_pages) == 3,
               "line 4 is one line");
_Static_assert(ALTMEM__POLICY_LINE(nt_threshold_coaligned) == 4 && ALTMEM__POLICY_LINE(memset_lines_mask) == 4 &&
                   ALTMEM__POLICY_LINE(copy_split_loads_streaming) == 4,
               "line 5 is one line");

/* aarch64 DC ZVA / riscv64 cbo.zero: the block size in bytes the CPU zeroes
   per instruction (a power of two), or 0: do not use it. */
extern size_t altmem__zero_block __attribute__((visibility("hidden")));

/* ---- The rules and their choice ------------------------------------------ */

struct altmem__cpu;                       /* cpu.h */

/* The values for the variables above, as one choice.  Widths index 0, 1, 2 =
   the 16-, 32- and 64-byte variants (sse2, avx2, avx512 and their copy_user /
   clear_user namesakes).  (size_t)-1 = never. */
struct altmem__policy {
    int allow512;                 /* 512-bit variants may be bound by default   */
    int no512_rule;               /* ... else the rule that said no, or -1      */
    size_t nt_copy;               /* memcpy, memmove, copy_user: streaming from  */
    size_t nt_set;                /* memset, clear_user: streaming from          */
    size_t movsb[3];              /* rep movsb from, per width                   */
    size_t movsb_coaligned;       /* ... 64-byte width, src, dst equally aligned */
    size_t movsb32_apart;         /* ... 32-byte width, src, dst apart mod 32: the lesser of this and movsb[1] */
    size_t stosb[3];              /* rep stosb from, per width                   */
    size_t stosb_stop16;          /* 16-byte memset: the loop again above this    */
    size_t movsb_stop16;          /* 16-byte copies, forward overlap: loop above  */
    size_t movsb_stop16_apart;    /* ... source and destination apart             */
    size_t movsb_stop16_near;     /* ... src 64 B-4 KiB ahead, a multiple of 64   */
    size_t short_distance;        /* no rep movsb at (dst - src) mod 4096 in 1..this */
    size_t split_loads_above;     /* 64-byte copies: the 32-byte loop above this, src/dst apart mod 64 */
    int halves64;                 /* the 64-byte variants' _halves builds (exactly 64 B as two halves) */
    int halves64_rule;            /* ... the rule that asked for them, or -1     */
    int avx2_copies_out;          /* memcpy, memmove: not the variants that return
                                     through vzeroupper (the evex ones instead) */
    int avx2_copies_out_rule;     /* ... the rule that asked, or -1              */
    int nt_copy16_never;          /* 16-byte memcpy, memmove: never stream (else nt_copy) */
    int nt_copy_linear;           /* the streaming copy goes straight through, not four pages at a time */
    int split_loads_streaming;    /* 64-byte copies, copy_user's too: the 32-byte variant streams them,
                                     src/dst apart mod 64 */
    size_t nt_fwd_overlap;        /* memmove, src ahead of dst inside its range: streaming from the
                                     larger of this and nt_copy (0: nt_copy) */
    size_t movsb_fwd_overlap[3];  /* ... rep movsb from the larger of this and the width's start (0: the width's) */
    size_t nt_coaligned;          /* 32-, 64-byte copies, (dst - src) % 64 == 0: streaming from the larger
                                     of this and nt_copy (0: nt_copy) */
    int memset_no_lines;          /* the 64-byte memset without its lines (altmem__memset_lines_mask 0) */
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
/* Sets the variables above (altmem__bind does, before binding any variant). */
void altmem__policy_install(const struct altmem__policy *p);
/* The same while the cache sizes are not yet read (the policy was decided
   without them): the streaming thresholds are held at most
   ALTMEM__SETTLE_FROM, so that every call from that size leaves its variant's
   common path, where ALTMEM_SETTLE reads the caches and installs the final
   policy.  No threshold the rules derive from a cache size is below it (glibc's
   smallest streaming threshold is 0x4040 bytes). */
void altmem__policy_install_early(const struct altmem__policy *p);
#define ALTMEM__SETTLE_FROM ((size_t)16 << 10)

/* ALTMEM__SETTLE_FROM until the final policy is installed, then (size_t)-1. */
extern size_t altmem__settle_from __attribute__((visibility("hidden")));
/* Reads the cache sizes and installs the final policy (src/select.c): 1 if this
   call did so, 0 if it was done already or is being done (by another thread,
   or by the code this call interrupted). */
int altmem__settle(void);
/* In a variant's streaming branch: while the policy is not final, the call
   (ALTMEM__SETTLE_FROM bytes or more) goes to settle_call, out of line, one of
   the five below, and returns what it returns. */
#define ALTMEM_SETTLE(n, settle_call)                                  \
    do {                                                               \
        if (__builtin_expect((n) >= altmem__settle_from, 0))           \
            return settle_call;                                        \
    } while (0)
/* Each settles the policy and makes the call again through the routine's
   pointer (the bound variant, deciding with the final thresholds), or, when
   altmem__settle() returns 0, through the generic variant, which reads no
   threshold (src/select.c). */
void *altmem__settle_memcpy(void *__restrict dst, const void *__restrict src, size_t n);
void *altmem__settle_memmove(void *dst, const void *src, size_t n);
void *altmem__settle_memset(void *dst, int c, size_t n);
size_t altmem__settle_copy_user(void *dst, const void *src, size_t n);
size_t altmem__settle_clear_user(void *dst, size_t n);

/* Size from which the SIMD variants use non-temporal stores, derived from the
   cache sizes, where glibc's own threshold for this CPU is not known (the
   rule "defaults"); ALTMEM_TUNABLES nt_threshold=BYTES overrides. */
size_t altmem__nt_default(const struct altmem__cpu *cpu);

#endif
