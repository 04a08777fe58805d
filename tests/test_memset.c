/*
 * memset: every runnable variant, called through the variant table, and the
 * public altmem_memset.  Besides sizes, offsets and guard pages (as for the
 * copies), the fill value: all 256 bytes, and ints outside 0..255, of which only
 * the low byte may count.  `test_memset --self-test` proves the checker catches
 * broken memsets.
 */
#include "policy.h"
#include "testlib.h"

#include <limits.h>
#include <stdint.h>
#include <string.h>

/* A fill value that differs from the background, so that every byte the
   routine fails to store is seen; it varies with the case so that many values
   pass through every size class. */
static int fill_for(size_t n, size_t off)
{
    int v = (int)((n * 37 + off * 101 + 0x5a) & 0xff);
    return v == tl_env.dst.bg ? v ^ 0x80 : v;
}

static void part_zero(struct tl_ctx *c)
{
    struct tl_buf *db = &tl_env.dst;
    for (size_t o = 0; o < tl_lim.offsets; o++)
        tl_set(c, db, db->mem + tl_env.page + o, 0x5a, 0);
    tl_set(c, db, db->mem, 0, 0);
    tl_set(c, db, tl_buf_end(db, 0), 0xff, 0);
    tl_zero(c, db, db->mem - 1, NULL, 0x11);
    tl_zero(c, db, NULL, NULL, 0);
    tl_zero(c, db, NULL, NULL, INT_MIN);
    tl_zero(c, db, (void *)(uintptr_t)1, NULL, -1);
    tl_zero(c, db, (void *)(UINTPTR_MAX - 6), NULL, 0x5a);
}

static void part_guard(struct tl_ctx *c)
{
    struct tl_buf *db = &tl_env.dst;
    for (size_t i = 0; i < tl_nsizes; i++) {
        size_t n = tl_sizes[i];
        tl_set(c, db, tl_buf_end(db, n), fill_for(n, 0), n); /* over-write faults  */
        tl_set(c, db, db->mem, fill_for(n, 1), n);           /* under-write faults */
    }
}

static void part_sweep(struct tl_ctx *c)
{
    struct tl_buf *db = &tl_env.dst;
    unsigned char *base = db->mem + tl_env.page;
    for (size_t i = 0; i < tl_nsizes && !c->stop; i++) {
        size_t n = tl_sizes[i];
        for (size_t o = 0; o < tl_lim.offsets; o++)
            tl_set(c, db, base + o, fill_for(n, o), n);
        if (tl_lim.reduced) /* the other ends of a 64-byte line */
            for (size_t o = 48; o < 64; o += 15)
                tl_set(c, db, base + o, fill_for(n, o), n);
    }
}

/* Every byte value, given as itself, as the negative int with the same low byte,
   and with junk above it; the background is switched when it would equal c. */
static void part_values(struct tl_ctx *c)
{
    static const size_t ns[] = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 63, 64, 65, 127, 128,
                                129, 255, 256, 1000, 4097};
    static const size_t offs[] = {0, 1, 3, 7, 63};
    struct tl_buf *db = &tl_env.dst;
    for (int b = 0; b < 256 && !c->stop; b++) {
        tl_buf_set_bg(db, b == TL_BG ? 0x11 : TL_BG);
        const int vs[] = {b, b - 256, (int)(0x5a5a5a00u | (unsigned)b)};
        for (size_t v = 0; v < sizeof vs / sizeof vs[0]; v++)
            for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
                if (tl_lim.reduced) { /* one offset, rotating with the value and size */
                    tl_set(c, db, db->mem + tl_env.page + offs[(b + i) % 5], vs[v], ns[i]);
                    continue;
                }
                for (size_t o = 0; o < sizeof offs / sizeof offs[0]; o++)
                    tl_set(c, db, db->mem + tl_env.page + offs[o], vs[v], ns[i]);
            }
    }
    tl_buf_set_bg(db, TL_BG);
}

