/*
 * Policy: *when* the variants switch strategy, as data set once at start-up.
 *
 * A variant is a vector width and its size-class code; the sizes at which it
 * turns to rep movsb / rep stosb, to non-temporal stores, whether it avoids
 * rep movsb at short (dst - src) distances, and whether 512-bit variants may
 * be bound at all are decided here, by one table of per-CPU rules.  Each rule
 * is a pure function of the CPU's identity (vendor, family, model, feature
 * bits, cache sizes) with its source: a published rule (glibc's
 * sysdeps/x86/cpu-features.c and dl-cacheinfo.h) or a measurement recorded in
 * docs/perf/ with its command.  Later rows override earlier ones.  The values
 * land in the variables below, which the x86_64 variants read above their
 * small size classes; ALTMEM_TUNABLES overrides each (src/tunables.c,
 * docs/tunables.md).  No libc: this runs in the library constructor and in
 * freestanding builds.
 */
#include "policy.h"
#include "altmem.h"
#include "cpu.h"
#include "lib/text.h"

#define K ((size_t)1 << 10)
#define M ((size_t)1 << 20)
#define NEVER ((size_t)-1)

/* ---- The variables the variants read ------------------------------------ */

/* Until altmem_init(): never (the generic variants are bound then anyway),
   and the rules' defaults for the rest, so a variant called early is right. */
struct altmem__policy_vars altmem__policy_vars = {
    .copy_loop_below_512 = 16 * K,
    .copy_split_loads_above = NEVER,
    .nt_threshold = NEVER,
    .rep_movsb_start_coaligned = 16 * K,
    .rep_movsb_start = {2 * K, 4 * K, 32 * K},
    .movsb_short_distance = 63,
    .copy_loop_below = {2 * K, 4 * K},
    .copy_loop_below_32_coaligned = 4 * K,
    .rep_movsb_direct_below = {0, 0},
    .rep_movsb_start_32_apart = 4 * K,
    .nt_threshold_16 = NEVER,
    .rep_movsb_stop_16_min = NEVER,
    .memset_loop_below = {2 * K, 4 * K, 4 * K},
    .rep_stosb_start = {2 * K, 4 * K, 4 * K},
    .memset_nt_threshold = NEVER,
    .rep_stosb_direct_below_16 = NEVER,
    .rep_movsb_stop_16 = NEVER,
    .rep_movsb_stop_16_apart = NEVER,
    .rep_movsb_stop_16_near = NEVER,
    .nt_threshold_fwd_overlap = NEVER,
    .rep_movsb_start_fwd_overlap = {0, 0, 0},
    .copy_nt_four_pages = 1,
    .nt_threshold_coaligned = NEVER,
    .memset_lines_mask = 63,
    .copy_split_loads_streaming = 0,
};
size_t altmem__zero_block = 0;

size_t altmem__settle_from = NEVER;

static size_t at_most(size_t v, size_t cap) { return v < cap ? v : cap; }
/* The first size past a last one (a stop, an upper bound); never stays never. */
static size_t one_past(size_t last) { return last == NEVER ? NEVER : last + 1; }

