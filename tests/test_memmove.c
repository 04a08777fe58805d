/*
 * memmove: every runnable variant, called through the variant table, and the
 * public altmem_memmove.  Non-overlapping copies are checked as for memcpy
 * (the shared parts in testlib.c); the overlap parts below add every distance
 * in [-300, 300] at sizes 0..700, and far overlaps around a page and at 64 KiB
 * and 1 MiB.  `test_memmove --self-test` proves the checker catches broken
 * copies, including ones that pick the wrong direction.
 */
#include "testlib.h"
#include "policy.h"

#include <stdint.h>

/* With --reduced only the sizes at which the regions overlap (the others are the
   sweep's disjoint copies), and the small ones. */
static int overlapping(long dist, size_t n)
{
    return !tl_lim.reduced || n <= 33 || n > (size_t)(dist < 0 ? -dist : dist);
}

/* Distances from -300 to 300 at sizes 0..700 (distance 0 included), from three
   source alignments: word-aligned, odd, and an odd one near a 64-byte line end. */
static void part_overlap(struct tl_ctx *c)
{
    static const size_t aligns[] = {0, 3, 61};
    struct tl_buf *ob = &tl_env.ovl;
    long dists[2048];
    size_t nd = tl_dists(dists, sizeof dists / sizeof dists[0]), ns = tl_sizes_upto(tl_lim.overlap_max);
    for (size_t a = 0; a < sizeof aligns / sizeof aligns[0]; a++) {
        unsigned char *s = ob->mem + tl_env.page + 320 + aligns[a];
        if (tl_lim.reduced && a == 1) /* --reduced: word-aligned and the line end */
            continue;
        for (size_t di = 0; di < nd && !c->stop; di++)
            for (size_t i = 0; i < ns; i++)
                if (overlapping(dists[di], tl_sizes[i]))
                    tl_copy(c, ob, s + dists[di], s, tl_sizes[i]);
    }
}

/* The same distances with the pair flush against a guard page: the lower of
   dst and src starting right after one, or the higher one ending right at one. */
static void part_overlap_guard(struct tl_ctx *c)
{
    struct tl_buf *ob = &tl_env.ovl;
    long dists[2048];
    size_t nd = tl_dists(dists, sizeof dists / sizeof dists[0]), ns = tl_sizes_upto(tl_lim.overlap_max);
    for (size_t di = 0; di < nd && !c->stop; di++) {
        long dist = dists[di];
        size_t up = dist < 0 ? (size_t)-dist : 0, down = dist > 0 ? (size_t)dist : 0;
        for (size_t i = 0; i < ns; i++) {
            size_t n = tl_sizes[i];
            if (!overlapping(dist, n))
                continue;
            unsigned char *lo = ob->mem + up, *hi = tl_buf_end(ob, n + down);
            tl_copy(c, ob, lo + dist, lo, n);
            tl_copy(c, ob, hi + dist, hi, n);
        }
    }
}

/* Overlaps farther than the near part reaches: distances one page +-k, where
   an implementation may switch strategy (4 KiB aliasing, rep movsb), and large
   sizes with distances from 1 to n - 1. */
static void part_far(struct tl_ctx *c)
{
    static const long ks[] = {-64, -63, -8, -7, -1, 0, 1, 7, 8, 63, 64};
    static const size_t aligns[] = {0, 5};
    struct tl_buf *ob = &tl_env.ovl;
    for (size_t a = 0; a < sizeof aligns / sizeof aligns[0]; a++) {
        unsigned char *s = ob->mem + tl_env.page + aligns[a];
        for (size_t k = 0; k < sizeof ks / sizeof ks[0]; k++) {
            size_t dist = (size_t)(4096 + ks[k]);
            const size_t ns[] = {dist + 1, dist + 8, dist + 63, 2 * dist - 1, 2 * dist, 2 * dist + 7,
                                 3 * dist + 5, 10000, 16384 + 3};
            for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
                /* dst above src, then below. */
                tl_copy(c, ob, s + dist, s, ns[i]);
                tl_copy(c, ob, s, s + dist, ns[i]);
            }
        }
        /* Forward overlaps below and at amd-zen5's later rep movsb starts (8 / 40 / 64 KiB
           in the 16 / 32 / 64-byte variants) */
        static const size_t big[] = {6144 + 3, 8192 + 1, 32768 + 3, 36864 + 5, 40960 + 3, 49152 + 5, 65536, 65536 + 5,
                                     TL_MIB - 3, TL_MIB};
        for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
            size_t n = big[i];
            if (n > tl_lim.large_max) /* --reduced */
                continue;
            const size_t dists[] = {1, 7, 63, 4095, 4096, 4097, n / 2, n - 1};
            for (size_t d = 0; d < sizeof dists / sizeof dists[0]; d++) {
                tl_copy(c, ob, s + dists[d], s, n);
                tl_copy(c, ob, s, s + dists[d], n);
            }
        }
    }
}