/* c outside 0..255 (the low bytes differ from TL_BG) at every small size. */
static void part_wide(struct tl_ctx *c)
{
    static const int vs[] = {256 + 0x5a, -1, -256, INT_MIN, INT_MAX, 0x12345678, 0x100, 0x1ff, -129,
                             0x7fffff80, (int)0x80000001u};
    struct tl_buf *db = &tl_env.dst;
    for (size_t v = 0; v < sizeof vs / sizeof vs[0]; v++)
        for (size_t i = 0; i < tl_sizes_upto(300); i++)
            for (size_t o = 0; o < 16; o++)
                tl_set(c, db, db->mem + tl_env.page + o, vs[v], tl_sizes[i]);
}

static void part_large(struct tl_ctx *c)
{
    /* Above 1 MiB only the first two offsets, to keep the run short. */
    static const size_t offs[] = {0, 1, 7, 63};
    struct tl_buf *db = &tl_env.dst;
    size_t sizes[160];
    size_t count = tl_large_sizes(sizes, sizeof sizes / sizeof sizes[0]);
    for (size_t i = 0; i < count && !c->stop; i++) {
        size_t n = sizes[i];
        size_t noffs = n <= TL_MIB ? sizeof offs / sizeof offs[0] : 2;
        for (size_t o = 0; o < noffs; o++)
            tl_set(c, db, db->mem + tl_env.page + offs[o], fill_for(n, o), n);
        /* Flush against the guard page: a loop storing past its end faults. */
        tl_set(c, db, tl_buf_end(db, n), fill_for(n, 64), n);
    }
}

/* Sets whose first or last bytes lie just across a 4 KiB boundary: dst
   starting 1..64 bytes before one, or ending 1..256 bytes after one (every
   offset to 64, then every 7th), where the x86_64 loop stores its ends as
   pieces so that no store splits a page. */
static void part_page_ends(struct tl_ctx *c)
{
    static const size_t sizes[] = {520, 777, 1029, 4096, 4099, 8192 + 61};
    struct tl_buf *db = &tl_env.dst;
    unsigned char *page2 = db->mem + 4 * tl_env.page;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0] && !c->stop; i++) {
        size_t n = sizes[i];
        for (size_t e = 1; e <= 256; e += e < 64 ? 1 : 7)
            tl_set(c, db, page2 + e - n, fill_for(n, e), n);
        for (size_t h = 1; h <= 64; h++)
            tl_set(c, db, page2 - h, fill_for(n, h), n);
    }
}

/* Sizes around lowered non-temporal thresholds, at several dst offsets, and
   flush against the guard page (testlib.h: tl_nt_thresholds). */
static void part_nt(struct tl_ctx *c)
{
    static const size_t offs[] = {0, 1, 3, 17, 32, 63};
    struct tl_buf *db = &tl_env.dst;
    for (size_t ti = 0; ti < tl_nt_threshold_count && !c->stop; ti++) {
        tl_nt_set(tl_nt_thresholds[ti]);
        size_t sizes[16];
        size_t count = tl_nt_sizes(tl_nt_thresholds[ti], sizes, 16);
        for (size_t i = 0; i < count; i++) {
            size_t n = sizes[i];
            for (size_t o = 0; o < sizeof offs / sizeof offs[0]; o++)
                tl_set(c, db, db->mem + tl_env.page + offs[o], fill_for(n, o), n);
            tl_set(c, db, tl_buf_end(db, n), fill_for(n, 64), n);
            tl_set(c, db, db->mem, fill_for(n, 65), n);
        }
    }
    tl_nt_set((size_t)-1);
}

/* Around rep stosb starts (set through ALTMEM_TUNABLES), never streaming. */
static void part_string(struct tl_ctx *c)
{
    static const size_t offs[] = {0, 1, 3, 17, 32, 63};
    struct tl_buf *db = &tl_env.dst;
    for (size_t ti = 0; ti < tl_string_threshold_count && !c->stop; ti++) {
        tl_string_set(tl_string_thresholds[ti], 0);
        size_t sizes[16];
        size_t count = tl_nt_sizes(tl_string_thresholds[ti], sizes, 16);
        for (size_t i = 0; i < count; i++) {
            size_t n = sizes[i];
            for (size_t o = 0; o < sizeof offs / sizeof offs[0]; o++)
                tl_set(c, db, db->mem + tl_env.page + offs[o], fill_for(n, o), n);
            tl_set(c, db, tl_buf_end(db, n), fill_for(n, 64), n);
        }
    }
    tl_policy_set(NULL);
}