static void install(const struct altmem__policy *p, size_t cap)
{
    const size_t nt_set = at_most(p->nt_set, cap);
    const size_t nt = at_most(p->nt_copy, cap), nt16 = at_most(p->nt_copy16_never ? NEVER : p->nt_copy, cap);
    __atomic_store_n(&altmem__nt_threshold, nt, __ATOMIC_RELEASE);
    __atomic_store_n(&altmem__nt_threshold_16, nt16, __ATOMIC_RELEASE);
    __atomic_store_n(&altmem__nt_threshold_fwd_overlap, p->nt_fwd_overlap > nt ? at_most(p->nt_fwd_overlap, cap) : nt,
                     __ATOMIC_RELEASE);
    __atomic_store_n(&altmem__nt_threshold_coaligned, p->nt_coaligned > nt ? at_most(p->nt_coaligned, cap) : nt,
                     __ATOMIC_RELEASE);
    __atomic_store_n(&altmem__memset_lines_mask, p->memset_no_lines ? 0 : (size_t)63, __ATOMIC_RELEASE);
    /* the inline copy loops' one compare: below the width's rep movsb and streaming starts */
    __atomic_store_n(&altmem__copy_loop_below[0], at_most(p->movsb[0], nt16), __ATOMIC_RELEASE);
    const size_t movsb32_apart = at_most(p->movsb32_apart, p->movsb[1]);
    __atomic_store_n(&altmem__copy_loop_below[1], at_most(movsb32_apart, nt), __ATOMIC_RELEASE);
    __atomic_store_n(&altmem__copy_loop_below_32_coaligned, at_most(p->movsb[1], nt), __ATOMIC_RELEASE);
    __atomic_store_n(&altmem__rep_movsb_start_32_apart, movsb32_apart, __ATOMIC_RELEASE);
    __atomic_store_n(&altmem__copy_loop_below_512,
                     at_most(at_most(p->movsb[2], p->movsb_coaligned),
                             at_most(nt, one_past(p->split_loads_above))),
                     __ATOMIC_RELEASE);
    /* rep movsb at once from the loop limit (its start, or streaming) up to streaming and the 16-byte stops */
    const size_t stop16_min = at_most(p->movsb_stop16, at_most(p->movsb_stop16_apart, p->movsb_stop16_near));
    /* (none where forward overlaps start rep movsb later: large() tests that) */
    const int direct16 = !p->short_distance && !p->movsb_fwd_overlap[0];
    const int direct32 = !p->short_distance && !p->movsb_fwd_overlap[1];
    __atomic_store_n(&altmem__rep_movsb_direct_below[0], direct16 ? at_most(nt16, one_past(stop16_min)) : 0,
                     __ATOMIC_RELEASE);
    __atomic_store_n(&altmem__rep_movsb_direct_below[1], direct32 ? nt : 0, __ATOMIC_RELEASE);
    __atomic_store_n(&altmem__copy_nt_four_pages, (size_t)!p->nt_copy_linear, __ATOMIC_RELEASE);
    __atomic_store_n(&altmem__memset_nt_threshold, nt_set, __ATOMIC_RELEASE);
    for (int w = 0; w < 3; w++) {
        __atomic_store_n(&altmem__rep_movsb_start[w], p->movsb[w], __ATOMIC_RELEASE);
        __atomic_store_n(&altmem__rep_stosb_start[w], p->stosb[w], __ATOMIC_RELEASE);
        __atomic_store_n(&altmem__rep_movsb_start_fwd_overlap[w], p->movsb_fwd_overlap[w], __ATOMIC_RELEASE);
        __atomic_store_n(&altmem__memset_loop_below[w], at_most(p->stosb[w], nt_set), __ATOMIC_RELEASE);
    }
    __atomic_store_n(&altmem__rep_stosb_direct_below_16,
                     at_most(nt_set, one_past(p->stosb_stop16)), __ATOMIC_RELEASE);
    __atomic_store_n(&altmem__rep_movsb_stop_16, p->movsb_stop16, __ATOMIC_RELEASE);
    __atomic_store_n(&altmem__rep_movsb_stop_16_apart, p->movsb_stop16_apart, __ATOMIC_RELEASE);
    __atomic_store_n(&altmem__rep_movsb_stop_16_near, p->movsb_stop16_near, __ATOMIC_RELEASE);
    __atomic_store_n(&altmem__rep_movsb_stop_16_min, stop16_min, __ATOMIC_RELEASE);
    __atomic_store_n(&altmem__rep_movsb_start_coaligned, p->movsb_coaligned, __ATOMIC_RELEASE);
    __atomic_store_n(&altmem__movsb_short_distance, p->short_distance, __ATOMIC_RELEASE);
    __atomic_store_n(&altmem__copy_split_loads_above, p->split_loads_above, __ATOMIC_RELEASE);
    __atomic_store_n(&altmem__copy_split_loads_streaming, (size_t)p->split_loads_streaming, __ATOMIC_RELEASE);
    __atomic_store_n(&altmem__zero_block, p->zero_block, __ATOMIC_RELEASE);
    /* Last: a call that sees the final value sees the final thresholds. */
    __atomic_store_n(&altmem__settle_from, cap, __ATOMIC_RELEASE);
}

void altmem__policy_install(const struct altmem__policy *p) { install(p, NEVER); }
void altmem__policy_install_early(const struct altmem__policy *p) { install(p, ALTMEM__SETTLE_FROM); }

/* ---- The non-temporal threshold where glibc's is not known --------------- */

/*
 * Copies and sets of at least this many bytes bypass the caches (non-temporal
 * stores), where a variant has such a path: the destination would not stay
 * cached anyway, and the stores skip reading each line before writing it.
 * A quarter of the last-level cache (glibc 2.38's rule, after 2.36's 3/4 of a
 * per-thread share proved too small on large servers), but at most 16 times the
 * private L2: a virtual machine reports the host's whole LLC (480 MiB on the
 * machine in docs/performance.md), of which one guest gets a small, contended
 * part.  Unknown caches: 16 MiB.  ALTMEM_TUNABLES nt_threshold=BYTES overrides.
 */
