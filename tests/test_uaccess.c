/*
 * altmem_copy_user / altmem_clear_user: exact return values and destination
 * contents with an inaccessible page at every position relative to the buffers
 * (tests/uaccess/ua_lib.h explains the check).  Every runnable variant, called
 * straight from the variant table, and the public entry points.
 *
 *   src_hole  copy: the source's hole (PROT_NONE, unmapped) begins at every byte
 *             k = 0..n of the buffer, right after it, or the buffer starts inside
 *             or right after the hole; the destination at the same and at another
 *             alignment mod 16
 *   dst_hole  copy and clear: the same with the destination's hole (PROT_NONE,
 *             unmapped, read-only)
 *   both      copy: holes on both sides at different points; the earlier decides
 *   wild      the zero page, the last page and (x86_64) non-canonical pointers:
 *             r == n, nothing written; n == 0 touches nothing
 *   null_dst  copy and clear to NULL: r == n
 *             (wild, null_dst and null_src also run clean under UBSan: the variants
 *             do address arithmetic in uintptr_t; see part_null_dst)
 *   large     up to 4 MiB (1 MiB with --quick) with the hole near the end
 *   sigbus    a file mapping truncated after mmap: copy from it (MAP_SHARED and
 *             MAP_PRIVATE) and clear into it (MAP_SHARED) stop at the end of the
 *             file's last page, bytes past EOF in that page read as zero
 *   null_src  copy from NULL: r == n, nothing written
 *   huge      n near SIZE_MAX (SIZE_MAX - 2^k, k = 0..40), n that makes src + n or
 *             dst + n wrap, huge n that does not wrap; faults on either side after
 *             0..70000 accessible bytes; streaming and cached large paths
 *   thresholds  sizes at each policy threshold -1/0/+1 (rep movsb/stosb starts,
 *             the non-temporal threshold set within reach), holes on either side
 *   overlap   copy with src and dst overlapping (outside the contract): r exact,
 *             nothing outside [d, d + n - r) changed; contents unspecified
 *
 *   test_uaccess [--quick | --reduced] [--only NAME] [--part NAME] [--nt BYTES] [--split-streaming 0|1] [-v]
 *                | --self-test [--reduced]
 *
 * --reduced (the CPU-model matrix's other models, tests/qemu-models/): the --quick
 * ranges, with sizes only at boundaries (0..17, then b-1, b, b+1 for each size
 * class and vector strip b = 32, 48, 64, ... 2 pages) and holes at the points
 * where the fault lands in a distinct class: the head (k = 0..2), each small class
 * edge, the first, a middle and the last 64-byte block of a loop, the tail, a page
 * boundary; the buffer's start, hence its residue mod 16, moves with k.
 *
 * --nt BYTES lowers the non-temporal threshold, so that the streaming loops meet
 * the holes too (uaccess.holes_nt: 0, every size that reaches a loop streams).
 * --split-streaming 0|1 sets, over every policy installed, whether the 64-byte
 * copy_user hands its streaming copies with src and dst apart mod 64 to the
 * 32-byte variant (the amd-zen5 rule's 1), whatever this CPU's rules say: with
 * --nt 0, uaccess.holes_nt (0) meets the 64-byte streaming loop, and
 * uaccess.holes_nt_split (1) the hand-over, on every CPU that runs the variant.
 *
 * --self-test feeds deliberately broken implementations to the same parts (each
 * in a child process) and fails unless every one is caught.
 * Exit status 0 pass, 1 failure, 2 usage or set-up error.
 */
#define _GNU_SOURCE
#include "uaccess/ua_lib.h"
#include "policy_set.h" /* ALTMEM_TUNABLES through altmem__decide */

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>


/* ---- Ranges --------------------------------------------------------------------- */

static struct {
    size_t all_k_max;   /* every hole position k = 0..n for n up to this       */
    size_t dense_max;   /* every size up to this                               */
    size_t n_sizes;     /* about this many sizes above dense_max, up to 2 pages */
    size_t edge;        /* for larger n: k = 0..edge and n-edge..n              */
    size_t after;       /* buffer starts 0..after-1 bytes past the hole         */
    size_t large_max;
} lim = {300, 300, 200, 24, 16, 4u << 20};

static int reduced;

static void set_reduced(void)
{
    reduced = 1;
    lim.all_k_max = 17;
    lim.dense_max = 17;
    lim.n_sizes = 0;
    lim.after = 2;
    lim.large_max = 256u << 10;
}

/* --reduced: the boundaries b (each as b-1, b, b+1) of the sizes. */
static size_t reduced_sizes(size_t *out, size_t cap)
{
    size_t k = 0, P = ua_page;
    for (size_t n = 0; n <= lim.dense_max && k < cap; n++)
        out[k++] = n;
    /* 32..128 by 16, 160..256 by 32, then 384, 512, 768 and the powers of two */
    for (size_t b = 32; b <= 2 * P && k + 3 <= cap; b += b < 128 ? 16 : b < 256 ? 32 : b < 512 ? 128 : b < 1024 ? 256 : b)
        for (size_t d = 0; d < 3; d++)
            out[k++] = b + d - 1;
    if (k < cap)
        out[k++] = 2 * P + 64;
    return k;
}

