/*
 * memmove_avx512 — 64-byte AVX-512 vectors (features UAL, SIMD512).
 *
 * Assumptions:
 *   - AVX-512 F, BW and VL, with the OS saving the ZMM and opmask state
 *     (SIMD512); F and VL instructions only (no byte masks: a masked access
 *     that crosses into the next page takes a microcode assist, mapped or not;
 *     docs/perf/variant-figures.md).  Built with -mavx512f -mavx512vl -mavx512bw, this file only; GCC also
 *     keeps it to xmm/ymm/zmm16-31, so it returns without vzeroupper.
 *   - Unaligned loads and stores are single, fast instructions (UAL).
 *   - Up to 512 bytes every byte is loaded before any is stored (x86_vec.h), so
 *     overlap needs no test; above, the direction follows the overlap, and each
 *     256-byte block is loaded before it is stored.  Forward moves whose source
 *     runs at least 64 bytes ahead of the destination use rep movsb, 16 KiB
 *     ahead stream, as if apart (a streaming store lands only on source bytes
 *     already read).
 *   - Above 512 bytes, below the rep movsb and streaming sizes, with the
 *     regions apart and (dst - src) mod 4096 below 256, the loop runs backward
 *     (x86_vec.h, alias_4k_ahead); the common forward case is tested first,
 *     every test on the fall-through path.
 *   - Above the policy's split size (512 B on Zen 4, else never), below
 *     streaming, with src and dst apart mod 64, memmove_avx2 takes the move
 *     (as memcpy_avx512); from streaming, forward, where the policy says so
 *     (Zen 5), likewise.
 *   - rep movsb as memcpy_avx512, for forward moves whose source is apart from or
 *     at least 64 bytes ahead of the destination (src/policy.c): rep movsb
 *     is defined byte by byte forward, so any forward overlap is exact; below
 *     64 bytes apart it leaves its fast mode (Intel SDM vol. 3, "Out-of-Order
 *     Stores For String Operations"; glibc 2.36 keeps the same 64-byte cut).
 */
#include <stdint.h>

#define VEC_BITS 512
#include "x86_vec.h"

/* The sizes that loop: kept out of line, so that the small classes above need
   no registers saved or copied on entry. */
static __attribute__((noinline)) void *large(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    uintptr_t fwd = (uintptr_t)d - (uintptr_t)s, bwd = (uintptr_t)s - (uintptr_t)d;
    /* The common case first, every test on the fall-through path (a taken
       branch here costs time at 600 B-1 KiB, docs/perf/variant-figures.md): forward-safe, below
       every other path's start (one compare: memcpy_avx512.c); inside it the
       4 KiB alias (regions apart) falls straight into the backward loop. */
    if (likely(fwd >= n) && likely(n < altmem__copy_loop_below_512)) {
        if (alias_4k_ahead(d, s) && bwd >= n)
            return vcopy_bwd(d, s, n);  /* dst just above src mod 4 KiB: backward */
        return vcopy_fwd(d, s, n);      /* (512, 16/32 KiB): 256 B loop, dst 64-aligned */
    }
    if (unlikely(split_loads(d, s, n)))
        return altmem_memmove_avx2(dst, src, n); /* Zen 4, src and dst apart mod 64 */
    /* Backward when dst lies inside the source, or, apart and in the loop's
       range, when dst is just above src mod 4 KiB (alias_4k_ahead), which
       includes the short distances where rep movsb is refused. */
    int back = fwd < n || (bwd >= n && alias_4k_ahead(d, s) &&
                           (n < erms_min(d, s) ||
                            (copy_below_nt((uintptr_t)d, (uintptr_t)s, n) && movsb_short_distance((uintptr_t)d, (uintptr_t)s))));
    if (back && (copy_below_nt((uintptr_t)d, (uintptr_t)s, n) || fwd < 4096))
        return vcopy_bwd(d, s, n);      /* dst inside (src, src+n), or the 4 KiB alias: backward */
    else if (back) {
        ALTMEM_SETTLE(n, altmem__settle_memmove(dst, src, n)); /* the first streaming call: the caches */
        vcopy_bwd_nt(d, s, n);          /* [nt, ...), dst 4 KiB+ above src or apart: backward, streaming */
    } else if (!copy_below_nt((uintptr_t)d, (uintptr_t)s, n) && fwd_may_stream(bwd, n)) {
        ALTMEM_SETTLE(n, altmem__settle_memmove(dst, src, n));
        if (split_loads_streaming(d, s))
            return altmem_memmove_avx2(dst, src, n); /* Zen 5, src and dst apart mod 64 */
        vcopy_fwd_nt(d, s, n);          /* [nt, ...), src 16 KiB+ ahead or apart: streaming */
    }
    else if (bwd < 64 || n < erms_min(d, s) || movsb_short_distance((uintptr_t)d, (uintptr_t)s))
        return vcopy_fwd(d, s, n);      /* dst < src within a page, (512, 16/32 KiB), short distance */
    else if (unlikely(fwd_overlap_below_movsb(bwd, n)))
        return vcopy_fwd_cold(d, s, n); /* a forward overlap below a rule's own start (amd-zen5) */
    else
        rep_movsb(d, s, n);             /* from 16/32 KiB, src 64 B+ ahead or apart: rep movsb */
    return dst;
}

/* Its name: the _halves build (memmove_avx512_halves.c) gives its own. */
#ifndef MEMMOVE_AVX512_ENTRY
#define MEMMOVE_AVX512_ENTRY altmem_memmove_avx512
#endif

ENTRY_ALIGNED(MEMMOVE_AVX512_ENTRY, 1024);
void *MEMMOVE_AVX512_ENTRY(void *dst, const void *src, size_t n)
{
    return vcopy_entry_512(dst, src, n, large);   /* the classes: x86_vec.h */
}