size_t altmem__nt_default(const struct altmem__cpu *cpu)
{
    size_t llc = cpu->l3_bytes ? cpu->l3_bytes : cpu->l2_bytes;
    size_t t = llc / 4;
    if (cpu->l3_bytes && cpu->l2_bytes && t > 16 * cpu->l2_bytes)
        t = 16 * cpu->l2_bytes;
    return t ? t : (size_t)16 << 20;
}

/* ---- The rules ------------------------------------------------------------ */

static int is_amd(const struct altmem__cpu *c) { return c->vendor == ALTMEM__VENDOR_AMD; }

/* Every CPU: the values measured on the machine of docs/performance.md, and
   streaming where glibc 2.36 streams on this CPU (its formula, from the same
   CPUID values: src/arch/x86_64/decode.c), so that altmem streams no earlier and no
   later than the C library unless a later row, with a measurement, says so. */
static int m_always(const struct altmem__cpu *c) { (void)c; return 1; }
static void a_defaults(const struct altmem__cpu *c, struct altmem__policy *p)
{
    p->allow512 = 1;
    p->nt_copy = p->nt_set = c->glibc_nt ? c->glibc_nt : altmem__nt_default(c);
    p->movsb[0] = 2 * K;
    p->movsb[1] = 4 * K;
    p->movsb[2] = 32 * K;
    p->movsb_coaligned = 16 * K;
    p->movsb32_apart = NEVER;
    p->stosb[0] = 2 * K;
    p->stosb[1] = p->stosb[2] = 4 * K;
    p->stosb_stop16 = NEVER;
    p->movsb_stop16 = p->movsb_stop16_apart = p->movsb_stop16_near = NEVER;
    p->short_distance = 0;
    p->split_loads_above = NEVER;
    p->halves64 = 0;
    p->avx2_copies_out = 0;
    p->nt_copy16_never = 0;
    p->nt_copy_linear = 0;
    p->split_loads_streaming = 0;
    p->nt_fwd_overlap = 0;
    p->movsb_fwd_overlap[0] = p->movsb_fwd_overlap[1] = p->movsb_fwd_overlap[2] = 0;
    p->nt_coaligned = 0;
    p->memset_no_lines = 0;
}

/* Intel with AVX-512 but without AVX-VNNI (Skylake-SP .. Ice Lake-SP): the
   core clock drops while 512-bit loads and stores run, and for ~0.7 ms after
   the last one; glibc then prefers its 256-bit variants. */
static int m_intel_no_vnni(const struct altmem__cpu *c)
{
    return c->vendor == ALTMEM__VENDOR_INTEL && (c->features & ALTMEM_FEAT_SIMD512) &&
           !(c->idflags & ALTMEM__ID_AVX_VNNI);
}
static void a_no512(const struct altmem__cpu *c, struct altmem__policy *p)
{
    (void)c;
    p->allow512 = 0;
}

/* RTM usable, with AVX-512: a transaction (glibc's lock elision, or the
   program's own _xbegin) aborts at the avx2 copies' vzeroupper, every time
   (0 of 1000 commit with a 32-byte memcpy inside on Intel 6/167, 1000 with
   the evex, avx512 and sse2 variants: docs/perf/intel-family6-model167.md,
   "The evex copies").  Where a rule keeps 512-bit code out, the evex copies
   (the same code in registers 16-31) then bind; elsewhere avx512 does anyway. */
static int m_rtm(const struct altmem__cpu *c)
{
    return (c->idflags & ALTMEM__ID_RTM) && (c->features & ALTMEM_FEAT_SIMD512);
}
static void a_rtm(const struct altmem__cpu *c, struct altmem__policy *p)
{
    (void)c;
    p->avx2_copies_out = 1;
}

/* AMD Zen (family 0x17 and later). */
static int m_amd_zen(const struct altmem__cpu *c) { return is_amd(c) && c->family >= 0x17; }

/* AMD Zen: rep stosb never (glibc: "the vectorized loop is slightly better
   than ERMS" on Zen 3+), rep movsb never (glibc 2.40+, BZ 30994: slow at some
   alignments, and in many cases slower than the vector loop). */