/* --reduced: the hole positions for n > all_k_max (ascending, unique, <= n). */
static size_t reduced_positions(size_t n, size_t *out, size_t cap)
{
    size_t pts[64], np = 0;
    for (size_t i = 0; i <= 2; i++)
        pts[np++] = i;
    for (size_t b = 8; b <= 2 * ua_page && np + 3 <= 40; b *= 2) /* each class edge, the page */
        for (size_t d = 0; d < 3; d++)
            pts[np++] = b + d - 1;
    size_t mid = n / 2 / 64 * 64; /* a middle block, and the last one */
    size_t more[] = {mid - 1, mid, mid + 1, n - 65, n - 64, n - 63, n - 2, n - 1, n};
    for (size_t i = 0; i < sizeof more / sizeof more[0]; i++)
        if (more[i] <= n)
            pts[np++] = more[i];
    size_t k = 0;
    for (size_t i = 0; i < np && k < cap; i++)
        if (pts[i] <= n)
            out[k++] = pts[i];
    for (size_t i = 1; i < k; i++)
        for (size_t j = i; j > 0 && out[j - 1] > out[j]; j--) {
            size_t t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    size_t u = 0;
    for (size_t i = 0; i < k; i++)
        if (!u || out[u - 1] != out[i])
            out[u++] = out[i];
    return u;
}

static void set_quick(void)
{
    lim.all_k_max = 40;
    lim.dense_max = 64;
    lim.n_sizes = 24;
    lim.edge = 8;
    lim.after = 4;
    lim.large_max = 1u << 20;
}

/* Sizes 0..dense_max, then about n_sizes more up to 2 pages + 64, and the
   neighbours of the powers of two and of the page size; ascending, unique. */
static size_t sizes(size_t *out, size_t cap)
{
    if (reduced)
        return reduced_sizes(out, cap);
    size_t k = 0, P = ua_page, top = 2 * P + 64;
    for (size_t n = 0; n <= lim.dense_max && k < cap; n++)
        out[k++] = n;
    size_t stride = (top - lim.dense_max) / lim.n_sizes;
    stride |= 1; /* odd: every residue mod 16 comes up */
    for (size_t n = lim.dense_max + stride; n <= top && k < cap; n += stride)
        out[k++] = n;
    for (size_t p = 128; p <= 2 * P && k + 3 <= cap; p *= 2)
        for (size_t d = 0; d < 3; d++)
            if (p + d - 1 > lim.dense_max)
                out[k++] = p + d - 1;
    /* sort + unique (small n: insertion sort) */
    for (size_t i = 1; i < k; i++)
        for (size_t j = i; j > 0 && out[j - 1] > out[j]; j--) {
            size_t t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    size_t u = 0;
    for (size_t i = 0; i < k; i++)
        if (!u || out[u - 1] != out[i])
            out[u++] = out[i];
    return u;
}

/* Hole positions k (index of the buffer's first inaccessible byte) for size n:
   every one for small n, else both edges, the page and power-of-two points,
   the middle and a few pseudo-random ones.  Ascending, unique, all <= n. */
static size_t positions(size_t n, size_t *out, size_t cap)
{
    size_t k = 0;
    if (n <= lim.all_k_max) {
        for (size_t i = 0; i <= n && k < cap; i++)
            out[k++] = i;
        return k;
    }
    if (reduced)
        return reduced_positions(n, out, cap);
    for (size_t i = 0; i <= lim.edge && k < cap; i++)
        out[k++] = i;
    for (size_t i = n - lim.edge; i <= n && k < cap; i++)
        out[k++] = i;
    size_t pts[] = {ua_page - 1, ua_page, ua_page + 1, 63, 64, 65, 255, 256, 257, n / 2 - 1, n / 2, n / 2 + 1};
    for (size_t i = 0; i < sizeof pts / sizeof pts[0] && k < cap; i++)
        if (pts[i] <= n)
            out[k++] = pts[i];
    uint64_t x = n * UINT64_C(0x9e3779b97f4a7c15) + 1;
    for (int i = 0; i < 8 && k < cap; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        out[k++] = (size_t)(x % (n + 1));
    }
    for (size_t i = 1; i < k; i++)
        for (size_t j = i; j > 0 && out[j - 1] > out[j]; j--) {
            size_t t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    size_t u = 0;
    for (size_t i = 0; i < k; i++)
        if (!u || out[u - 1] != out[i])
            out[u++] = out[i];
    return u;
}

/* ---- Buffers ---------------------------------------------------------------------- */

#define LO_PAGES 3
#define HI_PAGES 3

static struct ua_arena src_open, dst_open;
static struct ua_arena src_hole[2];        /* PROT_NONE, unmapped */
static struct ua_arena dst_hole[3];        /* PROT_NONE, unmapped, read-only */
static const enum ua_kind src_kinds[2] = {UA_PROT_NONE, UA_UNMAPPED};
static const enum ua_kind dst_kinds[3] = {UA_PROT_NONE, UA_UNMAPPED, UA_READONLY};

static void make_arenas(void)
{
    ua_arena_make(&src_open, UA_OPEN, 1, LO_PAGES, HI_PAGES, 0x5eed0001);
    ua_arena_make(&dst_open, UA_OPEN, 0, LO_PAGES, HI_PAGES, 0);
    for (int i = 0; i < 2; i++)
        ua_arena_make(&src_hole[i], src_kinds[i], 1, LO_PAGES, HI_PAGES, 0x5eed0002 + (uint64_t)i);
    for (int i = 0; i < 3; i++)
        ua_arena_make(&dst_hole[i], dst_kinds[i], 0, LO_PAGES, HI_PAGES, 0);
}

/* Where the side without a hole goes: one page into its arena, at residue
   `mod` mod 16 (so n up to 2 pages + 64 and the margins stay inside). */
static unsigned char *open_at(const struct ua_arena *a, size_t mod)
{
    return a->lo + ua_page + mod % 16;
}

/* ---- Parts ---------------------------------------------------------------------------- */

/* The placements of a buffer of n bytes against one side's hole: the hole begins
   at byte k of the buffer (buffer at hole - k), the buffer begins inside the hole,
   or it begins right after the hole.  Calls fn for each placement. */
typedef void place_fn(struct ua_ctx *c, unsigned char *p, size_t n, void *arg);

static void for_each_placement(struct ua_ctx *c, const struct ua_arena *a, size_t n, place_fn *fn, void *arg)
{
    size_t ks[128];
    size_t nk = positions(n, ks, sizeof ks / sizeof ks[0]);
    for (size_t i = 0; i < nk && !c->stop; i++)
        fn(c, a->hole - ks[i], n, arg);
    if (n == 0)
        return;
    static const size_t inside[] = {1, 7, 8, 9};
    for (size_t i = 0; i < sizeof inside / sizeof inside[0]; i++)
        fn(c, a->hole + inside[i], n, arg);
    fn(c, a->hole + ua_page - 1, n, arg);
    for (size_t j = 0; j < lim.after; j++)
        fn(c, a->hole + ua_page + j, n, arg);
}

struct copy_arg {
    const struct ua_arena *hole_side; /* the arena with the hole   */
    const struct ua_arena *other;     /* the other side (no hole)  */
    int hole_is_src;
};

/* The other side at the same residue mod 16 as p (words line up), and at another
   one that rotates with n and p (the shift-and-merge and unaligned paths). */
static void copy_placed(struct ua_ctx *c, unsigned char *p, size_t n, void *argp)
{
    const struct copy_arg *a = argp;
    size_t same = (uintptr_t)p % 16;
    size_t other = (same + 1 + (n + (uintptr_t)p) % 15) % 16;
    size_t mods[2] = {same, other};
    for (int i = 0; i < 2 && !c->stop; i++) {
        unsigned char *q = open_at(a->other, mods[i]);
        if (a->hole_is_src)
            ua_case(c, q, a->other, p, a->hole_side, n);
        else
            ua_case(c, p, a->hole_side, q, a->other, n);
    }
}

static void clear_placed(struct ua_ctx *c, unsigned char *p, size_t n, void *argp)
{
    ua_case(c, p, argp, NULL, NULL, n);
}

static size_t nsizes;
static size_t size_list[1024];

static void part_src_hole(struct ua_ctx *c)
{
    if (c->im->r != ALTMEM_COPY_USER)
        return;
    for (int h = 0; h < 2 && !c->stop; h++) {
        struct copy_arg a = {&src_hole[h], &dst_open, 1};
        for (size_t i = 0; i < nsizes && !c->stop; i++)
            for_each_placement(c, &src_hole[h], size_list[i], copy_placed, &a);
    }
}

static void part_dst_hole(struct ua_ctx *c)
{
    for (int h = 0; h < 3 && !c->stop; h++) {
        struct copy_arg a = {&dst_hole[h], &src_open, 0};
        for (size_t i = 0; i < nsizes && !c->stop; i++) {
            if (c->im->r == ALTMEM_COPY_USER)
                for_each_placement(c, &dst_hole[h], size_list[i], copy_placed, &a);
            else
                for_each_placement(c, &dst_hole[h], size_list[i], clear_placed, &dst_hole[h]);
        }
    }
}

static void part_both(struct ua_ctx *c)
{
    if (c->im->r != ALTMEM_COPY_USER)
        return;
    static const size_t ns_full[] = {1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 63, 64, 65, 100, 255, 256, 257, 1000};
    static const size_t ns_quick[] = {1, 7, 8, 9, 16, 17, 33, 64, 65, 257};
    const size_t *ns = ua_quick ? ns_quick : ns_full;
    size_t nn = ua_quick ? sizeof ns_quick / sizeof ns_quick[0] : sizeof ns_full / sizeof ns_full[0];
    /* src PROT_NONE against every destination kind, and src unmapped against dst PROT_NONE */
    static const int pairs[4][2] = {{0, 0}, {0, 1}, {0, 2}, {1, 0}};
    for (int pi = 0; pi < 4 && !c->stop; pi++) {
        const struct ua_arena *sa = &src_hole[pairs[pi][0]], *da = &dst_hole[pairs[pi][1]];
        for (size_t i = 0; i < nn + 2 && !c->stop; i++) {
            size_t n = i < nn ? ns[i] : i == nn ? ua_page : 2 * ua_page;
            size_t pts[] = {0, 1, 7, 8, 9, 15, 16, 17, n / 2, n - 1, n};
            for (size_t x = 0; x < sizeof pts / sizeof pts[0]; x++)
                for (size_t y = 0; y < sizeof pts / sizeof pts[0] && !c->stop; y++) {
                    if (pts[x] > n || pts[y] > n)
                        continue;
                    ua_case(c, da->hole - pts[y], da, sa->hole - pts[x], sa, n);
                }
        }
    }
}

/* Pointers no program may touch.  r must be n (the first byte faults) and the
   good side unchanged; with n == 0 nothing is touched at all. */
static void part_wild(struct ua_ctx *c)
{
    /* NULL has parts of its own (null_dst, null_src). */
    uintptr_t wild[] = {
        1, 4095, UINTPTR_MAX - 4095,
#if defined(__x86_64__)
        UINT64_C(0x0000800000000000), /* first non-canonical address: #GP, si_code SI_KERNEL */
        UINT64_C(0x8000000000000000),
        UINT64_C(0xffff800000000000), /* the kernel's half */
#endif
    };
    static const size_t ns[] = {0, 1, 7, 8, 16, 17, 100, 4096, SIZE_MAX / 4};
    int sides = c->im->r == ALTMEM_COPY_USER ? 2 : 1;
    for (size_t w = 0; w < sizeof wild / sizeof wild[0] && !c->stop; w++)
        for (size_t i = 0; i < sizeof ns / sizeof ns[0] && !c->stop; i++)
            for (int side = 0; side < sides && !c->stop; side++) {
                /* side 0: the destination is wild; 1: the source is */
                size_t n = ns[i], r;
                unsigned char *bad = (unsigned char *)wild[w];
                unsigned char *d = side ? open_at(&dst_open, w) : bad;
                const unsigned char *s = side ? bad : open_at(&src_open, i);
                ua_cur_begin(c, d, s, n);
                r = c->im->r == ALTMEM_CLEAR_USER ? c->im->clear(d, n) : c->im->copy(d, s, n);
                ua_cur_end();
                c->cases++;
                if (r != n) {
                    ua_fail(c);
                    if (c->failures <= c->max_print && !c->quiet)
                        printf("FAIL %s/%s [wild] n=%zu %s=%#lx: expected r=%zu, got r=%zu\n",
                               altmem_routine_name(c->im->r), c->im->name, n, side ? "src" : "dst",
                               (unsigned long)wild[w], n, r);
                }
                /* The good destination must be untouched (the check's own r is
                   passed as expected: only the contents are judged here). */
                if (side) {
                    size_t m = n > 4096 ? 4096 : n;
                    ua_check_dst(c, d, &dst_open, NULL, m, 0, m, "src=wild");
                }
            }
}

/* Copy and clear to NULL: r == n.  Under UBSan this (and part_wild, and
   part_null_src) was a known bug: the variants and the fix-up did C pointer
   arithmetic on the caller's pointers (NULL + i, 1 - 1, the last page + n),
   which UBSan reports for exactly the pointers copy_user exists to survive.
   They compute addresses as integers now; UBSan builds also run these parts on
   their own (uaccess.ubsan_null_dst, _null_src, _wild). */
static void part_null_dst(struct ua_ctx *c)
{
    static const size_t ns[] = {0, 1, 7, 8, 16, 17, 100, 4096, SIZE_MAX / 4};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0] && !c->stop; i++) {
        size_t n = ns[i];
        const unsigned char *s = open_at(&src_open, i);
        ua_cur_begin(c, NULL, s, n);
        size_t r = c->im->r == ALTMEM_CLEAR_USER ? c->im->clear(NULL, n) : c->im->copy(NULL, s, n);
        ua_cur_end();
        c->cases++;
        if (r != n) {
            ua_fail(c);
            if (c->failures <= c->max_print && !c->quiet)
                printf("FAIL %s/%s [null_dst] n=%zu dst=NULL: expected r=%zu, got r=%zu\n",
                       altmem_routine_name(c->im->r), c->im->name, n, n, r);
        }
    }
}

/* Copy from NULL: r == n and nothing written.  (Found by these tests: the
   fix-up once took src == NULL to mean "clear"; it now takes a flag.) */
static void part_null_src(struct ua_ctx *c)
{
    if (c->im->r != ALTMEM_COPY_USER)
        return;
    static const size_t ns[] = {1, 7, 8, 16, 17, 100, 4096};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0] && !c->stop; i++) {
        size_t n = ns[i];
        unsigned char *d = open_at(&dst_open, i);
        ua_cur_begin(c, d, NULL, n);
        size_t r = c->im->copy(d, NULL, n);
        ua_cur_end();
        c->cases++;
        ua_check_dst(c, d, &dst_open, NULL, n, 0, r, "src=NULL");
    }
}