/* The 64-byte memset with its lines on and off (altmem__memset_lines_mask 63 and
   0, as src/policy.c installs it: amd-zen5 turns them off): 257..3 KiB at every
   dst offset of a line, and flush against the guard page after. */
static void part_lines(struct tl_ctx *c)
{
    struct tl_buf *db = &tl_env.dst;
    unsigned char *base = db->mem + tl_env.page;
    static const size_t sizes[] = {257, 300, 320, 383, 384, 385, 448, 511, 512, 513, 576, 700, 768, 1000, 1024, 3000};
    const size_t was = altmem__memset_lines_mask;
    for (size_t mask = 0; mask < 64 && !c->stop; mask += 63) {
        __atomic_store_n(&altmem__memset_lines_mask, mask, __ATOMIC_RELEASE);
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0] && !c->stop; i++) {
            size_t n = sizes[i];
            for (size_t o = 0; o < 64; o += tl_lim.reduced ? 21 : 1)
                tl_set(c, db, base + o, fill_for(n, o), n);
            tl_set(c, db, tl_buf_end(db, n), fill_for(n, 64), n);
        }
    }
    __atomic_store_n(&altmem__memset_lines_mask, was, __ATOMIC_RELEASE);
}

static const struct tl_part parts[] = {
    {"zero", part_zero},     /* n == 0 with NULL and guard-page pointers  */
    {"guard", part_guard},   /* windows flush against PROT_NONE pages     */
    {"sweep", part_sweep},   /* n 0..1024 x dst offset 0..63              */
    {"values", part_values}, /* all 256 fill bytes, as three ints each    */
    {"wide", part_wide},     /* c outside 0..255: only the low byte counts */
    {"large", part_large},   /* 2 KiB .. 64 MiB                           */
    {"page-ends", part_page_ends}, /* first or last bytes across a page */
    {"nt", part_nt},         /* around lowered non-temporal thresholds    */
    {"string", part_string}, /* around rep stosb starts                   */
    {"lines", part_lines},   /* the 64-byte memset's lines on and off     */
};

/* ---- Broken memsets: each right but for one bug ---- */

static void *set_bytes(unsigned char *d, int c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        d[i] = (unsigned char)c;
    return d;
}

/* Words from the whole int, bytes for the tail. */
static void *bk_nomask(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    uint64_t w = (uint64_t)c * UINT64_C(0x0101010101010101);
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        memcpy(d + i, &w, 8);
    set_bytes(d + i, c, n - i);
    return dst;
}

/* Words from a sign-extended char: wrong for bytes 0x80..0xff. */
static void *bk_signext(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    uint64_t w = (uint64_t)(int64_t)(signed char)c * UINT64_C(0x0101010101010101);
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        memcpy(d + i, &w, 8);
    set_bytes(d + i, c, n - i);
    return dst;
}

static void *bk_overwrite(void *dst, int c, size_t n)
{
    set_bytes(dst, c, n + (n % 8 == 5));
    return dst;
}

static void *bk_underwrite(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    if (n % 16 == 3)
        d[-1] = (unsigned char)c;
    return set_bytes(d, c, n);
}

static void *bk_drop_last(void *dst, int c, size_t n)
{
    set_bytes(dst, c, n - (n == 777));
    return dst;
}

static void *bk_wrong_byte(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    set_bytes(d, c, n);
    if (n > 300)
        d[300] ^= 0x20;
    return dst;
}

static void *bk_dst_misalign(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    if ((uintptr_t)d % 8 == 3 && n >= 2) /* a head loop that stops one short */
        return set_bytes(d + 1, c, n - 1) - 1;
    return set_bytes(d, c, n);
}