/* Overlapping moves whose first or last bytes lie just across a 4 KiB
   boundary, both directions, at distances that put the source inside the
   destination's first or last vectors (1, W - 1, W + 1, 4W - 1, 4W + 1) or far
   inside (n / 2 + 2, the bench's overlap): the pieces stored in place of the
   vectors that would split the page must be read before anything overwrites
   them. */
static void part_page_ends(struct tl_ctx *c)
{
    static const size_t sizes[] = {520, 1029, 4096, 4099};
    static const size_t dists[] = {1, 2, 15, 17, 31, 33, 63, 65, 255, 257};
    struct tl_buf *ob = &tl_env.ovl;
    unsigned char *page2 = ob->mem + 4 * tl_env.page;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0] && !c->stop; i++) {
        size_t n = sizes[i];
        for (size_t k = 0; k <= sizeof dists / sizeof dists[0]; k++) {
            size_t dist = k < sizeof dists / sizeof dists[0] ? dists[k] : n / 2 + 2;
            for (size_t e = 1; e <= 256; e += e < 64 ? 1 : 7) {
                unsigned char *d = page2 + e - n;          /* dst ends e bytes past the boundary */
                tl_copy(c, ob, d, d + dist, n);            /* src above: forward */
                tl_copy(c, ob, d, d - dist, n);            /* src below: backward */
            }
            for (size_t h = 1; h <= 64; h++) {
                unsigned char *d = page2 - h;              /* dst starts h bytes before it */
                tl_copy(c, ob, d, d + dist, n);
                tl_copy(c, ob, d, d - dist, n);
            }
        }
    }
    /* The source's far end flush against a guard page, so that a piece read
       past it (or before its start) faults: forward, src ending at the upper
       guard and dst ending e bytes past a page boundary, 4096 - e below it;
       backward, src starting at the lower guard and dst starting h bytes before
       a boundary.  (The 32-byte forward pieces read a byte past the source's
       end, unused, where dst's end was W-aligned: found by fuzz_mem at n = 4096,
       dst = src - 4064.) */
    static const size_t far_sizes[] = {4099, 4096 + 520, 8192 + 61};
    for (size_t i = 0; i < sizeof far_sizes / sizeof far_sizes[0] && !c->stop; i++) {
        size_t n = far_sizes[i];
        const unsigned char *s_end = tl_buf_end(ob, n);
        for (size_t e = 1; e <= 256; e += e < 64 ? 1 : 7)
            tl_copy(c, ob, (unsigned char *)s_end - (4096 - e), s_end, n);
        for (size_t h = 1; h <= 64; h++)
            tl_copy(c, ob, ob->mem + (4096 - h), ob->mem, n);
    }
}

/* Non-overlapping moves around lowered non-temporal thresholds (tl_part_copy_nt),
   then overlapping ones of the same sizes, which must never take the
   non-temporal path's shortcuts: distances 1, 64, 4-16 KiB, n/2 and n - 1;
   with forward overlaps streamed from the same threshold (as nt_threshold=
   sets them), then never (a rule's nt_fwd_overlap above it, src/policy.c), equally aligned
   copies never too (amd-zen5). */