static void part_large(struct ua_ctx *c)
{
    static struct ua_arena ls, ld[2], lsrc_open, ldst_open;
    static int made;
    size_t pages = lim.large_max / ua_page + 1;
    if (!made) {
        ua_arena_make(&ls, UA_PROT_NONE, 1, pages, 1, 0x5eed0010);
        ua_arena_make(&ld[0], UA_PROT_NONE, 0, pages, 1, 0);
        ua_arena_make(&ld[1], UA_READONLY, 0, pages, 1, 0);
        ua_arena_make(&lsrc_open, UA_OPEN, 1, pages, 1, 0x5eed0011);
        ua_arena_make(&ldst_open, UA_OPEN, 0, pages, 1, 0);
        made = 1;
    }
    size_t nss[] = {lim.large_max / 4 + 5, lim.large_max / 2 - 1, lim.large_max};
    for (size_t i = 0; i < 3 && !c->stop; i++) {
        size_t n = nss[i];
        size_t ks[] = {n, n - 1, n - 3, n - 8, n / 2 + 5, 0};
        for (size_t j = 0; j < sizeof ks / sizeof ks[0] && !c->stop; j++) {
            size_t k = ks[j];
            if (c->im->r == ALTMEM_COPY_USER) {
                ua_case(c, ldst_open.lo + 3, &ldst_open, ls.hole - k, &ls, n);
                ua_case(c, ld[j & 1].hole - k, &ld[j & 1], lsrc_open.lo + 5, &lsrc_open, n);
            } else {
                ua_case(c, ld[j & 1].hole - k, &ld[j & 1], NULL, NULL, n);
            }
        }
    }
}

/* The policy the variants read (src/policy.c), which --nt and the parts below
   set through ALTMEM_TUNABLES' own code path (the parser and altmem__decide on
   this CPU, then installed): its default thresholds are above most sizes here. */
static int split_streaming = -1; /* --split-streaming: -1 as the rules say */

static void policy_set(const char *value)
{
    test_policy_set(value, "test_uaccess");
    if (split_streaming >= 0)
        __atomic_store_n(&altmem__copy_split_loads_streaming, (size_t)split_streaming, __ATOMIC_RELEASE);
}

/* Streaming from nt for every routine ((size_t)-1: never); the rest as bound. */
static void nt_set(size_t nt)
{
    char v[64];
    if (nt == (size_t)-1)
        snprintf(v, sizeof v, "nt_threshold=never");
    else
        snprintf(v, sizeof v, "nt_threshold=%zu", nt);
    policy_set(v);
}

/* Lengths near SIZE_MAX, lengths that make src + n or dst + n wrap around the
   address space, and huge lengths that do not wrap (past the canonical range):
   r must be n minus the bytes before the first inaccessible one, nothing written
   outside [d, d + n - r).  Faults on either side after kd (ks) accessible bytes;
   the non-temporal threshold at its default (huge n streams) and at SIZE_MAX
   (the cached loops and rep movsb/stosb meet huge n).  Found this way: the x86
   vector variants computed their loop bound as d + n - 4W, which wrapped, so the
   loop never ran and the tail was stored below dst, and r was 0. */
