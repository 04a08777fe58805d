/*
 * fuzz_mem: memcpy / memmove / memset, every runnable variant of the variant table
 * (altmem_variant()) and the public entry points, against byte loops.
 *
 * Buffers: a source area (read-only, random bytes) and a destination area (random
 * resting bytes of another stream, with a mirror), each MAX_N plus two pages, with a
 * PROT_NONE guard page before and after.  A window of n bytes sits `off` (0..127)
 * bytes from the area's start, or `off` bytes before its end (off = 0: flush against
 * the guard page, so one byte read or written too many faults).  The reference is
 * applied to the mirror, the routine to the area; then the WHOLE destination area
 * must equal the mirror (the window is the reference result, every other byte, the
 * sentinels around the window included, unchanged), the return value must be dst,
 * and a memcpy source must be untouched (it is read-only: a write faults).  The
 * window is put back afterwards, so an execution costs O(n) plus one compare of the
 * area (about 270 KiB).
 *
 * The policy thresholds are set per input through ALTMEM_TUNABLES (nt_threshold=,
 * memset_nt_threshold=, rep_movsb_threshold=, rep_stosb_threshold=,
 * rep_movsb_short_distance=; parsed by altmem__decide(), installed by
 * altmem__bind(): fuzz_common.h), relative to n (n - 1, n, n + 1, n / 2), or 0,
 * never, or the per-CPU rules' value; the short distance relative to
 * (dst - src) mod 4096.
 *
 * Input layout (bytes past the end read as 0):
 *    0  routine: % 3 (memcpy, memmove, memset)
 *    1  implementation: % count (the routine's runnable variants in table order,
 *       then the public entry; with FUZZ_PLANT=1 one broken memcpy/memmove/memset
 *       is appended: flips d[n - 1] when n % 64 == 33 -- the negative control);
 *       0xff: always the last one (fz_pick: the planted regression inputs select
 *       the broken one on any CPU)
 *    2  size class: % 16: 0-1 n = 0..16; 2-12 one of 32 64 128 256 512 1024 2048
 *       2112 4096 16384 32768, -1/0/+1; 13 one of 48K 64K 128K 192K 256K -1/0/+1;
 *       14 n = 0..MAX_N; 15 n = 17..4200
 *  3-5  size detail (24 bits, little-endian)
 *    6  source offset (& 127); memmove: offset of the src/dst pair
 *    7  destination offset (& 127)
 *    8  flags: bit 0 source window at the area's end (else start), bit 1 the same
 *       for the destination (memmove: for the pair); bit 2 with n == 0: pointers
 *       wild (bits 3-4: NULL, 1, the last page, 0x8000000000000000) -- the API
 *       allows any pointer when n == 0; bit 5 memmove: dst above src;
 *       bit 6 memcpy: src == dst
 *    9  memmove distance |dst - src| class: % 4: 0 small (0..127), 1 n - (0..127),
 *       2 0..n+256, 3 a multiple of 4096 +-(0..63) (the 4 KiB aliasing checks)
 * 10-12 distance detail (24 bits)
 * 13-14 memset c: (int)(int16_t)(b13 | b14 << 8) (c is converted to unsigned char)
 *   15  nt_threshold: % 8 (fz_threshold): 0 the rules' value, 1 zero, 2 n, 3 n + 1,
 *       4 n - 1, 5 never, 6 detail % (MAX_N + 1), 7 n / 2
 * 16-18 threshold detail (24 bits, shared by 15, 19, 20, 21, 22)
 *   19  memset_nt_threshold mode (as 15)
 *   20  rep_movsb_threshold mode (as 15)
 *   21  rep_stosb_threshold mode (as 15)
 *   22  rep_movsb_short_distance: % 8 (fz_short), relative to dist = (dst - src) mod
 *       4096: 0 the rules' value, 1 zero, 2 dist, 3 dist - 1, 4 dist + 1, 5 4095,
 *       6 detail % 4096, 7 63
 *
 * Seeds (tests/fuzz/corpus/fuzz_mem/, made by tests/fuzz/make_seeds.sh): one per
 * routine and size class, flush placements, overlapping memmoves both ways, each
 * threshold at n.
 */
