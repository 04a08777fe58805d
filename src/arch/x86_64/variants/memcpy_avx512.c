/*
 * memcpy_avx512 — 64-byte AVX-512 vectors (features UAL, SIMD512).
 *
 * Assumptions:
 *   - AVX-512 F, BW and VL, with the OS saving the ZMM and opmask state
 *     (SIMD512); F and VL instructions only (no byte masks: a masked access
 *     that crosses into the next page takes a microcode assist, mapped or not;
 *     docs/perf/variant-figures.md).  Built with -mavx512f -mavx512vl -mavx512bw, this file only; GCC also
 *     keeps it to xmm/ymm/zmm16-31, so it returns without vzeroupper.
 *   - Unaligned loads and stores are single, fast instructions (UAL).
 *   - The building blocks (x86_vec.h) load every byte of a size class up to
 *     512 before storing any, and the loops store 64-aligned (one line each).
 *   - Above 512 bytes, below the rep movsb and streaming sizes, with the
 *     regions apart and (dst - src) mod 4096 below 256, the loop runs backward
 *     (x86_vec.h, alias_4k_ahead); the common forward case is tested first,
 *     every test on the fall-through path.
 *   - Above the policy's split size (512 B on Zen 4, else never), below
 *     streaming, with src and dst apart mod 64, memcpy_avx2 takes the copy:
 *     there every 64-byte load would cross a line (src/policy.c, amd-zen4);
 *     from streaming, where the policy says so (Zen 5), likewise.
 *   - rep movsb from the policy's 64-byte start up to the non-temporal
 *     threshold (its co-aligned start when (dst ^ src) % 64 == 0),
 *     not where (dst - src) mod 4096 is in 1..the policy's short distance
 *     (src/policy.c: the per-CPU rules, ALTMEM_TUNABLES; never on a CPU
 *     without ERMS).
 */
#define VEC_BITS 512
#include "x86_vec.h"

/* The sizes that loop: kept out of line, so that the small classes above need
   no registers saved or copied on entry. */
static __attribute__((noinline)) void *large(void *__restrict dst, const void *__restrict src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    /* Below every other path's start, one compare to the loops (the grid's
       4 KiB alias took 4 taken jumps more than glibc's path to the same loop:
       768 B 0/0 0.69x glibc 2.41 on Intel 6/207). */
    if (likely(n < altmem__copy_loop_below_512)) {
        if (unlikely(alias_4k_ahead(d, s)))
            return vcopy_bwd(d, s, n);  /* dst just above src mod 4 KiB: backward */
        return vcopy_fwd(d, s, n);      /* 256 B loop, dst 64-aligned */
    }
    if (unlikely(split_loads(d, s, n)))
        return altmem_memcpy_avx2(dst, src, n); /* Zen 4, src and dst apart mod 64 */
    /* The common case first, every test on the fall-through path (a taken
       branch here costs time at 600 B-1 KiB: docs/perf/variant-figures.md). */
    if (likely(copy_below_nt((uintptr_t)d, (uintptr_t)s, n)) && likely(n < MOVSB_MIN_COALIGNED || n < erms_min(d, s)) && !alias_4k_ahead(d, s))
        return vcopy_fwd(d, s, n);      /* (512, 16/32 KiB): 256 B loop, dst 64-aligned */
    else if (copy_below_nt((uintptr_t)d, (uintptr_t)s, n) && n < erms_min(d, s))
        return vcopy_bwd(d, s, n);      /* (512, 16/32 KiB), dst just above src mod 4 KiB: backward */
    else if (copy_below_nt((uintptr_t)d, (uintptr_t)s, n) && !movsb_short_distance((uintptr_t)d, (uintptr_t)s))
        rep_movsb(d, s, n);             /* [16/32 KiB, nt): rep movsb         */
    else if (copy_below_nt((uintptr_t)d, (uintptr_t)s, n))
        return vcopy_bwd(d, s, n);      /* [16/32 KiB, nt), (dst - src) mod 4 KiB in 1..63, the 4 KiB alias: backward */
    else {
        ALTMEM_SETTLE(n, altmem__settle_memcpy(dst, src, n)); /* the first streaming call: the caches */
        if (split_loads_streaming(d, s))
            return altmem_memcpy_avx2(dst, src, n); /* Zen 5, src and dst apart mod 64 */
        vcopy_fwd_nt(d, s, n);          /* [nt, ...): streaming stores        */
    }
    return dst;
}

/* Its name: the _halves build (memcpy_avx512_halves.c) gives its own. */
#ifndef MEMCPY_AVX512_ENTRY
#define MEMCPY_AVX512_ENTRY altmem_memcpy_avx512
#endif

ENTRY_ALIGNED(MEMCPY_AVX512_ENTRY, 1024);
void *MEMCPY_AVX512_ENTRY(void *__restrict dst, const void *__restrict src, size_t n)
{
    return vcopy_entry_512(dst, src, n, large);   /* the classes: x86_vec.h */
}