static void *bk_ret_end(void *dst, int c, size_t n)
{
    return set_bytes(dst, c, n) + n;
}

static void *bk_ret_null0(void *dst, int c, size_t n)
{
    return n ? set_bytes(dst, c, n) : NULL;
}

static void *bk_touch0(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    d[0] = (unsigned char)c;
    return set_bytes(d, c, n);
}

static void *bk_huge_block(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    for (size_t i = 0; i < n; i++)
        if (n <= 32 * TL_MIB || i / 64 != n / 128)
            d[i] = (unsigned char)c;
    return dst;
}

/* Planted at the boundaries --reduced claims (testlib.h: tl_sizes). */
static void *bk_edge257(void *dst, int c, size_t n)
{
    return tl_ref_memset(dst, c, n - (n == 257));
}

static void *bk_strip2048(void *dst, int c, size_t n)
{
    return tl_ref_memset(dst, c, n - (n == 2048)); /* 8 x a 256-byte vector */
}

static void *bk_dst13(void *dst, int c, size_t n)
{
    return tl_ref_memset(dst, c, n - ((uintptr_t)dst % 16 == 13 && n > 16));
}

static const struct tl_broken broken[] = {
    {"edge-257", "leaves the last byte when n == 257", {.memset = bk_edge257}, "sweep", TL_EXPECT_FAIL, NULL, 1},
    {"strip-2048", "leaves the last byte when n == 2048", {.memset = bk_strip2048}, "sweep", TL_EXPECT_FAIL, NULL,
     1},
    {"dst-13", "leaves the last byte when dst % 16 == 13", {.memset = bk_dst13}, "sweep", TL_EXPECT_FAIL, NULL, 1},
    {"nomask", "builds words from the whole int", {.memset = bk_nomask}, "wide", TL_EXPECT_FAIL, NULL, 0},
    {"signext", "sign-extends c to build words", {.memset = bk_signext}, "values", TL_EXPECT_FAIL, NULL, 0},
    {"overwrite", "writes dst[n] when n % 8 == 5", {.memset = bk_overwrite}, "sweep", TL_EXPECT_FAIL, NULL, 0},
    {"overwrite", "writes dst[n] when n % 8 == 5", {.memset = bk_overwrite}, "guard", TL_EXPECT_FAULT, NULL, 0},
    {"underwrite", "writes dst[-1] when n % 16 == 3", {.memset = bk_underwrite}, "sweep", TL_EXPECT_FAIL, NULL, 0},
    {"underwrite", "writes dst[-1] when n % 16 == 3", {.memset = bk_underwrite}, "guard", TL_EXPECT_FAULT, NULL, 0},
    {"drop-last", "leaves the last byte when n == 777", {.memset = bk_drop_last}, "sweep", TL_EXPECT_FAIL,
     "777 is no boundary", 0},
    {"wrong-byte", "flips a bit of dst[300] when n > 300", {.memset = bk_wrong_byte}, "sweep", TL_EXPECT_FAIL, NULL, 0},
    {"dst-misalign", "leaves dst[0] when dst % 8 == 3", {.memset = bk_dst_misalign}, "sweep", TL_EXPECT_FAIL, NULL, 0},
    {"return-end", "returns dst + n", {.memset = bk_ret_end}, "sweep", TL_EXPECT_FAIL, NULL, 0},
    {"return-null0", "returns NULL when n == 0", {.memset = bk_ret_null0}, "zero", TL_EXPECT_FAIL, NULL, 0},
    {"touch0", "stores one byte when n == 0", {.memset = bk_touch0}, "zero", TL_EXPECT_FAIL, NULL, 0},
    {"huge-block", "skips a 64-byte block when n > 32 MiB", {.memset = bk_huge_block}, "large", TL_EXPECT_FAIL,
     "past --reduced's largest size", 0},
};

int main(int argc, char **argv)
{
    return tl_main(argc, argv, ALTMEM_MEMSET, parts, sizeof parts / sizeof parts[0], broken,
                   sizeof broken / sizeof broken[0]);
}