/* AMD family 0x19 with AVX-512: Zen 4 (Zen 3, the same family, has none),
   measured on model 0x11 in a KVM guest (docs/perf/amd-family25-model17.md),
   against glibc 2.41, idle and with a memory load on the other CPU, two runs
   each: streaming copies from 3/4 of the L3 of CPUID 0x8000001D (glibc 2.41's
   threshold here, 24 MiB) beat the cached loop 1.10-1.68x at 24-128 MiB (glibc
   2.36's 240 MiB came from the legacy leaf's 320 MiB).  A memset measured the
   same way seemed to gain from streaming at 128 MiB, but call by call on one
   buffer each call inherits the cache its neighbour left; each setting alone
   in processes of its own (bench/alone.c), a streaming memset loses 0.46-0.92x
   up to 128 MiB idle (0.52-0.98x loaded), ties from 256 MiB idle (0.99-1.03x)
   and wins there loaded (1.02-1.10x): it streams from 8 times the L3.  (glibc
   2.41 never streams a memset on AMD: its non-temporal path sits behind the
   rep stosb threshold, SIZE_MAX there.)  Copies alone: streaming from 24 MiB
   0.98-1.03x at 16-32 MiB, 1.02-1.38x from 48 MiB, but only for the 32-byte
   loop: the 16-byte one (movntdq of 16 bytes) loses to its cached loop at
   every size, 0.75-0.90x at 24-256 MiB, so the 16-byte copies never stream
   (they run here only when pinned: ALTMEM_TUNABLES, hwcaps).  And the streaming
   copy goes straight through rather than four pages at a time (alone, in
   processes taking turns: 1.08-1.28x at 32-256 MiB, idle and loaded; the
   four-page loop was measured on Intel 6/167).  The 16-byte memset takes rep
   stosb from 2 KiB (its 16-byte stores run at half the speed: rep stosb
   1.4-1.98x its loop at 2 KiB-16 MiB, idle and loaded; glibc 2.36's sse2
   memset does the same, 2.41's does not), up to 3/4 of the L3: above, rep stosb
   lost to the 16-byte loop, 0.78-0.96x glibc 2.41's sse2 loop at 32-64 MiB, against
   1.06-1.08x at 24 MiB and 1.3-1.7x at 1-16 MiB (docs/perf/amd-family25-model17.md,
   "rep stosb in the 16-byte memset").  The 512-bit variants stay bound,
   measured against the 256-bit ones the same way (Zen 4 runs a 512-bit access as
   two halves): copies 0.986-0.992x, memset 1.028-1.029x the avx2 variants'
   speed over the grid (avx512 ahead 6-11% up to 128 B, behind 5-8% from 129 B:
   its loop's 64-byte loads cross a line at every misaligned source).  So above
   512 bytes, with source and destination apart mod 64, the 64-byte copies run
   the 32-byte variant: 0.84-0.97x avx2's there at 768 B-12 MiB, 1.0x aligned, in
   every run idle and loaded.  The 16-byte copies take rep movsb from 2 KiB:
   up to 8 KiB with source and destination apart, 32 KiB for a forward
   overlap, 12 MiB for a forward move whose source is 64 B to 4 KiB ahead by a
   multiple of 64.  Their 16-byte stores run at 59 GB/s, rep movsb at 92-111
   GB/s where source and destination share their lines (against glibc 2.41's
   sse2 loop, idle and loaded, nine runs: apart 1.24-1.69x at 2-4 KiB and
   0.99-1.77x at 6-8 KiB, but 0.89-1.18x at 12 KiB; forward overlaps 1.3-1.9x
   to 32 KiB; a move by 64 B-4 KiB 1.25-1.9x at 64 KiB-8 MiB; beyond: apart
   copies at 192-512 KiB 0.71-0.96x, moves by larger distances 0.62-0.91x, the
   move by 64 bytes 1.03-1.05x idle but 0.91x loaded at 16 MiB, 0.59x at
   32 MiB); never at (dst - src) mod 4096 in 1..63 (amd-zen-no-string: 3.5
   GB/s at 1..15 on this CPU too, 0.06x the loop). */
static int m_amd_zen4(const struct altmem__cpu *c)
{
    return is_amd(c) && c->family == 0x19 && (c->features & ALTMEM_FEAT_SIMD512);
}
static void a_amd_zen4(const struct altmem__cpu *c, struct altmem__policy *p)
{
    if (c->l3_bytes) {
        p->nt_copy = c->l3_bytes / 4 * 3;
        p->nt_set = 8 * c->l3_bytes;
        p->stosb_stop16 = c->l3_bytes / 4 * 3;
    }
    if (c->features & ALTMEM_FEAT_SIMD256)
        p->split_loads_above = 512;
    p->halves64 = 1;
    p->nt_copy16_never = 1;
    p->nt_copy_linear = 1;
    p->stosb[0] = 2 * K;
    p->movsb[0] = 2 * K;
    p->movsb_stop16 = 32 * K;
    p->movsb_stop16_apart = 8 * K;
    p->movsb_stop16_near = 12 * M;
}