static void part_huge(struct ua_ctx *c)
{
    static struct ua_arena hs, hd[2], hs_open, hd_open;
    static int made;
    static const size_t ks_full[] = {0, 1, 100, 5000, 70000}, ks_quick[] = {0, 1, 100, 5000};
    const size_t *ks = ua_quick ? ks_quick : ks_full;
    const size_t nks = ua_quick ? sizeof ks_quick / sizeof ks_quick[0] : sizeof ks_full / sizeof ks_full[0];
    const size_t kmax = ks[nks - 1];
    const size_t pages = (kmax + 2 * UA_MARGIN) / ua_page + 2;
    if (!made) {
        ua_arena_make(&hs, UA_PROT_NONE, 1, pages, 1, 0x5eed0020);
        ua_arena_make(&hd[0], UA_READONLY, 0, pages, 1, 0);
        ua_arena_make(&hd[1], UA_PROT_NONE, 0, pages, 1, 0);
        ua_arena_make(&hs_open, UA_OPEN, 1, pages, 1, 0x5eed0021);
        ua_arena_make(&hd_open, UA_OPEN, 0, pages, 1, 0);
        made = 1;
    }
    size_t fixed[64], nf = 0;
    fixed[nf++] = SIZE_MAX;
    for (int k = 0; k <= 40; k++)
        fixed[nf++] = SIZE_MAX - ((size_t)1 << k);
    const size_t more[] = {SIZE_MAX / 2, SIZE_MAX / 2 + 1, SIZE_MAX / 4, (size_t)1 << 62, ((size_t)1 << 47) - 1,
                           (size_t)1 << 47, ((size_t)1 << 47) + 1, ((size_t)1 << 40) + 3};
    for (size_t i = 0; i < sizeof more / sizeof more[0]; i++)
        fixed[nf++] = more[i];
    const int copy = c->im->r == ALTMEM_COPY_USER;
    for (int ti = 0; ti < 2 && !c->stop; ti++) {
        if (ti == 0)
            nt_set(0);          /* every huge n streams */
        else
            policy_set("nt_threshold=never:rep_movsb_threshold=4096:rep_stosb_threshold=4096"); /* cached, rep */
        for (size_t ki = 0; ki < nks && !c->stop; ki++) {
            const size_t k = ks[ki];
            /* side 0: the destination faults after k bytes; 1: the source does */
            for (int side = 0; side < (copy ? 2 : 1) && !c->stop; side++)
                for (size_t mis = 0; mis < 2 && !c->stop; mis++) {
                    const struct ua_arena *da = side ? &hd_open : &hd[(ki + mis) & 1];
                    const struct ua_arena *sa = side ? &hs : &hs_open;
                    unsigned char *d = side ? hd_open.lo + UA_MARGIN + 3 * mis : hd[(ki + mis) & 1].hole - k;
                    const unsigned char *s = side ? hs.hole - k : hs_open.lo + 5 + 59 * mis;
                    /* ... and the lengths that make each end land just past 2^64 */
                    size_t ns[80], nn = 0;
                    for (size_t i = 0; i < nf; i++)
                        ns[nn++] = fixed[i];
                    static const size_t wraps[] = {0, 1, 64, 4096};
                    for (size_t w = 0; w < sizeof wraps / sizeof wraps[0]; w++) {
                        ns[nn++] = (size_t)0 - (uintptr_t)d + wraps[w];
                        if (copy)
                            ns[nn++] = (size_t)0 - (uintptr_t)s + wraps[w];
                    }
                    for (size_t i = 0; i < nn && !c->stop; i++)
                        ua_case(c, d, da, copy ? s : NULL, copy ? sa : NULL, ns[i]);
                }
        }
    }
    policy_set(NULL);
}

/* Sizes at each policy threshold -1/0/+1 (rep movsb / rep stosb starts, and the
   non-temporal threshold set to a size the sweep reaches), with the hole at the
   edges, the middle and pseudo-random points, on either side. */
static void part_thresholds(struct ua_ctx *c)
{
    static struct ua_arena ts[2], td[3], ts_open, td_open;
    static int made;
    const size_t top = 32768 + 2;
    const size_t pages = top / ua_page + 2;
    if (!made) {
        for (int i = 0; i < 2; i++)
            ua_arena_make(&ts[i], src_kinds[i], 1, pages, 1, 0x5eed0030 + (uint64_t)i);
        for (int i = 0; i < 3; i++)
            ua_arena_make(&td[i], dst_kinds[i], 0, pages, 1, 0);
        ua_arena_make(&ts_open, UA_OPEN, 1, pages, 1, 0x5eed0032);
        ua_arena_make(&td_open, UA_OPEN, 0, pages, 1, 0);
        made = 1;
    }
    /* rep movsb/stosb starts of 2 KiB (glibc's rep_movsb_threshold is 2112), 4,
       16 and 32 KiB, set for every width; the non-temporal threshold where set */
    static const size_t starts[] = {2048, 2112, 4096, 16384, 32768};
    const size_t nts[] = {SIZE_MAX, 4097, 16383};
    for (size_t ti = 0; ti < sizeof nts / sizeof nts[0] * (sizeof starts / sizeof starts[0]) && !c->stop; ti++) {
        const size_t nt = nts[ti / (sizeof starts / sizeof starts[0])];
        const size_t start = starts[ti % (sizeof starts / sizeof starts[0])];
        /* --reduced: the policies do not depend on the CPU model (the full model runs
           them all): two starts, without and with a non-temporal threshold. */
        if (reduced && (nt == 16383 || (start != 2112 && start != 32768)))
            continue;
        char v[160], ntv[32];
        if (nt == SIZE_MAX)
            snprintf(ntv, sizeof ntv, "never");
        else
            snprintf(ntv, sizeof ntv, "%zu", nt);
        snprintf(v, sizeof v, "rep_movsb_threshold=%zu:rep_stosb_threshold=%zu:rep_movsb_short_distance=%d:nt_threshold=%s",
                 start, start, (int)(ti & 1) * 63, ntv);
        policy_set(v);
        size_t list[6], nl = 0;
        for (size_t dlt = 0; dlt < 3; dlt++)
            list[nl++] = start + dlt - 1;
        if (nt != SIZE_MAX)
            for (size_t dlt = 0; dlt < 3; dlt++)
                list[nl++] = nt + dlt - 1;
        for (size_t i = 0; i < nl && !c->stop; i++) {
            size_t n = list[i], pos[128];
            size_t np = positions(n, pos, sizeof pos / sizeof pos[0]);
            for (size_t j = 0; j < np && !c->stop; j++) {
                size_t k = pos[j], mis = (j + i) % 16;
                if (c->im->r == ALTMEM_COPY_USER) {
                    ua_case(c, td_open.lo + UA_MARGIN + mis, &td_open, ts[j & 1].hole - k, &ts[j & 1], n);
                    ua_case(c, td[j % 3].hole - k, &td[j % 3], ts_open.lo + (mis * 7) % 64, &ts_open, n);
                } else {
                    ua_case(c, td[j % 3].hole - k, &td[j % 3], NULL, NULL, n);
                }
            }
        }
    }
    policy_set(NULL);
}

/* Overlapping src and dst, which the contract excludes (as memcpy's): the bytes
   copied are then unspecified, but the call must still be safe and exact where
   it can be: r == n - (bytes before the first inaccessible one on either side),
   and nothing outside [d, d + n - r) changes.  Both in one writable arena with a
   PROT_NONE hole, at distances on both sides and with the hole inside either. */