static void part_nt(struct tl_ctx *c)
{
    tl_part_copy_nt(c);
    struct tl_buf *ob = &tl_env.ovl;
    unsigned char *s = ob->mem + tl_env.page + 3;
    for (size_t k = 0; k < 2 * tl_nt_threshold_count && !c->stop; k++) {
        size_t ti = k % tl_nt_threshold_count;
        tl_nt_set(tl_nt_thresholds[ti]);
        if (k >= tl_nt_threshold_count) {     /* as intel-emr-kvm, amd-zen5 */
            __atomic_store_n(&altmem__nt_threshold_fwd_overlap, (size_t)-1, __ATOMIC_RELEASE);
            __atomic_store_n(&altmem__nt_threshold_coaligned, (size_t)-1, __ATOMIC_RELEASE);
        }
        size_t sizes[16];
        size_t count = tl_nt_sizes(tl_nt_thresholds[ti], sizes, 16);
        for (size_t i = 0; i < count; i++) {
            size_t n = sizes[i];
            /* 4-16 KiB: where a loop that interleaves several pages could
               store over source bytes it has not read yet. */
            const size_t dists[] = {1, 64, 4096, 4097, 5000, 8191, 12289, 16383, 16385, n / 2, n - 1};
            for (size_t d = 0; d < sizeof dists / sizeof dists[0]; d++) {
                tl_copy(c, ob, s + dists[d], s, n);
                tl_copy(c, ob, s, s + dists[d], n);
            }
        }
    }
    tl_nt_set((size_t)-1);
}

/* Around rep movsb starts (set through ALTMEM_TUNABLES): disjoint, then
   overlapping both ways, where rep movsb must not run forward over source
   bytes not yet read. */
static void part_string(struct tl_ctx *c)
{
    tl_part_copy_string(c);
    struct tl_buf *ob = &tl_env.ovl;
    unsigned char *s = ob->mem + tl_env.page + 3;
    for (size_t ti = 0; ti < tl_string_threshold_count && !c->stop; ti++)
        for (size_t sd = 0; sd < 4096 && !c->stop; sd += 4095) {
            tl_string_set(tl_string_thresholds[ti], sd);
            size_t sizes[16];
            size_t count = tl_nt_sizes(tl_string_thresholds[ti], sizes, 16);
            for (size_t i = 0; i < count; i++) {
                size_t n = sizes[i];
                const size_t dists[] = {1, 63, 64, 4095, 4096, 4097, 8191, n / 2, n - 1};
                for (size_t d = 0; d < sizeof dists / sizeof dists[0]; d++) {
                    tl_copy(c, ob, s + dists[d], s, n);
                    tl_copy(c, ob, s, s + dists[d], n);
                }
            }
        }
    /* Forward overlaps with a start of their own above the others' (amd-zen5:
       8 / 40 / 64 KiB after 3 / 32 / 32 per width; here every width's), installed as src/policy.c installs it (no rep movsb
       without the tests: large() checks it): sizes around it, src ahead. */
    static const size_t starts[][2] = {{600, 1205}, {4096 + 3, 8192 + 11}, {32768, 65536}};
    for (size_t ti = 0; ti < sizeof starts / sizeof starts[0] && !c->stop; ti++) {
        tl_string_set(starts[ti][0], 0);
        __atomic_store_n(&altmem__rep_movsb_direct_below[0], 0, __ATOMIC_RELEASE);
        __atomic_store_n(&altmem__rep_movsb_direct_below[1], 0, __ATOMIC_RELEASE);
        for (int w = 0; w < 3; w++)
            __atomic_store_n(&altmem__rep_movsb_start_fwd_overlap[w], starts[ti][1], __ATOMIC_RELEASE);
        size_t sizes[16];
        size_t count = tl_nt_sizes(starts[ti][1], sizes, 16);
        for (size_t i = 0; i < count; i++) {
            size_t n = sizes[i];
            const size_t dists[] = {1, 63, 64, 65, 4096, n / 2 + 2, n - 1, n, n + 64};
            for (size_t d = 0; d < sizeof dists / sizeof dists[0]; d++) {
                tl_copy(c, ob, s, s + dists[d], n);
                tl_copy(c, ob, s + dists[d], s, n);
            }
        }
    }
    tl_policy_set(NULL);
}