/* AMD family 0x1A (Zen 5), measured on model 2 in a KVM guest
   (docs/perf/amd-family26-model2.md): rep movsb from 32 KiB beats the vector
   loop 1.8-2.5x at 32-256 KiB and 1.37x at 256 MiB, the loop wins below (also
   co-aligned); rep stosb loses to the loop 1.5x below 256 KiB and wins from
   1 MiB (1.09-1.36x); streaming copies never win up to 256 MiB (19.5 vs 29.4
   GB/s), a streaming memset only ties from twice the L3 size and loses
   below (3x at 24 MiB on the first guest; on the third, at the L3 size itself,
   32 MiB, rep stosb ran 46-82 GB/s against streaming's 40-41 idle and 36-51
   against 33-37 under --load, every width; 48-128 MiB within the runs' noise);
   rep movsb at (dst - src) mod 4096 in 1..63 runs at 105 GB/s against the
   loop's 70 at 64 KiB (no Zen 3 slowness), so no short-distance rule.  A
   forward overlap takes rep movsb from 64 KiB, not 32: with the source n/2 + 2
   ahead, rep movsb ran 110-124 GB/s at 32-48 KiB, where glibc 2.41's forward
   loop ran 172 at 32 KiB (0.64x) and 122 at 48 KiB (0.90x), and from 64 KiB the
   loop fell to 75 while rep movsb kept 107 (1.42x): two runs on a second guest
   of the same model (docs/perf/amd-family26-model2.md, "Forward overlaps").
   The narrower loops are slower and their starts earlier (measured per width
   on a third guest, idle and under --load, 2026-12-07): the 16-byte loop runs
   85-92 GB/s at 2-24 KiB, so its copies take rep movsb from 3 KiB (1.03-1.04x
   misaligned there, 1.4x aligned; 2.5 KiB misaligned 0.87-0.93x) and its
   memset rep stosb from 2 KiB (1.14-1.16x; 1.5 KiB 0.94x); forward overlaps
   from 8 KiB in the 16-byte variants (2.5-6 KiB 0.69-0.96x, 8 KiB 1.19-1.25x)
   and 40 KiB in the 32-byte ones (32 KiB 0.86x, 40 KiB 1.04-1.07x, 48 KiB
   1.08x); and the 64-byte start of 64 KiB held there (48 KiB 0.84-0.90x).
   The same guest: streaming pays where source and destination are apart mod
   64 and together fill the L3 (from half of it): with s+1/d+3 and d+63, rep
   movsb ran 0.84-0.88x glibc 2.41 idle and 0.61-0.69x loaded at 32-128 MiB
   (glibc streams from 3/4 of the L3), the 64-byte streaming loop 0.89-1.14x
   and 0.92-1.05x (1.09-1.18x and 1.41-1.50x at 16-24 MiB, 0.92-0.93x idle at
   12 MiB); equally aligned, rep movsb stays ahead (1.20-1.31x idle against
   streaming's 0.94-1.28x); a backward overlap streams (1.26-1.57x, rep movsb
   0.91-0.98x at 32-128 MiB), a forward one keeps rep movsb (1.18-1.58x against
   0.97-1.36x); and the 16-byte streaming loop lost to every other path of its
   width (0.78-0.88x).  The 64-byte memset's lines (measured on Intel 6/167)
   lost here: against the build before them, 320-512 B misaligned took
   1.22-1.29x the time, 576 B-1 KiB 1.06-1.08x; without them (the mask 0) the
   same build is within 1.1% of that one at 256 B-3 KiB.  The streaming loop
   four pages at a time ran the 64-byte copies at 0.89-1.17x glibc 2.41 (24-128
   MiB misaligned, idle), straight through 1.11-1.23x idle but 0.73-0.87x of
   four pages loaded at 24-32 MiB; the 32-byte loop straight through 1.19-1.33x
   idle and 0.89-1.18x of four pages loaded; with the 64-byte copies handing
   their streaming to it, 16-128 MiB misaligned 0.89-1.24 -> 1.19-1.38x idle,
   32-128 MiB 0.89-1.09 -> 1.12-1.31x loaded (copy_user_avx512 the same way:
   1.01-1.29x its speed idle, 0.99-1.41x loaded). */