#define _GNU_SOURCE
#define FZ_NAME "fuzz_mem"
#include "fuzz_common.h"

#include <sys/mman.h>
#include <unistd.h>

#define MAX_N ((size_t)256 * 1024 + 64)

static size_t page;
static size_t area;                  /* bytes in each area, a page multiple */
static unsigned char *src_area, *dst_area;
static unsigned char *mirror, *resting;

struct impl {
    const char *name;
    void *(*copy)(void *, const void *, size_t);
    void *(*set)(void *, int, size_t);
};
static struct impl impls[3][32];
static size_t n_impls[3];

static void *map_guarded(size_t n)
{
    unsigned char *m = mmap(NULL, n + 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) {
        perror("fuzz_mem: mmap");
        exit(2);
    }
    if (mprotect(m, page, PROT_NONE) || mprotect(m + page + n, page, PROT_NONE)) {
        perror("fuzz_mem: mprotect");
        exit(2);
    }
    return m + page;
}

static void fill(unsigned char *p, size_t n, uint64_t x)
{
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        p[i] = (unsigned char)(x >> 24);
    }
}

/* ---- The planted bugs (FUZZ_PLANT=1): the last byte wrong when n % 64 == 33 ----
   (inside dst: a byte past it can be the guard page, and a crash is not the
   harness finding the self-test looks for) */

static altmem_memcpy_fn *gen_copy;
static altmem_memmove_fn *gen_move;
static altmem_memset_fn *gen_set;

static void *broken_memcpy(void *d, const void *s, size_t n)
{
    void *r = gen_copy(d, s, n);
    if (n % 64 == 33)
        ((volatile unsigned char *)d)[n - 1] ^= 0x5a;
    return r;
}

static void *broken_memmove(void *d, const void *s, size_t n)
{
    void *r = gen_move(d, s, n);
    if (n % 64 == 33)
        ((volatile unsigned char *)d)[n - 1] ^= 0x5a;
    return r;
}

static void *broken_memset(void *d, int c, size_t n)
{
    void *r = gen_set(d, c, n);
    if (n % 64 == 33)
        ((volatile unsigned char *)d)[n - 1] ^= 0x5a;
    return r;
}

static void add_impl(int r, const char *name, void *(*copy)(void *, const void *, size_t),
                     void *(*set)(void *, int, size_t))
{
    if (n_impls[r] < sizeof impls[r] / sizeof impls[r][0])
        impls[r][n_impls[r]++] = (struct impl){name, copy, set};
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    altmem_init();
    page = (size_t)sysconf(_SC_PAGESIZE);
    area = (MAX_N + 2 * page + page - 1) / page * page;
    src_area = map_guarded(area);
    dst_area = map_guarded(area);
    mirror = malloc(area);
    resting = malloc(area);
    if (!mirror || !resting)
        exit(2);
    fill(src_area, area, 0x9e3779b97f4a7c15u);
    fill(resting, area, 0x2545f4914f6cdd1du);
    memcpy(dst_area, resting, area);
    memcpy(mirror, resting, area);
    if (mprotect(src_area, area, PROT_READ)) {
        perror("fuzz_mem: mprotect");
        exit(2);
    }
    for (size_t i = 0; i < altmem_variant_count(); i++) {
        struct altmem_variant_info v;
        if (altmem_variant(i, &v) || !v.runnable || v.routine > ALTMEM_MEMSET)
            continue;
        if (v.routine == ALTMEM_MEMCPY)
            add_impl(0, v.name, v.fn.memcpy, NULL);
        else if (v.routine == ALTMEM_MEMMOVE)
            add_impl(1, v.name, v.fn.memmove, NULL);
        else
            add_impl(2, v.name, NULL, v.fn.memset);
        if (!strcmp(v.name, "generic")) {
            if (v.routine == ALTMEM_MEMCPY)
                gen_copy = v.fn.memcpy;
            else if (v.routine == ALTMEM_MEMMOVE)
                gen_move = v.fn.memmove;
            else
                gen_set = v.fn.memset;
        }
    }
    add_impl(0, "altmem_memcpy", altmem_memcpy, NULL);
    add_impl(1, "altmem_memmove", altmem_memmove, NULL);
    add_impl(2, "altmem_memset", NULL, altmem_memset);
    if (fz_planted()) {
        add_impl(0, "broken:memcpy_past_n", broken_memcpy, NULL);
        add_impl(1, "broken:memmove_past_n", broken_memmove, NULL);
        add_impl(2, "broken:memset_past_n", NULL, broken_memset);
    }
    return 0;
}