static const struct tl_part parts[] = {
    {"zero", tl_part_copy_zero},   /* n == 0 with NULL and guard-page pointers */
    {"same", tl_part_copy_same},   /* dst == src                               */
    {"guard", tl_part_copy_guard}, /* windows flush against PROT_NONE pages    */
    {"sweep", tl_part_copy_sweep}, /* n 0..1024 x src offset 0..63 x dst 0..63 */
    {"large", tl_part_copy_large}, /* 2 KiB .. 64 MiB                          */
    {"page-ends", tl_part_copy_page_ends}, /* first or last bytes across a page */
    {"overlap", part_overlap},     /* dst - src in [-300, 300], n 0..700       */
    {"overlap-guard", part_overlap_guard}, /* the same, flush against guard pages */
    {"far", part_far},             /* page-sized distances, 64 KiB and 1 MiB   */
    {"overlap-page-ends", part_page_ends}, /* overlaps with ends across a page         */
    {"nt", part_nt},               /* around lowered non-temporal thresholds   */
    {"string", part_string},       /* around rep movsb starts, overlaps too    */
};

/* ---- Broken memmoves: right for disjoint regions, wrong direction somewhere ---- */

static void *fwd(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    for (size_t i = 0; i < n; i++)
        d[i] = s[i];
    return dst;
}

static void *bwd(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    for (size_t i = n; i > 0; i--)
        d[i - 1] = s[i - 1];
    return dst;
}

/* Backward only when dst is above src by less than `limit`. */
static void *move_limited(void *dst, const void *src, size_t n, size_t limit)
{
    size_t up = (uintptr_t)dst - (uintptr_t)src;
    return up > 0 && up < n && up < limit ? bwd(dst, src, n) : fwd(dst, src, n);
}

static void *bk_near256(void *dst, const void *src, size_t n)
{
    return move_limited(dst, src, n, 256);
}

static void *bk_near4096(void *dst, const void *src, size_t n)
{
    return move_limited(dst, src, n, 4096);
}

/* Right direction, but the backward loop starts with an aligned-down load. */
static void *bk_bwd_underread(void *dst, const void *src, size_t n)
{
    size_t up = (uintptr_t)dst - (uintptr_t)src;
    if (up == 0 || up >= n)
        return fwd(dst, src, n);
    (void)((const volatile unsigned char *)src)[-1];
    return bwd(dst, src, n);
}

/* Planted at overlap distances --reduced claims (tl_dists): forward at one distance. */
static void *bk_dist129(void *dst, const void *src, size_t n)
{
    return (uintptr_t)dst - (uintptr_t)src == 129 ? fwd(dst, src, n) : tl_ref_memmove(dst, src, n);
}

static void *bk_dist1023(void *dst, const void *src, size_t n)
{
    return (uintptr_t)dst - (uintptr_t)src == 1023 ? fwd(dst, src, n) : tl_ref_memmove(dst, src, n);
}

static const struct tl_broken broken[] = {
    {"dist-129", "forward when dst - src == 129", {.memmove = bk_dist129}, "overlap", TL_EXPECT_FAIL, NULL, 1},
    {"dist-1023", "forward when dst - src == 1023", {.memmove = bk_dist1023}, "overlap", TL_EXPECT_FAIL, NULL, 1},
    {"forward", "always copies forward", {.memmove = fwd}, "overlap", TL_EXPECT_FAIL, NULL, 0},
    {"backward", "always copies backward", {.memmove = bwd}, "overlap", TL_EXPECT_FAIL, NULL, 0},
    {"near256", "forward when dst - src >= 256", {.memmove = bk_near256}, "overlap", TL_EXPECT_FAIL, NULL, 0},
    {"near4096", "forward when dst - src >= 4096", {.memmove = bk_near4096}, "far", TL_EXPECT_FAIL, NULL, 0},
    {"bwd-underread", "reads src[-1] when copying backward", {.memmove = bk_bwd_underread}, "overlap-guard",
     TL_EXPECT_FAULT, NULL, 0},
};

int main(int argc, char **argv)
{
    return tl_main(argc, argv, ALTMEM_MEMMOVE, parts, sizeof parts / sizeof parts[0], broken,
                   sizeof broken / sizeof broken[0]);
}