static int m_amd_zen5(const struct altmem__cpu *c) { return is_amd(c) && c->family == 0x1a; }
static void a_amd_zen5(const struct altmem__cpu *c, struct altmem__policy *p)
{
    p->movsb[1] = p->movsb[2] = p->movsb_coaligned = p->movsb32_apart = 32 * K;
    p->movsb[0] = 3 * K;
    size_t l2 = c->l2_bytes ? c->l2_bytes : 1 * M;
    p->stosb[1] = p->stosb[2] = l2;
    p->stosb[0] = 2 * K;
    /* streaming from half the L3 (source and destination fill it) where they are
       apart mod 64, never equally aligned, never a forward overlap, never the 16-byte copies */
    p->nt_copy = c->l3_bytes ? c->l3_bytes / 2 : 16 * M;
    p->nt_coaligned = NEVER;
    p->nt_fwd_overlap = NEVER;
    p->nt_copy16_never = 1;
    /* straight through, not four pages at a time, and in the 64-byte copies with
       the 32-byte variant's loop (measured: above this function's comment) */
    p->nt_copy_linear = 1;
    p->split_loads_streaming = 1;
    p->nt_set = c->l3_bytes ? 2 * c->l3_bytes : 64 * M;
    p->memset_no_lines = 1;
    p->short_distance = 0;
    p->movsb_fwd_overlap[0] = 8 * K;
    p->movsb_fwd_overlap[1] = 40 * K;
    p->movsb_fwd_overlap[2] = 64 * K;
}

/* Intel family 6 model 207 (Emerald Rapids) in a KVM guest, measured there
   (docs/perf/intel-family6-model207.md): streaming copies beat glibc's cached
   rep movsb 1.2-2.4x from 2 MiB (it streams only from 99 MiB), streaming memset
   wins 1.05-1.5x from 4-8 MiB and loses below (0.56-0.84x at 2-3 MiB): the guest
   reports the host's 260 MiB L3 but keeps far less of it.  Guests only: on bare
   metal the L3 is there. */
static int m_intel_emr_kvm(const struct altmem__cpu *c)
{
    return c->vendor == ALTMEM__VENDOR_INTEL && c->family == 6 && c->model == 207 &&
           (c->idflags & ALTMEM__ID_HYPERVISOR);
}
static void a_intel_emr_kvm(const struct altmem__cpu *c, struct altmem__policy *p)
{
    (void)c;
    p->nt_copy = 4 * M;
    /* memset streams from 40 MiB, not 8: on a second host (L3 reported 300 MiB)
       streaming lost to the cached rep stosb at 8-32 MiB in four grid runs,
       idle and under --load, against glibc 2.36 and 2.41 (0.54-0.87x), and won
       from 40-48 MiB (1.06-1.66x; memset-nt-48.txt).  The first host's
       1.05-1.5x at 8-32 MiB is lost there; the cached loop is glibc's own. */
    p->nt_set = 40 * M;
    /* 64-byte copies: the 256-byte loop beats glibc's rep movsb up to 16 KiB
       (1.1-1.2x misaligned), loses at 24 KiB with dst + 63 (0.56-0.67x); rep
       movsb from 20 KiB: 0.93-1.06x at 20-32 KiB (movsb-20K-avx512.txt). */
    p->movsb[2] = 20 * K;
    /* A forward overlap (src ahead of dst by n/2 + 2) streams from 16 MiB:
       against glibc 2.41's rep movsb, streaming ran 0.72-0.94x at 4-12 MiB idle
       (0.81-0.90x at 4 MiB loaded), 0.95-1.02x at 16 MiB idle and 1.02-1.07x
       loaded, 1.03-1.14x from 24 MiB; rep movsb is 1.00x below
       (docs/perf/intel-family6-model207.md, "Forward overlaps"). */
    p->nt_fwd_overlap = 16 * M;
}

/* Intel with FSRM (Ice Lake and later): the 32-byte copies with src and dst
   apart mod 32 (every other load of their loop crosses a line) take rep movsb
   from 2.5 KiB, not 4.  On Intel 6/207 at 2.5-3.5 KiB s+1/d+3 and d+63 the
   loop ran 0.85-0.93x glibc 2.41's avx2 and evex variants (rep movsb from
   2112 B, glibc's start on every FSRM CPU), rep movsb 0.93-1.0x; from 2112 B
   it lost at 2112-2304 B (0.92-0.95x against the loop's 0.97-1.01x); equally
   aligned, the loop stays to 4 KiB (1.1-1.3x glibc's rep movsb at 2.5-3.5 KiB)
   (docs/perf/intel-family6-model207.md, "rep movsb with one compare").  On
   Intel 6/167 the same: docs/perf/intel-family6-model167.md, "rep movsb from
   2.5 KiB in the 32-byte copies apart". */