static void part_overlap(struct ua_ctx *c)
{
    static struct ua_arena oa;
    static unsigned char *pattern;
    static int made;
    if (c->im->r != ALTMEM_COPY_USER)
        return;
    if (!made) {
        ua_arena_make(&oa, UA_PROT_NONE, 0, LO_PAGES, HI_PAGES, 0);
        pattern = malloc((size_t)(oa.end - oa.lo));
        if (!pattern)
            ua_die("malloc");
        uint64_t x = 0x0ddba11;
        for (size_t i = 0; i < (size_t)(oa.end - oa.lo); i++) {
            x = x * 6364136223846793005u + 1442695040888963407u;
            pattern[i] = (unsigned char)(x >> 56);
        }
        made = 1;
    }
    const size_t P = ua_page;
    static const size_t ns[] = {1, 2, 5, 7, 8, 15, 16, 17, 21, 31, 33, 64, 65, 100, 101, 129, 256, 257, 513, 1000, 2049, 4096, 4101};
    static const long dists[] = {1, -1, 3, -3, 8, -8, 16, -16, 63, -63, 64, -64, 100, -100, 1000, -1000};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0] && !c->stop; i++) {
        size_t n = ns[i];
        for (size_t j = 0; j < sizeof dists / sizeof dists[0] && !c->stop; j++) {
            long dist = dists[j]; /* s = d + dist */
            if ((size_t)(dist < 0 ? -dist : dist) >= n)
                continue; /* not an overlap */
            /* d well inside the low pages; then d + n runs into the hole, then s does */
            unsigned char *bases[3] = {oa.lo + P + 1000, oa.hole - n / 2, oa.hole - n / 3 - (size_t)(dist > 0 ? dist : 0)};
            for (int b = 0; b < 3 && !c->stop; b++) {
                unsigned char *d = bases[b];
                unsigned char *s = d + dist;
                if (s < oa.lo + UA_MARGIN || d < oa.lo + UA_MARGIN)
                    continue;
                memcpy(oa.lo, pattern, (size_t)(oa.hole - oa.lo));
                memcpy(oa.hole + P, pattern + (oa.hole + P - oa.lo), (size_t)(oa.end - oa.hole - P));
                size_t kd = ua_first_bad(&oa, d, n, 1), ks = ua_first_bad(&oa, s, n, 0);
                size_t done = kd < ks ? kd : ks;
                ua_cur_begin(c, d, s, n);
                size_t r = c->im->copy(d, s, n);
                ua_cur_end();
                c->cases++;
                size_t wrong = 0, first = 0;
                for (unsigned char *q = oa.lo; q < oa.end; q++) {
                    if (q == oa.hole) {
                        q += P - 1;
                        continue;
                    }
                    if (q >= d && q < d + done)
                        continue;
                    if (*q != pattern[q - oa.lo] && !wrong++)
                        first = (size_t)(q - oa.lo);
                }
                if (r != n - done || wrong) {
                    ua_fail(c);
                    if (!c->quiet && c->failures <= c->max_print)
                        printf("FAIL copy_user/%s [overlap] n=%zu s=d%+ld d=hole%+ld: expected r=%zu, got r=%zu; "
                               "%zu bytes changed outside [d, d + n - r) (first at arena+%zu)\n",
                               c->im->name, n, dist, (long)(d - oa.hole), n - done, r, wrong, first);
                }
            }
        }
    }
    /* leave the arena at UA_BG for ua_sweep */
    memset(oa.lo, UA_BG, (size_t)(oa.hole - oa.lo));
    memset(oa.hole + P, UA_BG, (size_t)(oa.end - oa.hole - P));
}

/* ---- SIGBUS: a file mapping truncated after mmap ----------------------------------------- */

static int tmp_file(void)
{
    const char *dir = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/altmem-uaccess-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0)
        ua_die("mkstemp");
    unlink(path);
    return fd;
}