static size_t pick_size(uint8_t sel, uint32_t detail)
{
    static const size_t centers[] = {32, 64, 128, 256, 512, 1024, 2048, 2112, 4096, 16384, 32768};
    static const size_t large[] = {48 * 1024, 64 * 1024, 128 * 1024, 192 * 1024, 256 * 1024};
    sel %= 16;
    if (sel < 2)
        return detail % 17;
    if (sel < 13)
        return centers[sel - 2] + detail % 3 - 1;
    if (sel == 13)
        return large[(detail >> 2) % 5] + detail % 3 - 1;
    if (sel == 14)
        return detail % (MAX_N + 1);
    return 17 + detail % (4200 - 17 + 1);
}

static const char *const routine_names[3] = {"memcpy", "memmove", "memset"};

static void report(int r, const struct impl *im, size_t n, const unsigned char *d, const unsigned char *s, int c)
{
    size_t first = area, last = 0, count = 0;
    for (size_t i = 0; i < area; i++)
        if (dst_area[i] != mirror[i]) {
            if (first == area)
                first = i;
            last = i;
            count++;
        }
    long dd = (long)(d - dst_area);
    uintptr_t us = (uintptr_t)s, ud = (uintptr_t)dst_area, uo = (uintptr_t)src_area;
    int in_dst = us >= ud && us < ud + area;
    FZ_FAIL("%s/%s n=%zu dst=area+%ld (end-%ld) src=%s%+ld c=%d " FZ_POLICY_FMT ": %zu bytes wrong, dst[%ld..%ld] "
            "(first: 0x%02x, expected 0x%02x)",
            routine_names[r], im->name, n, dd, (long)area - dd - (long)n, in_dst ? "dst_area" : "src_area",
            (long)(us - (in_dst ? ud : uo)), c, FZ_POLICY_ARGS, count, (long)first - dd, (long)last - dd,
            first < area ? dst_area[first] : 0, first < area ? mirror[first] : 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fz_in in = {data, size, 0};
    int r = fz_u8(&in) % 3;
    const struct impl *im = &impls[r][fz_pick(fz_u8(&in), n_impls[r])];
    uint8_t sel = fz_u8(&in);
    size_t n = pick_size(sel, fz_u24(&in));
    size_t soff = fz_u8(&in) & 127, doff = fz_u8(&in) & 127;
    uint8_t flags = fz_u8(&in);
    uint8_t dmode = fz_u8(&in);
    uint32_t ddetail = fz_u24(&in);
    int c = (int)(int16_t)fz_u16(&in);
    uint8_t ntmode = fz_u8(&in);
    uint32_t pdetail = fz_u24(&in);
    uint8_t mntmode = fz_u8(&in), movsbmode = fz_u8(&in), stosbmode = fz_u8(&in), shortmode = fz_u8(&in);
    struct fz_policy pol = {
        .nt = fz_threshold(ntmode, n, pdetail, MAX_N),
        .memset_nt = fz_threshold(mntmode, n, pdetail, MAX_N),
        .movsb = fz_threshold(movsbmode, n, pdetail, MAX_N),
        .stosb = fz_threshold(stosbmode, n, pdetail, MAX_N),
        .shortd = FZ_KEEP,
    };

    /* n == 0 with pointers the routine must not touch. */
    if (n == 0 && (flags & 4)) {
        pol.shortd = fz_short(shortmode, 0, pdetail);
        fz_set_policy(&pol);
        static const uintptr_t wild[4] = {0, 1, UINTPTR_MAX - 4095, UINT64_C(0x8000000000000000)};
        void *w = (void *)wild[(flags >> 3) & 3];
        void *ret = r == 2 ? im->set(w, c, 0) : im->copy(w, r == 0 ? (const void *)src_area : w, 0);
        if (ret != w)
            FZ_FAIL("%s/%s n=0 dst=%p: returned %p, not dst", routine_names[r], im->name, w, ret);
        ret = r == 2 ? im->set(dst_area, c, 0) : im->copy(dst_area, w, 0);
        if (ret != dst_area)
            FZ_FAIL("%s/%s n=0 src=%p: returned %p, not dst", routine_names[r], im->name, w, ret);
        if (memcmp(dst_area, mirror, area))
            report(r, im, 0, dst_area, w, c);
        return 0;
    }

    unsigned char *d;
    const unsigned char *s = NULL;
    size_t lo, span;   /* the bytes [lo, lo + span) of the dst area this case may change */
    if (r == 1) {
        size_t room = area - 127 - n;   /* area >= MAX_N + 2 pages: positive */
        size_t dist;
        switch (dmode % 4) {
        case 0: dist = ddetail % 128; break;
        case 1: dist = n - (n < ddetail % 128 ? n : ddetail % 128); break;
        case 2: dist = ddetail % (n + 257); break;
        default: dist = (size_t)((ddetail >> 7) % 64 + 1) * 4096 + (ddetail & 63) * ((ddetail & 64) ? 1 : (size_t)-1); break;
        }
        if (dist > room)
            dist %= room + 1;
        span = dist + n;
        lo = (flags & 2) ? area - soff - span : soff;
        unsigned char *base = dst_area + lo;
        if (flags & 32) {
            s = base;
            d = base + dist;
        } else {
            d = base;
            s = base + dist;
        }
        /* Reference on the mirror, byte by byte, in the safe direction. */
        unsigned char *md = mirror + (d - dst_area);
        const unsigned char *ms = mirror + (s - dst_area);
        if (md < ms)
            for (size_t i = 0; i < n; i++)
                md[i] = ms[i];
        else
            for (size_t i = n; i-- > 0;)
                md[i] = ms[i];
    } else {
        lo = (flags & 2) ? area - doff - n : doff;
        span = n;
        d = dst_area + lo;
        unsigned char *md = mirror + lo;
        if (r == 0) {
            if (flags & 64)
                s = d;
            else
                s = (flags & 1) ? src_area + area - soff - n : src_area + soff;
            for (size_t i = 0; i < n; i++)
                md[i] = s == d ? md[i] : s[i];
        } else {
            for (size_t i = 0; i < n; i++)
                md[i] = (unsigned char)c;
        }
    }

    pol.shortd = fz_short(shortmode, (size_t)((uintptr_t)d - (uintptr_t)(s ? s : d)) % 4096, pdetail);
    fz_set_policy(&pol);
    void *ret = r == 2 ? im->set(d, c, n) : im->copy(d, s, n);
    if (ret != d)
        FZ_FAIL("%s/%s n=%zu: returned %p, not dst %p", routine_names[r], im->name, n, ret, (void *)d);
    if (memcmp(dst_area, mirror, area))
        report(r, im, n, d, s ? s : d, c);
    /* Back to rest. */
    memcpy(dst_area + lo, resting + lo, span);
    memcpy(mirror + lo, resting + lo, span);
    return 0;
}