static int m_intel_fsrm(const struct altmem__cpu *c)
{
    return c->vendor == ALTMEM__VENDOR_INTEL && (c->features & ALTMEM_FEAT_FSRM);
}
static void a_intel_fsrm(const struct altmem__cpu *c, struct altmem__policy *p)
{
    (void)c;
    p->movsb32_apart = 2560;
}

/* No ERMS (CPUID.(EAX=7,ECX=0):EBX bit 9), or hwcaps=-ERMS: rep movsb and
   rep stosb are not the fast microcoded strings there; glibc selects its
   rep movsb / rep stosb variants only with ERMS.  Last, so that it overrides
   every earlier row. */
/* Zen: no string instructions by default; should a tunable turn rep movsb back
   on, not at (dst - src) mod 4096 in 1..63, where it falls to 1.5-2.7 GB/s on
   Zen 3 (21-42 GB/s at other distances; glibc BZ 30994). */
static void a_amd_zen_strings(const struct altmem__cpu *c, struct altmem__policy *p)
{
    p->stosb[0] = p->stosb[1] = p->stosb[2] = NEVER;
    p->movsb[0] = p->movsb[1] = p->movsb[2] = p->movsb_coaligned = p->movsb32_apart = NEVER;
    (void)c;
    p->short_distance = 63;
}

static int m_no_erms(const struct altmem__cpu *c) { return !(c->features & ALTMEM_FEAT_ERMS); }
static void a_no_string(const struct altmem__cpu *c, struct altmem__policy *p)
{
    (void)c;
    p->stosb[0] = p->stosb[1] = p->stosb[2] = NEVER;
    p->movsb[0] = p->movsb[1] = p->movsb[2] = p->movsb_coaligned = p->movsb32_apart = NEVER;
}