static void write_all(int fd, const unsigned char *p, size_t n, off_t off)
{
    while (n) {
        ssize_t w = pwrite(fd, p, n, off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            ua_die("pwrite");
        p += w;
        n -= (size_t)w;
        off += w;
    }
}

#define FILE_PAGES 4

#if defined(__riscv)
/* Whether a vector load from a file page past EOF reaches a SIGBUS handler in
   this process.  Under qemu-user 10 it does not: its vector helpers touch the
   page from C, and QEMU stops ("QEMU internal SIGBUS {code=ADRERR}") instead
   of delivering the signal; scalar accesses are delivered.  Probed once in a
   child with a handler of its own and no altmem code, so a variant's own bug
   cannot hide behind it. */
static void probe_bus(int sig)
{
    (void)sig;
    _exit(0);
}

static int vector_sigbus_delivered(void)
{
    static int known = -1;
    if (known >= 0)
        return known;
    int fd = tmp_file();
    if (ftruncate(fd, (off_t)ua_page))
        ua_die("ftruncate");
    unsigned char *m = mmap(NULL, ua_page, PROT_READ, MAP_SHARED, fd, 0);
    if (m == MAP_FAILED)
        ua_die("mmap file");
    if (ftruncate(fd, 0))
        ua_die("ftruncate");
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        ua_die("fork");
    if (pid == 0) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = probe_bus;
        sigaction(SIGBUS, &sa, NULL);
        __asm__ volatile(".option push\n\t.option arch, +v\n\t"
                         "vsetivli zero, 8, e8, m1, ta, ma\n\tvle8.v v8, (%0)\n\t.option pop"
                         : : "r"(m) : "memory");
        _exit(1); /* no fault at all: not the platform this probe knows */
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    munmap(m, ua_page);
    close(fd);
    known = WIFEXITED(st) && WEXITSTATUS(st) == 0;
    return known;
}
#endif

/* A variant (or the entry bound to one) whose accesses are vector
   instructions, on a platform that cannot deliver SIGBUS from them: the part is
   skipped with the reason, never passed. */
static const char *sigbus_untestable(const struct ua_impl *im)
{
#if defined(__riscv)
    struct altmem_cpu_info cpu;
    altmem_cpu(&cpu);
    if (!(cpu.active & ALTMEM_FEAT_RVV))
        return NULL;
    const char *name = im->name;
    struct altmem_binding_info b;
    if (!strncmp(name, "altmem_", 7) && altmem_binding(im->r, &b) == 0)
        name = b.variant;
    if (strcmp(name, "rvv") != 0 || vector_sigbus_delivered())
        return NULL;
    return "this emulator does not deliver SIGBUS from a vector access (qemu-user: 'QEMU internal SIGBUS')";
#else
    (void)im;
    return NULL;
#endif
}

static void part_sigbus(struct ua_ctx *c)
{
    const char *why = sigbus_untestable(c->im);
    if (why) {
        printf("%-10s %-18s part sigbus skipped: %s\n", altmem_routine_name(c->im->r), c->im->name, why);
        return;
    }
    static int fd = -1;
    static unsigned char *content, *ref;
    static struct ua_arena d_open;
    size_t P = ua_page, F = FILE_PAGES * P;
    if (fd < 0) {
        fd = tmp_file();
        content = malloc(F);
        ref = malloc(F);
        if (!content || !ref)
            ua_die("malloc");
        /* Random bytes that are never UA_BG, from the source arena's generator. */
        memcpy(content, src_open.lo, F);
        ua_arena_make(&d_open, UA_OPEN, 0, FILE_PAGES + 1, FILE_PAGES + 1, 0);
    }
    size_t lens_full[] = {0, 1, 100, P - 1, P, P + 1, 2 * P + 777, 3 * P, 3 * P + 1, F - 1};
    size_t lens_quick[] = {0, 1, P, 2 * P + 777, F - 1};
    size_t *lens = ua_quick ? lens_quick : lens_full;
    size_t nlens = ua_quick ? sizeof lens_quick / sizeof lens_quick[0] : sizeof lens_full / sizeof lens_full[0];
    for (size_t li = 0; li < nlens && !c->stop; li++) {
        size_t L = lens[li], R = (L + P - 1) / P * P;
        /* What reading the mapping gives: the file up to L, zeros to the end of
           that page, SIGBUS from R on. */
        memcpy(ref, content, L);
        memset(ref + L, 0, F - L);
        for (int mode = 0; mode < 3 && !c->stop; mode++) {
            /* mode 0: copy from MAP_SHARED, 1: copy from MAP_PRIVATE, 2: clear into MAP_SHARED */
            if ((mode == 2) != (c->im->r == ALTMEM_CLEAR_USER))
                continue;
            if (ftruncate(fd, 0) || ftruncate(fd, (off_t)F))
                ua_die("ftruncate");
            write_all(fd, content, F, 0);
            int prot = mode == 2 ? PROT_READ | PROT_WRITE : PROT_READ;
            unsigned char *m = mmap(NULL, F, prot, mode == 1 ? MAP_PRIVATE : MAP_SHARED, fd, 0);
            if (m == MAP_FAILED)
                ua_die("mmap file");
            if (ftruncate(fd, (off_t)L))
                ua_die("ftruncate");
            size_t offs[] = {0, 1, 7, 8, 13, R ? R - 1 : 0, R ? R - 8 : 0, R ? R - 100 : 0, R, R + 1};
            size_t ns[] = {0, 1, 2, 7, 8, 9, 15, 16, 17, 31, 64, 65, 100, 101, 257, P - 1, P, P + 1, 2 * P + 3, F};
            size_t nns = ua_quick ? 12 : sizeof ns / sizeof ns[0];
            for (size_t oi = 0; oi < sizeof offs / sizeof offs[0] && !c->stop; oi++) {
                size_t so = offs[oi];
                if (so > F)
                    continue;
                for (size_t ni = 0; ni < nns && !c->stop; ni++) {
                    size_t n = ns[ni];
                    if (so + n > F)
                        continue;
                    size_t done = so >= R ? 0 : (R - so < n ? R - so : n);
                    char desc[96];
                    snprintf(desc, sizeof desc, "file mapping (%s, EOF %zu) + %zu",
                             mode == 0 ? "MAP_SHARED" : mode == 1 ? "MAP_PRIVATE" : "MAP_SHARED, clear", L, so);
                    if (mode < 2) {
                        unsigned char *d = d_open.lo + (so + n) % 16;
                        ua_cur_begin(c, d, m + so, n);
                        size_t r = c->im->copy(d, m + so, n);
                        ua_cur_end();
                        c->cases++;
                        ua_check_dst(c, d, &d_open, ref + so, n, done, r, desc);
                        continue;
                    }
                    ua_cur_begin(c, m + so, NULL, n);
                    size_t r = c->im->clear(m + so, n);
                    ua_cur_end();
                    c->cases++;
                    /* The mapping can be read up to R: zeros in [so, so + done),
                       the file (or zeros past EOF) elsewhere. */
                    size_t wrong = 0, first = 0;
                    for (size_t i = 0; i < R; i++) {
                        unsigned char want = i >= so && i < so + done ? 0 : ref[i];
                        if (m[i] != want && !wrong++)
                            first = i;
                    }
                    if (r != n - done || wrong) {
                        ua_fail(c);
                        if (c->failures <= c->max_print && !c->quiet)
                            printf("FAIL %s/%s [sigbus] n=%zu %s: expected r=%zu, got r=%zu; %zu bytes wrong, "
                                   "first at file offset %zu\n",
                                   altmem_routine_name(c->im->r), c->im->name, n, desc, n - done, r, wrong, first);
                    }
                    /* Back to the file's contents for the next case. */
                    if (so < R)
                        memcpy(m + so, ref + so, (so + n < R ? so + n : R) - so);
                }
            }
            if (mode == 2) {
                /* Writes into the last page past EOF must not have grown the file. */
                struct stat st;
                if (fstat(fd, &st) || (size_t)st.st_size != L) {
                    ua_fail(c);
                    if (!c->quiet)
                        printf("FAIL %s/%s [sigbus] file size %lld after clear_user, expected %zu\n",
                               altmem_routine_name(c->im->r), c->im->name, (long long)st.st_size, L);
                }
            }
            munmap(m, F);
        }
    }
}

/* ---- Driver ------------------------------------------------------------------------------ */

struct part {
    const char *name;
    void (*run)(struct ua_ctx *c);
    int known_bug; /* only with --part: shows a bug in src/ (see the part) */
};

static const struct part parts[] = {
    {"src_hole", part_src_hole, 0}, {"dst_hole", part_dst_hole, 0}, {"both", part_both, 0},
    {"wild", part_wild, 0},         {"large", part_large, 0},       {"sigbus", part_sigbus, 0},
    {"null_dst", part_null_dst, 0}, {"null_src", part_null_src, 0}, {"huge", part_huge, 0},
    {"thresholds", part_thresholds, 0}, {"overlap", part_overlap, 0},
};
#define NPARTS (sizeof parts / sizeof parts[0])

static const struct part *find_part(const char *name)
{
    for (size_t p = 0; p < NPARTS; p++)
        if (strcmp(parts[p].name, name) == 0)
            return &parts[p];
    return NULL;
}

static void run_parts(struct ua_ctx *c, const char *only_part)
{
    for (size_t p = 0; p < NPARTS && !c->stop; p++) {
        if (only_part ? strcmp(only_part, parts[p].name) != 0 : parts[p].known_bug)
            continue;
        unsigned long cases = c->cases, fails = c->failures;
        double t = ua_now();
        c->part = parts[p].name;
        parts[p].run(c);
        size_t stray = ua_sweep();
        if (stray) {
            ua_fail(c);
            if (!c->quiet)
                printf("FAIL %s/%s [%s]: %zu destination bytes written outside every case's window\n",
                       altmem_routine_name(c->im->r), c->im->name, parts[p].name, stray);
        }
        if (ua_verbose)
            printf("    %-10s %-18s %-9s %9lu cases %6lu failures %7.2f s\n", altmem_routine_name(c->im->r),
                   c->im->name, parts[p].name, c->cases - cases, c->failures - fails, ua_now() - t);
    }
}

/* ---- Negative controls ------------------------------------------------------------------- */

static altmem_copy_user_fn *real_copy;
static altmem_clear_user_fn *real_clear;

static size_t bk_round8(void *d, const void *s, size_t n)
{
    size_t r = real_copy(d, s, n);
    if (r % 8)
        r = r + 8 - r % 8 > n ? n : r + 8 - r % 8; /* the kernel's old 8-byte granularity */
    return r;
}

static size_t bk_past_prefix(void *d, const void *s, size_t n)
{
    size_t r = real_copy(d, s, n);
    if (r)
        real_clear((unsigned char *)d + n - r, 1); /* writes the first byte not done, if it can */
    return r;
}

static size_t bk_ret0(void *d, const void *s, size_t n)
{
    real_copy(d, s, n);
    return 0;
}

static size_t bk_ret_n(void *d, const void *s, size_t n)
{
    return real_copy(d, s, n) ? n : 0; /* any fault: "nothing done" */
}

static size_t bk_off_by_one(void *d, const void *s, size_t n)
{
    size_t r = real_copy(d, s, n);
    return r && r < n ? r + 1 : r;
}

static size_t bk_drop_last(void *d, const void *s, size_t n)
{
    size_t r = real_copy(d, s, n);
    if (r && r < n)
        ((unsigned char *)d)[n - r - 1] = UA_BG; /* the last byte of the prefix left out */
    return r;
}

/* A fast path without the byte fix-up: words, and a fault stops at the word. */
static size_t bk_words(void *d, const void *s, size_t n)
{
    for (size_t i = 0; i < n; i += 8) {
        size_t w = n - i < 8 ? n - i : 8;
        unsigned char tmp[8];
        if (real_copy(tmp, (const unsigned char *)s + i, w))
            return n - i;
        if (real_copy((unsigned char *)d + i, tmp, w))
            return n - i;
    }
    return 0;
}

static size_t bk_plain(void *d, const void *s, size_t n)
{
    unsigned char *dd = d;
    const volatile unsigned char *ss = s;
    for (size_t i = 0; i < n; i++)
        dd[i] = ss[i];
    return 0;
}

static size_t bk_overread(void *d, const void *s, size_t n)
{
    unsigned char t;
    size_t r = real_copy(d, s, n);
    if (!r && n && real_copy(&t, (const unsigned char *)s + n, 1))
        return 1; /* a look at the byte after the buffer counted as its own */
    return r;
}

static size_t bk_underread(void *d, const void *s, size_t n)
{
    unsigned char t;
    if (n && real_copy(&t, (const unsigned char *)s - 1, 1))
        return n;
    return real_copy(d, s, n);
}

static size_t bk_overwrite_end(void *d, const void *s, size_t n)
{
    size_t r = real_copy(d, s, n);
    if (!r && n % 16 == 5)
        real_clear((unsigned char *)d + n, 1);
    return r;
}

/* Goes on after the destination's hole, as if it were a gap to skip. */
static size_t bk_skip_hole(void *d, const void *s, size_t n)
{
    size_t r = real_copy(d, s, n);
    size_t done = n - r, P = ua_page;
    if (r > P)
        real_copy((unsigned char *)d + done + P, (const unsigned char *)s + done + P, r - P);
    return r;
}

static size_t bkc_round8(void *d, size_t n)
{
    size_t r = real_clear(d, n);
    if (r % 8)
        r = r + 8 - r % 8 > n ? n : r + 8 - r % 8;
    return r;
}

static size_t bkc_ret0(void *d, size_t n)
{
    real_clear(d, n);
    return 0;
}

static size_t bkc_ret_n(void *d, size_t n)
{
    return real_clear(d, n) ? n : 0;
}

static size_t bkc_drop_last(void *d, size_t n)
{
    size_t r = real_clear(d, n);
    if (r && r < n)
        ((unsigned char *)d)[n - r - 1] = UA_BG;
    return r;
}

static size_t bkc_words(void *d, size_t n)
{
    for (size_t i = 0; i < n; i += 8) {
        size_t w = n - i < 8 ? n - i : 8;
        unsigned char t;
        /* probe the word's last byte first, as a whole-word store would */
        if (real_copy(&t, (unsigned char *)d + i + w - 1, 1) ||
            real_clear((unsigned char *)d + i + w - 1, 1))
            return n - i;
        real_clear((unsigned char *)d + i, w);
    }
    return 0;
}

static size_t bkc_plain(void *d, size_t n)
{
    volatile unsigned char *dd = d;
    for (size_t i = 0; i < n; i++)
        dd[i] = 0;
    return 0;
}

static size_t bkc_last_byte(void *d, size_t n)
{
    size_t r = real_clear(d, n);
    if (r > 1)
        real_clear((unsigned char *)d + n - 1, 1); /* the buffer's last byte, past the hole */
    return r;
}

static size_t bkc_skip_hole(void *d, size_t n)
{
    size_t r = real_clear(d, n);
    size_t done = n - r, P = ua_page;
    if (r > P)
        real_clear((unsigned char *)d + done + P, r - P);
    return r;
}

/* The huge-n bug of the x86 vector variants: the tail stored below dst, r = 0. */
static size_t bk_huge_wrap(void *d, const void *s, size_t n)
{
    if (n <= SIZE_MAX / 2)
        return real_copy(d, s, n);
    real_copy((unsigned char *)d - 1, s, 1);
    return 0;
}

/* Loop bounds from d + n: a wrapping n copies nothing and claims nothing done. */
static size_t bkc_huge_n(void *d, size_t n)
{
    if (n > UINTPTR_MAX - (uintptr_t)d)
        return n;
    return real_clear(d, n);
}

enum expect { EXPECT_FAIL, EXPECT_FAULT };

/* Planted at fault points --reduced claims: a wrong count when the fault is
   129 bytes in (a loop's third 64-byte block), or 2049 (past 8 x a 256-byte
   vector).  The quick and full ranges reach these only by chance. */
static size_t bk_k129(void *d, const void *s, size_t n)
{
    size_t r = real_copy(d, s, n);
    return r && n - r == 129 ? r + 1 : r;
}

static size_t bkc_k2049(void *d, size_t n)
{
    size_t r = real_clear(d, n);
    return r && n - r == 2049 ? r + 1 : r;
}

struct broken {
    const char *name;
    const char *what;
    struct ua_impl im;
    const char *part;
    enum expect expect;
    int reduced_only; /* a --reduced boundary: run by --self-test --reduced only */
};

#define BKC(n, w, f, p, e) {n, w, {"broken:" n, ALTMEM_COPY_USER, f, NULL}, p, e, 0}
#define BKZ(n, w, f, p, e) {n, w, {"broken:" n, ALTMEM_CLEAR_USER, NULL, f}, p, e, 0}
static const struct broken broken[] = {
    {"fault-129", "r one too many after 129 bytes", {"broken:fault-129", ALTMEM_COPY_USER, bk_k129, NULL},
     "src_hole", EXPECT_FAIL, 1},
    {"fault-2049", "r one too many after 2049 bytes", {"broken:fault-2049", ALTMEM_CLEAR_USER, NULL, bkc_k2049},
     "dst_hole", EXPECT_FAIL, 1},
    BKC("round8", "r rounded up to 8 bytes", bk_round8, "src_hole", EXPECT_FAIL),
    BKC("round8", "r rounded up to 8 bytes", bk_round8, "sigbus", EXPECT_FAIL),
    BKC("past-prefix", "writes the first byte not done", bk_past_prefix, "src_hole", EXPECT_FAIL),
    BKC("ret0", "returns 0", bk_ret0, "src_hole", EXPECT_FAIL),
    BKC("ret0", "returns 0", bk_ret0, "dst_hole", EXPECT_FAIL),
    BKC("ret0", "returns 0", bk_ret0, "wild", EXPECT_FAIL),
    BKC("ret0", "returns 0", bk_ret0, "sigbus", EXPECT_FAIL),
    BKC("ret-n", "any fault: returns n", bk_ret_n, "dst_hole", EXPECT_FAIL),
    BKC("off-by-one", "r one too many", bk_off_by_one, "dst_hole", EXPECT_FAIL),
    BKC("off-by-one", "r one too many", bk_off_by_one, "both", EXPECT_FAIL),
    BKC("drop-last", "last byte of the prefix not written", bk_drop_last, "src_hole", EXPECT_FAIL),
    BKC("words", "fault stops at the word, no byte fix-up", bk_words, "src_hole", EXPECT_FAIL),
    BKC("words", "fault stops at the word, no byte fix-up", bk_words, "dst_hole", EXPECT_FAIL),
    BKC("words", "fault stops at the word, no byte fix-up", bk_words, "large", EXPECT_FAIL),
    BKC("words", "fault stops at the word, no byte fix-up", bk_words, "sigbus", EXPECT_FAIL),
    BKC("plain", "not fault-tolerant: a byte loop", bk_plain, "src_hole", EXPECT_FAULT),
    BKC("plain", "not fault-tolerant: a byte loop", bk_plain, "sigbus", EXPECT_FAULT),
    BKC("overread", "counts the byte after the buffer", bk_overread, "src_hole", EXPECT_FAIL),
    BKC("underread", "counts the byte before the buffer", bk_underread, "src_hole", EXPECT_FAIL),
    BKC("overwrite-end", "writes dst[n] when n % 16 == 5", bk_overwrite_end, "src_hole", EXPECT_FAIL),
    BKC("skip-hole", "goes on past the destination's hole", bk_skip_hole, "dst_hole", EXPECT_FAIL),
    BKZ("round8", "r rounded up to 8 bytes", bkc_round8, "dst_hole", EXPECT_FAIL),
    BKZ("ret0", "returns 0", bkc_ret0, "dst_hole", EXPECT_FAIL),
    BKZ("ret0", "returns 0", bkc_ret0, "sigbus", EXPECT_FAIL),
    BKZ("ret-n", "any fault: returns n", bkc_ret_n, "dst_hole", EXPECT_FAIL),
    BKZ("drop-last", "last byte of the prefix not cleared", bkc_drop_last, "dst_hole", EXPECT_FAIL),
    BKZ("words", "fault stops at the word, no byte fix-up", bkc_words, "dst_hole", EXPECT_FAIL),
    BKZ("words", "fault stops at the word, no byte fix-up", bkc_words, "sigbus", EXPECT_FAIL),
    BKZ("plain", "not fault-tolerant: a byte loop", bkc_plain, "dst_hole", EXPECT_FAULT),
    BKZ("last-byte", "clears the buffer's last byte past the hole", bkc_last_byte, "dst_hole", EXPECT_FAIL),
    BKZ("skip-hole", "goes on past the hole", bkc_skip_hole, "dst_hole", EXPECT_FAIL),
    BKZ("ret0", "returns 0", bkc_ret0, "wild", EXPECT_FAIL),
    BKC("huge-wrap", "n > SIZE_MAX/2: stores below dst, r = 0", bk_huge_wrap, "huge", EXPECT_FAIL),
    BKC("ret0", "returns 0", bk_ret0, "thresholds", EXPECT_FAIL),
    BKZ("huge-n", "d + n wraps: clears nothing, r = n", bkc_huge_n, "huge", EXPECT_FAIL),
    BKZ("round8", "r rounded up to 8 bytes", bkc_round8, "thresholds", EXPECT_FAIL),
    BKC("overwrite-end", "writes dst[n] when n % 16 == 5", bk_overwrite_end, "overlap", EXPECT_FAIL),
    BKC("off-by-one", "r one too many", bk_off_by_one, "overlap", EXPECT_FAIL),
};
#undef BKC
#undef BKZ

static int self_test_child(void *arg)
{
    const struct broken *bk = arg;
    struct ua_ctx c = {.im = &bk->im, .max_print = 1, .stop_on_failure = 1};
    run_parts(&c, bk->part);
    return c.failures ? 0 : 3;
}

static int self_test(void)
{
    size_t bad = 0, skipped = 0, total = sizeof broken / sizeof broken[0];
    for (size_t i = 0; i < total; i++) {
        const struct broken *bk = &broken[i];
        if (bk->reduced_only && !reduced) {
            skipped++;
            continue;
        }
        if (find_part(bk->part)->known_bug) {
            printf("selftest %-10s %-13s [%-8s] skipped: the part is left out of this build's runs\n",
                   altmem_routine_name(bk->im.r), bk->name, bk->part);
            skipped++;
            continue;
        }
        double t = ua_now();
        int st = ua_run_child(self_test_child, (void *)bk);
        int ok;
        const char *got;
        char buf[64];
        if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
            got = "failures reported";
            ok = bk->expect == EXPECT_FAIL;
        } else if (WIFEXITED(st) && WEXITSTATUS(st) == 3) {
            got = "NOT DETECTED";
            ok = 0;
        } else if (WIFSIGNALED(st) && (WTERMSIG(st) == SIGSEGV || WTERMSIG(st) == SIGBUS)) {
            got = WTERMSIG(st) == SIGSEGV ? "died of SIGSEGV" : "died of SIGBUS";
            ok = bk->expect == EXPECT_FAULT;
        } else {
            got = ua_status_str(st, buf, sizeof buf);
            ok = 0;
        }
        printf("selftest %-10s %-13s [%-8s] %-44s expected %-5s -> %-17s %s (%.2f s)\n",
               altmem_routine_name(bk->im.r), bk->name, bk->part, bk->what,
               bk->expect == EXPECT_FAIL ? "FAIL" : "FAULT", got, ok ? "ok" : "WRONG", ua_now() - t);
        bad += !ok;
    }
    printf("uaccess self-test%s: %zu broken implementations, %zu caught as expected, %zu not, %zu skipped: %s\n",
           reduced ? " (--reduced)" : "", total - skipped, total - skipped - bad, bad, skipped,
           bad ? "FAILED" : "passed");
    return bad ? 1 : 0;
}