const struct altmem__policy_rule altmem__policy_rules[] = {
    {"defaults", "every CPU", "rep movsb from 2/4/32 KiB (16/32/64-byte variants; 16 KiB co-aligned), rep stosb from 2/4/4 KiB, "
     "non-temporal from glibc 2.36's threshold on this CPU (x86; elsewhere LLC/4, at most 16 x L2), rep movsb at any "
     "(dst - src) distance",
     "measured on Intel family 6 model 167 (docs/performance.md); the threshold: glibc 2.36 sysdeps/x86/dl-cacheinfo.h, "
     "computed from the same CPUID values (checked against ld.so --list-diagnostics by the test glibc_nt); the "
     "distances: glibc 2.36 avoids rep movsb only for src = dst + [0, 63], which altmem never sends to it; avoiding "
     "(dst - src) mod 4096 in 1..63 too cost 0.45-0.6x at 2-32 KiB on Intel 6/207 (docs/perf/intel-family6-model207.md)",
     m_always, a_defaults},
    {"intel-avx512-no-vnni", "Intel with AVX-512 but without AVX-VNNI: 512-bit vectors lower the clock",
     "no 512-bit variant bound by default: the evex variants (32-byte vectors in registers 16-31, no vzeroupper; "
     "memset's with AVX-512's masked stores)",
     "glibc sysdeps/x86/cpu-features.c (Prefer_No_AVX512); ifunc-memmove.h and ifunc-memset.h bind "
     "__memmove_evex_unaligned_erms and __memset_evex_unaligned_erms there (vzeroupper aborts RTM: BZ 27457)",
     m_intel_no_vnni, a_no512},
    {"intel-rtm", "RTM that can commit (CPUID.(7,0):EBX[11], not EDX[11] RTM_ALWAYS_ABORT) and AVX-512",
     "memcpy and memmove: not the avx2 variants, whose vzeroupper aborts a transaction; the evex ones (the same code in "
     "registers 16-31) where 512-bit code is ruled out",
     "glibc BZ 27457 (vzeroupper aborts RTM; its _rtm and evex variants since 2.33); measured, Intel family 6 model 167: "
     "docs/perf/intel-family6-model167.md, \"The evex copies\"",
     m_rtm, a_rtm},
    {"amd-zen-no-string", "AMD family 0x17 and later (Zen): rep movsb/stosb slower than the vector loop",
     "no rep movsb, no rep stosb; if a tunable turns rep movsb on, not at (dst - src) mod 4096 in 1..63",
     "glibc sysdeps/x86/dl-cacheinfo.h (BZ 30994; rep_stosb_threshold SIZE_MAX on AMD); the distances: BZ 30994, "
     "rep movsb at 1.5-2.7 GB/s there on Zen 3",
     m_amd_zen, a_amd_zen_strings},
    {"amd-zen4", "AMD family 0x19 with AVX-512 (Zen 4)",
     "streaming copies from 3/4 of the L3 where it is known (glibc 2.41's threshold; never in the 16-byte copies), straight through, not four pages at a time; streaming memset from 8 times the L3 (known), rep stosb from 2 KiB to 3/4 of the L3 (known) in the 16-byte memset; "
     "above 512 B, src and dst apart mod 64, the 64-byte copies run the 32-byte variant; the 64-byte variants' "
     "_halves builds (exactly 64 B as two 32-byte halves, not 64 + 64); rep movsb from 2 KiB in the "
     "16-byte copies, up to 8 KiB apart, 32 KiB for forward overlaps, 12 MiB for forward moves with src 64 B-4 KiB "
     "ahead, a multiple of 64",
     "measured, AMD family 25 model 17 (KVM), idle and under --load: docs/perf/amd-family25-model17.md",
     m_amd_zen4, a_amd_zen4},
    {"amd-zen5", "AMD family 0x1A (Zen 5)",
     "rep movsb from 3 / 32 / 32 KiB (16 / 32 / 64-byte variants) at any distance, a forward overlap from "
     "8 / 40 / 64 KiB; rep stosb from 2 KiB / the L2 size / the L2 size; streaming copies from half the L3 "
     "where src and dst are apart mod 64 (not equally aligned ones, forward overlaps or the 16-byte copies), "
     "straight through, not four pages at a time, the 64-byte copies' forward ones by the 32-byte variant; "
     "streaming memset from twice the L3 size; the 64-byte memset without its lines",
     "measured, AMD family 26 model 2 (KVM): docs/perf/amd-family26-model2.md", m_amd_zen5, a_amd_zen5},
    {"intel-emr-kvm", "Intel family 6 model 207 (Emerald Rapids) in a VM: the guest keeps little of the L3 it reports",
     "streaming copies from 4 MiB (a forward overlap from 16 MiB), streaming memset from 40 MiB, rep movsb from "
     "20 KiB in the 64-byte copies",
     "measured, Intel family 6 model 207 (KVM): docs/perf/intel-family6-model207.md", m_intel_emr_kvm,
     a_intel_emr_kvm},
    {"intel-fsrm", "Intel with FSRM (fast short rep movsb: Ice Lake and later)",
     "rep movsb from 2.5 KiB (not 4) in the 32-byte copies whose src and dst differ mod 32",
     "measured, Intel family 6 models 207 and 167 (KVM): docs/perf/intel-family6-model207.md, "
     "docs/perf/intel-family6-model167.md; glibc sysdeps/x86/dl-cacheinfo.h (rep_movsb_threshold 2112 with FSRM)",
     m_intel_fsrm, a_intel_fsrm},
    {"no-erms", "CPUs without ERMS (or hwcaps=-ERMS): rep movsb/stosb are not the fast strings there",
     "no rep movsb, no rep stosb",
     "Intel SDM vol. 1 and Optimization Reference Manual (ERMSB, CPUID.7.0:EBX[9]); glibc ifunc-memmove.h / "
     "ifunc-memset.h (the _erms variants only with ERMS)",
     m_no_erms, a_no_string},
};
const size_t altmem__policy_rule_count = sizeof altmem__policy_rules / sizeof altmem__policy_rules[0];

void altmem__policy_for(const struct altmem__cpu *cpu, struct altmem__policy *out)
{
    out->rules = 0;
    out->no512_rule = -1;
    out->halves64_rule = -1;
    out->avx2_copies_out_rule = -1;
    /* Not a rule: the block size the CPU reports for whole-block zeroing. */
    out->zero_block = cpu->zero_block;
    /* On riscv64 the block is Zicboz's: hwcaps=-ZICBOZ (the features the rules
       see are the ones selection uses) turns cbo.zero off in every variant. */
    if (cpu->arch && altmem__eq_nocase(cpu->arch, altmem__strlen(cpu->arch), "riscv64") &&
        !(cpu->features & ALTMEM_FEAT_ZICBOZ))
        out->zero_block = 0;
    for (size_t i = 0; i < altmem__policy_rule_count; i++) {
        if (altmem__policy_rules[i].match(cpu)) {
            int was = i ? out->allow512 : 1, was_halves = i ? out->halves64 : 0,
                was_out = i ? out->avx2_copies_out : 0;
            altmem__policy_rules[i].apply(cpu, out);
            out->rules |= (uint32_t)1 << i;
            if (was && !out->allow512)
                out->no512_rule = (int)i;
            if (!was_halves && out->halves64)
                out->halves64_rule = (int)i;
            if (!was_out && out->avx2_copies_out)
                out->avx2_copies_out_rule = (int)i;
        }
    }
}