static void usage(const char *prog)
{
    printf("usage: %s [--quick | --reduced] [--only NAME] [--part NAME] [--nt BYTES] [--split-streaming 0|1] [-v] |"
           " --self-test\n  parts:", prog);
    for (size_t p = 0; p < NPARTS; p++)
        printf(" %s", parts[p].name);
    printf("\n");
}

int main(int argc, char **argv)
{
    ua_init();
    int selftest = 0, nt_given = 0;
    size_t nt_override = 0;
    const char *only = NULL, *only_part = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--self-test") == 0) {
            selftest = 1;
        } else if (strcmp(argv[i], "--quick") == 0) {
            ua_quick = 1;
        } else if (strcmp(argv[i], "--reduced") == 0) {
            reduced = 1;
        } else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
            only = argv[++i];
        } else if (strcmp(argv[i], "--part") == 0 && i + 1 < argc) {
            only_part = argv[++i];
            if (!find_part(only_part)) {
                fprintf(stderr, "%s: no part '%s'\n", argv[0], only_part);
                return 2;
            }
        } else if (strcmp(argv[i], "--nt") == 0 && i + 1 < argc) {
            nt_override = strtoull(argv[++i], NULL, 0);
            nt_given = 1;
        } else if (strcmp(argv[i], "--split-streaming") == 0 && i + 1 < argc &&
                   (strcmp(argv[i + 1], "0") == 0 || strcmp(argv[i + 1], "1") == 0)) {
            split_streaming = argv[++i][0] - '0';
        } else if (strcmp(argv[i], "-v") == 0) {
            ua_verbose = 1;
        } else {
            usage(argv[0]);
            return strcmp(argv[i], "--help") == 0 ? 0 : 2;
        }
    }
    /* The self-test's broken routines are caught at the quick ranges too. */
    if (ua_quick || selftest || reduced)
        set_quick();
    if (reduced) {
        ua_quick = 1; /* the other parts' quick lists */
        set_reduced();
    }
    nsizes = sizes(size_list, sizeof size_list / sizeof size_list[0]);

    /* Ours first, so that altmem chains to it for a fault it does not own. */
    ua_install_reporter();
    if (altmem_uaccess_install() != 0)
        ua_die("altmem_uaccess_install");
    make_arenas();
    if (nt_given) {
        nt_set(nt_override);
        printf("uaccess: non-temporal stores from %zu bytes (--nt)\n", nt_override);
    }
    if (split_streaming >= 0) {
        __atomic_store_n(&altmem__copy_split_loads_streaming, (size_t)split_streaming, __ATOMIC_RELEASE);
        printf("uaccess: the 64-byte copy_user streams %s (--split-streaming)\n",
               split_streaming ? "by the 32-byte variant where src and dst are apart mod 64" : "with its own loop");
    }

    struct altmem_binding_info b1, b2;
    altmem_binding(ALTMEM_COPY_USER, &b1);
    altmem_binding(ALTMEM_CLEAR_USER, &b2);
    printf("uaccess: page %zu, %zu sizes 0..%zu%s; altmem_copy_user bound to %s, altmem_clear_user to %s\n", ua_page,
           nsizes, size_list[nsizes - 1], reduced ? " (--reduced)" : ua_quick ? " (--quick)" : "", b1.variant,
           b2.variant);

    if (selftest) {
        struct ua_impl g[2];
        if (ua_impls(ALTMEM_COPY_USER, "generic", g, 1) != 1 || ua_impls(ALTMEM_CLEAR_USER, "generic", g + 1, 1) != 1) {
            printf("no generic variants\n");
            return 2;
        }
        real_copy = g[0].copy;
        real_clear = g[1].clear;
        return self_test();
    }

    unsigned long cases = 0, failures = 0;
    size_t tested = 0;
    double t0 = ua_now();
    static const enum altmem_routine routines[2] = {ALTMEM_COPY_USER, ALTMEM_CLEAR_USER};
    for (int ri = 0; ri < 2; ri++) {
        struct ua_impl ims[16];
        size_t k = ua_impls(routines[ri], only, ims, 16);
        for (size_t i = 0; i < k; i++) {
            struct ua_ctx c = {.im = &ims[i], .max_print = 10};
            double t = ua_now();
            run_parts(&c, only_part);
            printf("%-10s %-18s %9lu cases %6lu failures %7.2f s\n", altmem_routine_name(ims[i].r), ims[i].name,
                   c.cases, c.failures, ua_now() - t);
            cases += c.cases;
            failures += c.failures;
            tested++;
        }
    }
    if (!tested) {
        printf("uaccess: nothing matched --only %s\n", only ? only : "");
        return 2;
    }
    printf("uaccess: %zu implementations, %lu cases, %lu failures, %lu unmapped holes found refilled (arena made "
           "again, case repeated), %.2f s: %s\n",
           tested, cases, failures, ua_refills(), ua_now() - t0, failures ? "FAILED" : "passed");
    return failures ? 1 : 0;
}
