/*
 * The freestanding test: altmem as a program without a C library uses it.
 *
 * Linked with -nostdlib against the freestanding flavour (raw system calls,
 * src/os/os_raw.c) and started by fs_start.c, it is the only test that runs on
 * LoongArch (Debian has no LoongArch C library), and on every other target it
 * proves the freestanding flavour works as documented (docs/freestanding.md).
 *
 *   detect    altmem_init_freestanding() with the real envp and auxv: the CPU
 *             description and the bindings, checked against --expect-* options
 *             (the tests pass what the emulator's CPU model must give)
 *   zero      n == 0 with NULL and PROT_NONE pointers: nothing touched, dst returned
 *   sweep     sizes 0..N x source offset x destination offset, every byte compared
 *             with a byte-loop reference, sentinel bytes on both sides
 *   guard     windows flush against PROT_NONE pages at both ends (a read or write
 *             outside [p, p + n) faults, and the fault names the case)
 *   overlap   memmove with dst - src in [-D, D] and page-sized distances
 *   values    memset with every byte value, negative ints and junk above the low byte
 *   large     up to 1 MiB (256 KiB with --quick) at several offset pairs
 *   fault     copy_user and clear_user running into a PROT_NONE page after
 *             0..72 bytes at every alignment, and a read-only destination: the
 *             count of bytes not done is exact and nothing else is written
 *
 * Every part runs for every variant whose requirements the active features meet
 * (altmem_cpu().active: ALTMEM_TUNABLES=hwcaps=+UAL adds ual on a CPU without UAL)
 * and for the public entry points.
 *
 *   --self-test      the checker against broken routines: each must be caught
 *   --matrix NAME    only variant NAME (runnable or not) over the offset matrix; the
 *                    driver of the QEMU-plugin misalignment proof (tests/qemu-plugin/)
 *   --quick          smaller sweeps, for emulators
 *   --reduced        the CPU-model matrix's reduced sweep (reduced_sz below)
 *   --expect-bind V  every routine bound to V; or memcpy=V1,memmove=V2,... (commas
 *                    or spaces), every routine named once
 *
 * Exit status 0 pass, 1 failure, 2 usage or set-up error.
 */
#include "fs_rt.h"

#include "altmem.h"

#define BG 0xEE     /* resting value of destination bytes; source bytes never equal it */
#define MARGIN 64   /* sentinel bytes checked on each side of a destination window */

/* ---- Sizes ---------------------------------------------------------------- */

static struct {
    size_t sweep_max;   /* sweep: n in 0..sweep_max                */
    size_t offsets;     /* sweep, guard: offsets 0..offsets-1 ...       */
    size_t ostep;       /* ... in steps of ostep                      */
    size_t guard_max;   /* guard: n in 0..guard_max                 */
    long ovl_dist;      /* overlap: dst - src in [-ovl_dist, ovl_dist] */
    size_t ovl_max;     /* overlap: n in 0..ovl_max                  */
    size_t large_max;   /* large: sizes up to this                   */
} sz = {512, 32, 1, 512, 128, 320, 1u << 20};

struct sizes {
    size_t sweep_max, offsets, ostep, guard_max;
    long ovl_dist;
    size_t ovl_max, large_max;
};
static const struct sizes quick_sz = {256, 16, 1, 256, 72, 160, 1u << 18};
/* --reduced (the CPU-model matrix's other models, tests/qemu-models/): every
   size to 512 (past every class boundary of the widest vector variant, 8 x 32
   bytes, into its loop), every offset residue class mod 32 that a stride of 3
   meets on both sides (11 of 32, so the loops' alignment heads 1..W vary),
   overlaps to +-72 up to 320 bytes, the same fault positions as the full run. */
static const struct sizes reduced_sz = {512, 32, 3, 512, 72, 320, 1u << 18};

/* ---- Buffers ---------------------------------------------------------------- */

static size_t page;
static unsigned char *src, *dst;      /* src: random, read-only; dst: BG           */
static size_t src_size, dst_size;     /* each flush against a guard page at both ends */
static unsigned char *ovl, *ovl_exp, *ovl_init; /* overlap: random; mirror; resting copy */
static size_t ovl_size;

static void fill_random(unsigned char *p, size_t n, uint64_t seed)
{
    uint64_t x = seed;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        unsigned char b = (unsigned char)(x >> 24);
        p[i] = b == BG ? (unsigned char)(b ^ 0x5a) : b;
    }
}

static void make_buffers(void)
{
    page = fs_page_size();
    src_size = dst_size = (sz.large_max + 4 * page + 1023) / page * page;
    src = fs_map_guarded(src_size);
    dst = fs_map_guarded(dst_size);
    fill_random(src, src_size, 0x5eed1);
    fs_protect(src, src_size, FS_PROT_READ);
    memset(dst, BG, dst_size);
    ovl_size = 8 * page;
    ovl = fs_map_guarded(ovl_size);
    ovl_exp = fs_map_guarded(ovl_size);
    ovl_init = fs_map_guarded(ovl_size);
    fill_random(ovl_init, ovl_size, 0x5eed2);
    memcpy(ovl, ovl_init, ovl_size);
    memcpy(ovl_exp, ovl_init, ovl_size);
}

/* ---- What is tested --------------------------------------------------------- */

/* The routines this program tests (bindings are checked for every routine). */
static const enum altmem_routine tested[] = {ALTMEM_MEMCPY, ALTMEM_MEMMOVE, ALTMEM_MEMSET, ALTMEM_COPY_USER,
                                             ALTMEM_CLEAR_USER};
#define NTESTED (sizeof tested / sizeof tested[0])

union fn {
    altmem_memcpy_fn *cpy;
    altmem_memmove_fn *mov;
    altmem_memset_fn *set;
    altmem_copy_user_fn *cu;
    altmem_clear_user_fn *cl;
};

struct impl {
    enum altmem_routine r;
    const char *name;
    union fn fn;
    unsigned long cases, fails;
    unsigned long max_print; /* failures reported in full */
};

static struct {
    const struct impl *im;
    const char *part;
    const void *d, *s;
    size_t n;
    int active;
} cur;

static void describe_case(uintptr_t addr)
{
    if (!cur.active) {
        fs_printf("  (outside the routine under test)\n");
        return;
    }
    fs_printf("  in %s/%s [%s] n=%zu dst=%p src=%p: the access is at dst%+ld", altmem_routine_name(cur.im->r),
              cur.im->name, cur.part, cur.n, cur.d, cur.s, (long)(addr - (uintptr_t)cur.d));
    if (cur.s)
        fs_printf(" = src%+ld", (long)(addr - (uintptr_t)cur.s));
    fs_printf(" (outside [ptr, ptr + n): a guard page)\n");
}

/* copy_user and clear_user return the number of bytes not done, the others dst. */
static int is_uaccess(const struct impl *im)
{
    return im->r == ALTMEM_COPY_USER || im->r == ALTMEM_CLEAR_USER;
}

/* What a call that can do all n bytes must return. */
static uintptr_t full_ret(const struct impl *im, const void *d)
{
    return is_uaccess(im) ? 0 : (uintptr_t)d;
}

static uintptr_t call(const struct impl *im, void *d, const void *s, int v, size_t n)
{
    cur.im = im;
    cur.d = d;
    cur.s = s;
    cur.n = n;
    cur.active = 1;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    uintptr_t ret;
    switch (im->r) {
    case ALTMEM_MEMCPY:
        ret = (uintptr_t)im->fn.cpy(d, s, n);
        break;
    case ALTMEM_MEMMOVE:
        ret = (uintptr_t)im->fn.mov(d, s, n);
        break;
    case ALTMEM_MEMSET:
        ret = (uintptr_t)im->fn.set(d, v, n);
        break;
    case ALTMEM_COPY_USER:
        ret = im->fn.cu(d, s, n);
        break;
    default:
        ret = im->fn.cl(d, n);
        break;
    }
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    cur.active = 0;
    return ret;
}

static void failed(struct impl *im, const char *what, size_t n, const void *d, const void *s, long at,
                   unsigned exp, unsigned got)
{
    im->fails++;
    if (im->fails > im->max_print)
        return;
    fs_printf("FAIL %s/%s [%s] n=%zu dst%%4096=%u src%%4096=%u: %s", altmem_routine_name(im->r), im->name,
              cur.part, n, (unsigned)((uintptr_t)d % 4096), (unsigned)((uintptr_t)s % 4096), what);
    if (exp != got)
        fs_printf(" at dst%+ld: expected 0x%02x, got 0x%02x", at, exp, got);
    fs_printf("\n");
}

/* One non-overlapping copy (memcpy or memmove) into dst. */
static void check_copy(struct impl *im, unsigned char *d, const unsigned char *s, size_t n)
{
    im->cases++;
    uintptr_t ret = call(im, d, s, 0, n);
    size_t lo = (size_t)(d - dst) < MARGIN ? (size_t)(d - dst) : MARGIN;
    size_t room = (size_t)(dst + dst_size - (d + n));
    size_t hi = room < MARGIN ? room : MARGIN;
    int bad = 0;
    if (ret != full_ret(im, d)) {
        failed(im, is_uaccess(im) ? "returned non-zero (bytes not copied)" : "did not return dst", n, d, s, 0, 0,
               0);
        bad = 1;
    }
    for (size_t i = 1; i <= lo && !bad; i++)
        if (d[-(long)i] != BG) {
            failed(im, "wrote before dst", n, d, s, -(long)i, BG, d[-(long)i]);
            bad = 1;
        }
    for (size_t i = 0; i < n && !bad; i++)
        if (d[i] != s[i]) {
            failed(im, "wrong byte", n, d, s, (long)i, s[i], d[i]);
            bad = 1;
        }
    for (size_t i = 0; i < hi && !bad; i++)
        if (d[n + i] != BG) {
            failed(im, "wrote past dst + n", n, d, s, (long)(n + i), BG, d[n + i]);
            bad = 1;
        }
    if (bad)
        memset(d - lo, BG, lo + n + hi);
    else
        memset(d, BG, n);
}

static void check_set(struct impl *im, unsigned char *d, int v, size_t n)
{
    im->cases++;
    uintptr_t ret = call(im, d, 0, v, n);
    unsigned char want = im->r == ALTMEM_CLEAR_USER ? 0 : (unsigned char)v;
    size_t lo = (size_t)(d - dst) < MARGIN ? (size_t)(d - dst) : MARGIN;
    size_t room = (size_t)(dst + dst_size - (d + n));
    size_t hi = room < MARGIN ? room : MARGIN;
    int bad = 0;
    if (ret != full_ret(im, d)) {
        failed(im, is_uaccess(im) ? "returned non-zero (bytes not cleared)" : "did not return dst", n, d, 0, 0, 0,
               0);
        bad = 1;
    }
    for (size_t i = 1; i <= lo && !bad; i++)
        if (d[-(long)i] != BG) {
            failed(im, "wrote before dst", n, d, 0, -(long)i, BG, d[-(long)i]);
            bad = 1;
        }
    for (size_t i = 0; i < n && !bad; i++)
        if (d[i] != want) {
            failed(im, "wrong byte", n, d, 0, (long)i, want, d[i]);
            bad = 1;
        }
    for (size_t i = 0; i < hi && !bad; i++)
        if (d[n + i] != BG) {
            failed(im, "wrote past dst + n", n, d, 0, (long)(n + i), BG, d[n + i]);
            bad = 1;
        }
    memset(d - (bad ? lo : 0), BG, (bad ? lo + hi : 0) + n);
}

/* One memmove inside ovl (the regions may overlap): the reference runs on the
   mirror, then [min - MARGIN, max + n + MARGIN) is compared and put back. */
static void check_move(struct impl *im, unsigned char *d, const unsigned char *s, size_t n)
{
    im->cases++;
    size_t od = (size_t)(d - ovl), os = (size_t)(s - ovl);
    memmove(ovl_exp + od, ovl_exp + os, n);
    uintptr_t ret = call(im, d, s, 0, n);
    size_t a = od < os ? od : os, b = (od > os ? od : os) + n;
    a = a < MARGIN ? 0 : a - MARGIN;
    b = b + MARGIN > ovl_size ? ovl_size : b + MARGIN;
    int bad = 0;
    if (ret != (uintptr_t)d) {
        failed(im, "did not return dst", n, d, s, 0, 0, 0);
        bad = 1;
    }
    for (size_t i = a; i < b && !bad; i++)
        if (ovl[i] != ovl_exp[i]) {
            failed(im, "differs from the reference", n, d, s, (long)i - (long)od, ovl_exp[i], ovl[i]);
            bad = 1;
        }
    memcpy(ovl + a, ovl_init + a, b - a);
    memcpy(ovl_exp + a, ovl_init + a, b - a);
}

/* n == 0: must return dst and touch nothing, whatever the pointers. */
static void check_zero(struct impl *im, void *d, const void *s)
{
    im->cases++;
    uintptr_t ret = call(im, d, s, 0x5a, 0);
    if (ret != full_ret(im, d))
        failed(im, "n == 0: wrong return value", 0, d, s, 0, 0, 0);
}

/* copy_user/clear_user reaching an inaccessible byte after `done` accessible
   ones: must return n - done, have done exactly those bytes, and written nothing
   else (docs/uaccess.md).  d lies in dst; s in src, or in src's guard pages. */
static void check_partial(struct impl *im, unsigned char *d, const unsigned char *s, size_t n, size_t done)
{
    im->cases++;
    uintptr_t ret = call(im, d, s, 0, n);
    size_t lo = (size_t)(d - dst) < MARGIN ? (size_t)(d - dst) : MARGIN;
    size_t room = d + done <= dst + dst_size ? (size_t)(dst + dst_size - (d + done)) : 0;
    size_t hi = room < MARGIN ? room : MARGIN;
    int bad = 0;
    if (ret != n - done) {
        failed(im, "wrong count of bytes not done", n, d, s, (long)done, (unsigned)(n - done) & 0xff,
               (unsigned)ret & 0xff);
        fs_printf("     (expected %zu not done, got %zu)\n", n - done, (size_t)ret);
        bad = 1;
    }
    for (size_t i = 1; i <= lo && !bad; i++)
        if (d[-(long)i] != BG) {
            failed(im, "wrote before dst", n, d, s, -(long)i, BG, d[-(long)i]);
            bad = 1;
        }
    for (size_t i = 0; i < done && !bad; i++) {
        unsigned char want = im->r == ALTMEM_CLEAR_USER ? 0 : s[i];
        if (d[i] != want) {
            failed(im, "byte before the fault not done", n, d, s, (long)i, want, d[i]);
            bad = 1;
        }
    }
    for (size_t i = 0; i < hi && !bad; i++)
        if (d[done + i] != BG) {
            failed(im, "wrote at or past dst + n - r", n, d, s, (long)(done + i), BG, d[done + i]);
            bad = 1;
        }
    memset(d - lo, BG, lo + done + hi);
}

/* ---- Parts -------------------------------------------------------------------- */

static int is_copy(const struct impl *im)
{
    return im->r == ALTMEM_MEMCPY || im->r == ALTMEM_MEMMOVE || im->r == ALTMEM_COPY_USER;
}

static int fill_for(size_t n, size_t o)
{
    int v = (int)((n * 37 + o * 101 + 0x5a) & 0xff);
    return v == BG ? v ^ 0x80 : v;
}

static void part_zero(struct impl *im)
{
    unsigned char *dmid = dst + 256;
    const unsigned char *smid = src + 256;
    for (size_t o = 0; o < 16; o++) {
        if (is_copy(im))
            check_copy(im, dmid + o, smid + (o * 7) % 16, 0);
        else
            check_set(im, dmid + o, 0x5a, 0);
    }
    /* Pointers into guard pages, NULL, and pointers no object can have: any
       access faults. */
    check_zero(im, dst - 1, src - 1);
    check_zero(im, dst + dst_size, src + src_size);
    check_zero(im, 0, 0);
    check_zero(im, (void *)(uintptr_t)1, (const void *)(uintptr_t)3);
    check_zero(im, (void *)(UINTPTR_MAX - 6), (const void *)(UINTPTR_MAX - 62));
}

static void part_sweep(struct impl *im)
{
    unsigned char *dbase = dst + 256;
    const unsigned char *sbase = src + 256;
    for (size_t n = 0; n <= sz.sweep_max; n++)
        for (size_t so = 0; so < sz.offsets; so += sz.ostep)
            for (size_t dof = 0; dof < sz.offsets; dof += sz.ostep) {
                if (is_copy(im))
                    check_copy(im, dbase + dof, sbase + so, n);
                else if (so == 0)
                    check_set(im, dbase + dof, fill_for(n, dof), n);
            }
}

static void part_guard(struct impl *im)
{
    unsigned char *dend = dst + dst_size, *dmid = dst + 256;
    const unsigned char *send = src + src_size, *smid = src + 256;
    for (size_t n = 0; n <= sz.guard_max; n++) {
        if (!is_copy(im)) {
            check_set(im, dend - n, fill_for(n, 0), n); /* over-write faults  */
            check_set(im, dst, fill_for(n, 1), n);      /* under-write faults */
            continue;
        }
        for (size_t o = 0; o < sz.offsets; o += sz.ostep) {
            check_copy(im, dmid + o, send - n, n); /* over-read faults   */
            check_copy(im, dmid + o, src, n);      /* under-read faults  */
            check_copy(im, dend - n, smid + o, n); /* over-write faults  */
            check_copy(im, dst, smid + o, n);      /* under-write faults */
        }
        check_copy(im, dend - n, send - n, n);
        check_copy(im, dst, src, n);
    }
}

static void part_overlap(struct impl *im)
{
    if (im->r != ALTMEM_MEMMOVE)
        return;
    static const size_t aligns[] = {0, 3, 5};
    for (size_t a = 0; a < sizeof aligns / sizeof aligns[0]; a++) {
        unsigned char *s = ovl + page + aligns[a];
        for (long dist = -sz.ovl_dist; dist <= sz.ovl_dist; dist++)
            for (size_t n = 0; n <= sz.ovl_max; n++)
                check_move(im, s + dist, s, n);
    }
    /* Page-sized distances (where an implementation might switch strategy),
       and the pair flush against the buffer's guard pages. */
    static const long ks[] = {-9, -1, 0, 1, 8};
    for (size_t k = 0; k < sizeof ks / sizeof ks[0]; k++) {
        size_t dist = page + (size_t)ks[k];
        const size_t ns[] = {dist + 1, dist + 63, 2 * dist + 7, 3 * dist};
        for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
            check_move(im, ovl + 5 + dist, ovl + 5, ns[i]);
            check_move(im, ovl + 5, ovl + 5 + dist, ns[i]);
        }
    }
    for (size_t n = 0; n <= 130; n++) {
        check_move(im, ovl + 7, ovl, n);
        check_move(im, ovl, ovl + 7, n);
        check_move(im, ovl + ovl_size - n, ovl + ovl_size - n - 9, n);
        check_move(im, ovl + ovl_size - n - 9, ovl + ovl_size - n, n);
        check_move(im, ovl + 64, ovl + 64, n); /* dst == src */
    }
}

static void part_values(struct impl *im)
{
    if (im->r != ALTMEM_MEMSET)
        return;
    static const size_t ns[] = {1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 63, 64, 65, 200};
    for (int v = 0; v < 256; v++) {
        if (v == BG)
            continue;
        for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
            unsigned char *d = dst + 256 + (size_t)v % 16;
            check_set(im, d, v, ns[i]);
            check_set(im, d, v - 256, ns[i]);            /* negative, same low byte */
            check_set(im, d, v | 0x7fff1200, ns[i]);     /* junk above the low byte */
        }
    }
}

static void part_large(struct impl *im)
{
    static const size_t pairs[][2] = {{0, 0}, {1, 3}, {7, 13}, {63, 0}, {0, 63}};
    static const size_t sizes[] = {1000,        2047,          2048,          4095,      4096 + 7,
                                   16384 + 63,  65536 - 1,     65536 + 1,     262144 - 5, 262144 + 3,
                                   524288 + 17, 1048576 - 64,  1048576 + 5};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        size_t n = sizes[i];
        if (n + 2 * page > dst_size)
            continue;
        for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++) {
            if (is_copy(im))
                check_copy(im, dst + page + pairs[p][1], src + page + pairs[p][0], n);
            else
                check_set(im, dst + page + pairs[p][1], fill_for(n, p), n);
        }
        if (is_copy(im))
            check_copy(im, dst + dst_size - n, src + src_size - n, n);
        else
            check_set(im, dst + dst_size - n, 0, n);
    }
}

/* copy_user, clear_user: the source or destination runs into a PROT_NONE page
   after k accessible bytes (k = 0: from the first byte), at every alignment mod 8;
   a read-only destination. */
static void part_fault(struct impl *im)
{
    if (!is_uaccess(im))
        return;
    static const size_t ms[] = {1, 2, 7, 8, 9, 63, 64, 65, 300};
    unsigned char *dend = dst + dst_size, *dmid = dst + 256;
    const unsigned char *send = src + src_size, *smid = src + 256;
    for (size_t k = 0; k <= 72; k++)
        for (size_t i = 0; i < sizeof ms / sizeof ms[0]; i++)
            for (size_t o = 0; o < 8; o++) {
                size_t n = k + ms[i];
                if (im->r == ALTMEM_COPY_USER) {
                    check_partial(im, dmid + o, send - k, n, k);     /* source ends */
                    check_partial(im, dend - k, smid + o, n, k);     /* destination ends */
                    check_partial(im, dmid + o, src - ms[i], n, 0); /* source starts inaccessible */
                } else {
                    check_partial(im, dend - k, 0, n, k);
                }
            }
    /* Faults further in, k in 73..560: inside the vector variants' larger
       classes (up to 8 x 32 bytes), their loops' blocks and their tails, each
       vector position at two alignments. */
    static const size_t ms2[] = {1, 33, 300};
    for (size_t k = 73; k <= 560; k++)
        for (size_t i = 0; i < sizeof ms2 / sizeof ms2[0]; i++)
            for (size_t o = 0; o < 8; o += 5) {
                size_t n = k + ms2[i];
                if (im->r == ALTMEM_COPY_USER) {
                    check_partial(im, dmid + o, send - k, n, k);
                    check_partial(im, dend - k, smid + o, n, k);
                } else {
                    check_partial(im, dend - k, 0, n, k);
                }
            }
    if (im->r != ALTMEM_COPY_USER)
        return;
    for (size_t n = 1; n <= 130; n++) { /* a read-only destination: nothing done */
        im->cases++;
        uintptr_t ret = call(im, (unsigned char *)(uintptr_t)(smid + n % 8), src + 2048, 0, n);
        if (ret != n) {
            failed(im, "read-only destination: wrong count of bytes not done", n, smid + n % 8, src + 2048, 0, 0,
                   0);
            fs_printf("     (expected %zu not done, got %zu)\n", n, (size_t)ret);
        }
    }
}

struct part {
    const char *name;
    void (*run)(struct impl *);
};

static const struct part parts[] = {
    {"zero", part_zero},       {"sweep", part_sweep},   {"guard", part_guard},
    {"overlap", part_overlap}, {"values", part_values}, {"large", part_large},
    {"fault", part_fault},
};
#define NPARTS (sizeof parts / sizeof parts[0])

static void run_parts(struct impl *im, const char *only_part)
{
    for (size_t p = 0; p < NPARTS; p++) {
        if (only_part && fs_strcmp(only_part, parts[p].name) != 0)
            continue;
        cur.part = parts[p].name;
        parts[p].run(im);
    }
}

/* ---- Detection and selection ------------------------------------------------------ */

struct expect {
    const char *bind;   /* every routine bound to this variant, or a list
                           routine=variant[,| ]... (each routine named once) */
    const char *has;    /* comma-separated features that must be detected */
    const char *lacks;  /* ... that must not be                     */
    const char *note;   /* text the detection notes must contain    */
};

#if defined(__x86_64__)
#define ARCH "x86_64"
#elif defined(__aarch64__)
#define ARCH "aarch64"
#elif defined(__riscv)
#define ARCH "riscv64"
#elif defined(__loongarch__)
#define ARCH "loongarch64"
#endif

static uint64_t feature_bits(const char *list, int *bad)
{
    uint64_t m = 0;
    while (list && *list) {
        const char *e = list;
        while (*e && *e != ',')
            e++;
        unsigned b = 0;
        for (; b < ALTMEM_FEAT_COUNT; b++) {
            const char *name = altmem_feature_name(b);
            if (fs_strlen(name) == (size_t)(e - list) && fs_strncmp(name, list, (size_t)(e - list)) == 0)
                break;
        }
        if (b == ALTMEM_FEAT_COUNT) {
            fs_printf("FAIL detect: unknown feature name in '%s'\n", list);
            *bad = 1;
        } else {
            m |= (uint64_t)1 << b;
        }
        list = *e ? e + 1 : e;
    }
    return m;
}

static void print_features(uint64_t m)
{
    int any = 0;
    for (unsigned b = 0; b < ALTMEM_FEAT_COUNT; b++)
        if (m >> b & 1) {
            fs_printf(" %s", altmem_feature_name(b));
            any = 1;
        }
    if (!any)
        fs_printf(" none");
}

/* The variant --expect-bind wants for routine `name`: the whole text when it
   holds no '=', else the value of `name=` in the list (separated by commas or
   spaces).  0 when the list does not name the routine: check_bind_list() has
   rejected such a list before. */
static int expected_bind(const char *bind, const char *name, char *out, size_t cap)
{
    if (!fs_strstr(bind, "=")) {
        size_t l = fs_strlen(bind);
        if (l >= cap)
            return 0;
        memcpy(out, bind, l + 1);
        return 1;
    }
    const size_t nl = fs_strlen(name);
    for (const char *p = bind; *p;) {
        while (*p == ',' || *p == ' ')
            p++;
        const char *e = p;
        while (*e && *e != ',' && *e != ' ')
            e++;
        if ((size_t)(e - p) > nl && fs_strncmp(p, name, nl) == 0 && p[nl] == '=') {
            size_t l = (size_t)(e - p) - nl - 1;
            if (l >= cap)
                return 0;
            memcpy(out, p + nl + 1, l);
            out[l] = 0;
            return 1;
        }
        p = e;
    }
    return 0;
}

/* A routine=variant list must name every routine, each with a value, and
   nothing else; 0 if it does (or is a single name). */
static int check_bind_list(const char *bind)
{
    if (!fs_strstr(bind, "="))
        return 0;
    int bad = 0;
    char v[64];
    for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++)
        if (!expected_bind(bind, altmem_routine_name((enum altmem_routine)r), v, sizeof v) || !v[0]) {
            fs_printf("fs_test: --expect-bind '%s' names no variant for %s\n", bind,
                      altmem_routine_name((enum altmem_routine)r));
            bad = 1;
        }
    for (const char *p = bind; *p;) {
        while (*p == ',' || *p == ' ')
            p++;
        const char *e = p, *eq = 0;
        while (*e && *e != ',' && *e != ' ') {
            if (*e == '=' && !eq)
                eq = e;
            e++;
        }
        if (e == p)
            break;
        int known = 0;
        for (int r = 0; eq && r < ALTMEM_ROUTINE_COUNT; r++) {
            const char *name = altmem_routine_name((enum altmem_routine)r);
            known |= fs_strlen(name) == (size_t)(eq - p) && fs_strncmp(name, p, (size_t)(eq - p)) == 0;
        }
        if (!known) {
            fs_printf("fs_test: --expect-bind '%s': an entry is not routine=variant with a known routine\n", bind);
            bad = 1;
        }
        p = e;
    }
    return bad;
}

/* Returns the number of failed checks; quiet: only count them. */
static int check_detect(const struct expect *ex, int quiet)
{
    int fails = 0;
#define DFAIL(...)                                 \
    do {                                           \
        fails++;                                   \
        if (!quiet)                                \
            fs_printf("FAIL detect: " __VA_ARGS__); \
    } while (0)
    struct altmem_cpu_info cpu;
    altmem_cpu(&cpu);
    if (!quiet) {
        fs_printf("detect: arch %s; detected", cpu.arch);
        print_features(cpu.detected);
        fs_printf("; active");
        print_features(cpu.active);
        fs_printf("; secure %d; notes: %s\n", cpu.secure, *cpu.notes ? cpu.notes : "(none)");
        fs_printf("detect: auxv AT_HWCAP 0x%lx, AT_PAGESZ %lu; ALTMEM_TUNABLES %s\n", fs_getauxval(16),
                  fs_getauxval(6), fs_getenv("ALTMEM_TUNABLES") ? fs_getenv("ALTMEM_TUNABLES") : "(unset)");
    }
    if (fs_strcmp(cpu.arch, ARCH) != 0)
        DFAIL("arch '%s', built for '%s'\n", cpu.arch, ARCH);
    /* The auxiliary vector reached detection (altmem_init_freestanding). */
    if (fs_getauxval(16) && fs_strstr(cpu.notes, "no AT_HWCAP"))
        DFAIL("the auxv has AT_HWCAP but detection did not see it: %s\n", cpu.notes);
    for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++) {
        struct altmem_binding_info b;
        altmem_binding((enum altmem_routine)r, &b);
        if (!quiet)
            fs_printf("detect: %-8s bound to %-8s by %s (%s)\n", altmem_routine_name((enum altmem_routine)r),
                      b.variant, b.bound_by, b.why);
        if (b.reason == ALTMEM_BOUND_DEFAULT)
            DFAIL("%s: still the default binding after altmem_init_freestanding()\n",
                  altmem_routine_name((enum altmem_routine)r));
        char want[64];
        if (ex->bind && expected_bind(ex->bind, altmem_routine_name((enum altmem_routine)r), want, sizeof want) &&
            fs_strcmp(b.variant, want) != 0)
            DFAIL("%s bound to %s, expected %s\n", altmem_routine_name((enum altmem_routine)r), b.variant, want);
    }
    int bad = 0;
    uint64_t has = feature_bits(ex->has, &bad), lacks = feature_bits(ex->lacks, &bad);
    fails += bad;
    if ((cpu.detected & has) != has) {
        DFAIL("expected detected features to include");
        if (!quiet) {
            print_features(has & ~cpu.detected);
            fs_printf("\n");
        }
    }
    if (cpu.detected & lacks) {
        DFAIL("expected these features not to be detected:");
        if (!quiet) {
            print_features(cpu.detected & lacks);
            fs_printf("\n");
        }
    }
    if (ex->note && !fs_strstr(cpu.notes, ex->note))
        DFAIL("notes '%s' do not contain '%s'\n", cpu.notes, ex->note);
#undef DFAIL
    if (!quiet)
        fs_printf("detect: %s\n", fails ? "FAILED" : "as expected");
    return fails;
}

/* ---- Implementations ----------------------------------------------------------- */

/* The variants of routine r the active features allow (or just the one named
   `only`, runnable or not), then the public entry point (unless `only`). */
static size_t collect(enum altmem_routine r, const char *only, struct impl *out, size_t cap)
{
    struct altmem_cpu_info cpu;
    altmem_cpu(&cpu);
    size_t k = 0;
    for (size_t i = 0; i < altmem_variant_count() && k < cap; i++) {
        struct altmem_variant_info vi;
        if (altmem_variant(i, &vi) != 0 || vi.routine != r)
            continue;
        if (only ? fs_strcmp(only, vi.name) != 0 : (vi.requires & ~cpu.active) != 0) {
            if (!only) { /* not runnable here: skipped, and said so */
                fs_printf("%-8s %-16s skipped: the CPU lacks", altmem_routine_name(r), vi.name);
                print_features(vi.requires & ~cpu.active);
                fs_printf("\n");
            }
            continue;
        }
        out[k].r = r;
        out[k].name = vi.name;
        switch (r) {
        case ALTMEM_MEMCPY:
            out[k].fn.cpy = vi.fn.memcpy;
            break;
        case ALTMEM_MEMMOVE:
            out[k].fn.mov = vi.fn.memmove;
            break;
        case ALTMEM_MEMSET:
            out[k].fn.set = vi.fn.memset;
            break;
        case ALTMEM_COPY_USER:
            out[k].fn.cu = vi.fn.copy_user;
            break;
        default:
            out[k].fn.cl = vi.fn.clear_user;
            break;
        }
        out[k].cases = out[k].fails = 0;
        out[k].max_print = 10;
        k++;
    }
    if (!only && k < cap) {
        out[k].r = r;
        switch (r) {
        case ALTMEM_MEMCPY:
            out[k].name = "altmem_memcpy";
            out[k].fn.cpy = altmem_memcpy;
            break;
        case ALTMEM_MEMMOVE:
            out[k].name = "altmem_memmove";
            out[k].fn.mov = altmem_memmove;
            break;
        case ALTMEM_MEMSET:
            out[k].name = "altmem_memset";
            out[k].fn.set = altmem_memset;
            break;
        case ALTMEM_COPY_USER:
            out[k].name = "altmem_copy_user";
            out[k].fn.cu = altmem_copy_user;
            break;
        default:
            out[k].name = "altmem_clear_user";
            out[k].fn.cl = altmem_clear_user;
            break;
        }
        out[k].cases = out[k].fails = 0;
        out[k].max_print = 10;
        k++;
    }
    return k;
}

/* ---- The offset matrix of the misalignment proof ------------------------------ */

/* Every src x dst offset pair 0..15 (each residue mod 8 and mod 16 on both
   sides) at sizes 0..256 and a few larger ones, memmove also overlapping at
   distances -72..72 from every source alignment 0..7, memset and clear_user at
   every offset, copy_user and clear_user also running into PROT_NONE pages. */
static int run_matrix(const char *name)
{
    static const size_t big[] = {300, 511, 1000, 4096 + 13};
    unsigned long total = 0, fails = 0;
    for (size_t t = 0; t < NTESTED; t++) {
        enum altmem_routine r = tested[t];
        struct impl im;
        if (collect(r, name, &im, 1) != 1) {
            fs_printf("matrix: no %s variant named '%s'\n", altmem_routine_name(r), name);
            return 2;
        }
        cur.part = "matrix";
        for (size_t i = 0; i <= 256 + sizeof big / sizeof big[0]; i++) {
            size_t n = i <= 256 ? i : big[i - 257];
            for (size_t so = 0; so < 16; so++)
                for (size_t dof = 0; dof < 16; dof++) {
                    if (!is_copy(&im)) {
                        if (so == 0)
                            check_set(&im, dst + 256 + dof, fill_for(n, dof), n);
                    } else {
                        check_copy(&im, dst + 256 + dof, src + 256 + so, n);
                    }
                }
        }
        cur.part = "matrix-fault";
        part_fault(&im); /* copy_user, clear_user: their paths to an inaccessible byte */
        cur.part = "matrix";
        if (r == ALTMEM_MEMMOVE)
            for (size_t a = 0; a < 8; a++)
                for (long dist = -72; dist <= 72; dist++)
                    for (size_t n = 0; n <= 200; n += 1 + (n >= 80))
                        check_move(&im, ovl + page + a + dist, ovl + page + a, n);
        fs_printf("matrix %s/%s: %lu calls, %lu failures\n", altmem_routine_name(im.r), name, im.cases, im.fails);
        total += im.cases;
        fails += im.fails;
    }
    fs_printf("matrix %s: %lu calls, %lu failures: %s\n", name, total, fails, fails ? "FAILED" : "passed");
    return fails ? 1 : 0;
}

/* ---- Negative controls ------------------------------------------------------------ */

static void *bk_overwrite(void *d, const void *s, size_t n)
{
    memcpy(d, s, n);
    if (n % 8 == 5)
        ((unsigned char *)d)[n] = 0; /* a tail rounded up */
    return d;
}

static void *bk_shift(void *d, const void *s, size_t n)
{
    memcpy(d, s, n);
    if ((uintptr_t)s % 8 == 5 && n >= 4) /* a shift amount off by one byte */
        ((unsigned char *)d)[n / 2] = ((const unsigned char *)s)[n / 2 + 1];
    return d;
}

static void *bk_overread(void *d, const void *s, size_t n)
{
    memcpy(d, s, n);
    if (n)
        (void)((const volatile unsigned char *)s)[n]; /* a whole-word load past the end */
    return d;
}

static void *bk_forward(void *d, const void *s, size_t n)
{
    unsigned char *dd = d;
    const unsigned char *ss = s;
    for (size_t i = 0; i < n; i++) /* always forward */
        dd[i] = ss[i];
    return d;
}

static void *bk_set_drop(void *d, int c, size_t n)
{
    memset(d, c, n - (n == 200)); /* leaves the last byte when n == 200 */
    return d;
}

static void *bk_set_ret(void *d, int c, size_t n)
{
    memset(d, c, n);
    return n ? d : 0; /* NULL for n == 0 */
}

static size_t bk_cu_ret(void *d, const void *s, size_t n)
{
    memcpy(d, s, n);
    return n % 16 == 5; /* claims a byte not copied */
}

static size_t bk_cu_plain(void *d, const void *s, size_t n)
{
    memcpy(d, s, n); /* no fault handling at all */
    return 0;
}

struct broken {
    const char *name;
    struct impl im;
    const char *part;
    int must_fault; /* else: must report failures */
};

static int self_test(const struct expect *ex)
{
    struct broken bk[] = {
        {"overwrite: writes dst[n] when n % 8 == 5", {ALTMEM_MEMCPY, "broken", {.cpy = bk_overwrite}, 0, 0, 1},
         "sweep", 0},
        {"shift: wrong byte when src % 8 == 5", {ALTMEM_MEMCPY, "broken", {.cpy = bk_shift}, 0, 0, 1}, "sweep", 0},
        {"forward: memmove always copies forward", {ALTMEM_MEMMOVE, "broken", {.mov = bk_forward}, 0, 0, 1},
         "overlap", 0},
        {"drop-last: memset leaves the last byte when n == 200", {ALTMEM_MEMSET, "broken", {.set = bk_set_drop}, 0, 0, 1},
         "sweep", 0},
        {"return-null0: memset returns NULL when n == 0", {ALTMEM_MEMSET, "broken", {.set = bk_set_ret}, 0, 0, 1},
         "zero", 0},
        {"overread: reads src[n]", {ALTMEM_MEMCPY, "broken", {.cpy = bk_overread}, 0, 0, 0}, "guard", 1},
        {"count: copy_user claims 1 byte not copied when n % 16 == 5",
         {ALTMEM_COPY_USER, "broken", {.cu = bk_cu_ret}, 0, 0, 1}, "sweep", 0},
        {"no fix-up: copy_user as a plain copy faults at a guard page",
         {ALTMEM_COPY_USER, "broken", {.cu = bk_cu_plain}, 0, 0, 0}, "fault", 1},
    };
    int bad = 0;
    for (size_t i = 0; i < sizeof bk / sizeof bk[0]; i++) {
        const char *got;
        int ok;
        if (!bk[i].must_fault) {
            run_parts(&bk[i].im, bk[i].part);
            ok = bk[i].im.fails > 0;
            got = ok ? "failures reported" : "NOT DETECTED";
        } else {
            int pid = fs_fork();
            if (pid == 0) {
                run_parts(&bk[i].im, bk[i].part);
                fs_exit(3);
            }
            int st = 0;
            fs_wait(pid, &st);
            ok = (st & 0x7f) == 0 && ((st >> 8) & 0xff) == FS_EXIT_FAULT;
            got = ok ? "faulted, case reported" : (st & 0x7f) ? "killed by a signal" : "NOT DETECTED";
        }
        fs_printf("selftest %-55s [%-7s] expected %-5s -> %s %s\n", bk[i].name, bk[i].part,
                  bk[i].must_fault ? "FAULT" : "FAIL", got, ok ? "ok" : "WRONG");
        bad += !ok;
    }
    /* The detection checker must notice a wrong expectation. */
    struct altmem_binding_info b;
    altmem_binding(ALTMEM_MEMCPY, &b);
    struct expect wrong = *ex;
    wrong.bind = fs_strcmp(b.variant, "generic") == 0 ? "ual" : "generic";
    int caught = check_detect(&wrong, 1) > 0;
    fs_printf("selftest %-55s [%-7s] expected FAIL  -> %s %s\n", "detect: expects the other variant", "detect",
              caught ? "failures reported" : "NOT DETECTED", caught ? "ok" : "WRONG");
    bad += !caught;
    fs_printf("freestanding self-test: %zu broken cases, %d not caught: %s\n", sizeof bk / sizeof bk[0] + 1, bad,
              bad ? "FAILED" : "passed");
    return bad ? 1 : 0;
}

/* ---- Main ------------------------------------------------------------------------ */

static int usage(void)
{
    fs_printf("usage: fs_test [--quick|--reduced] [--part detect|zero|sweep|guard|overlap|values|large|fault]\n"
              "               [--expect-bind VARIANT|ROUTINE=VARIANT,..] [--expect-has F,..] [--expect-lacks F,..]\n"
              "               [--expect-note TEXT] [--self-test] [--matrix VARIANT]\n");
    return 2;
}

int fs_main(int argc, char **argv, char **envp, unsigned long *auxv)
{
    /* First, before any other altmem call, as docs/freestanding.md says; with a
       profile string when FS_PROFILE holds one (freestanding.profile). */
    const char *profile = 0;
    for (char **e = envp; e && *e; e++)
        if ((*e)[0] == 'F' && fs_strstr(*e, "FS_PROFILE=") == *e)
            profile = *e + 11;
    if (profile)
        altmem_init_freestanding_profile(envp, auxv, profile);
    else
        altmem_init_freestanding(envp, auxv);
    if (argc == 2 && fs_strcmp(argv[1], "--print-identity") == 0) {
        char id[512];
        altmem_cpu_identity(id, sizeof id);
        fs_printf("%s\n", id);
        return 0;
    }

    struct expect ex = {0, 0, 0, 0};
    const char *only_part = 0, *matrix = 0;
    int selftest = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : 0;
        if (fs_strcmp(a, "--quick") == 0 || fs_strcmp(a, "--reduced") == 0) {
            const struct sizes *q = a[2] == 'q' ? &quick_sz : &reduced_sz;
            sz.sweep_max = q->sweep_max;
            sz.offsets = q->offsets;
            sz.ostep = q->ostep;
            sz.guard_max = q->guard_max;
            sz.ovl_dist = q->ovl_dist;
            sz.ovl_max = q->ovl_max;
            sz.large_max = q->large_max;
        } else if (fs_strcmp(a, "--self-test") == 0) {
            selftest = 1;
        } else if (v && fs_strcmp(a, "--part") == 0) {
            only_part = argv[++i];
        } else if (v && fs_strcmp(a, "--matrix") == 0) {
            matrix = argv[++i];
        } else if (v && fs_strcmp(a, "--expect-bind") == 0) {
            ex.bind = argv[++i];
        } else if (v && fs_strcmp(a, "--expect-has") == 0) {
            ex.has = argv[++i];
        } else if (v && fs_strcmp(a, "--expect-lacks") == 0) {
            ex.lacks = argv[++i];
        } else if (v && fs_strcmp(a, "--expect-note") == 0) {
            ex.note = argv[++i];
        } else {
            return usage();
        }
    }
    if (ex.bind && check_bind_list(ex.bind))
        return usage();
    if (only_part && fs_strcmp(only_part, "detect") != 0) {
        size_t p = 0;
        while (p < NPARTS && fs_strcmp(parts[p].name, only_part) != 0)
            p++;
        if (p == NPARTS)
            return usage();
    }

    fs_catch_faults(describe_case);
    /* The variants are called straight from the table, not through the entry
       points that install the copy_user fault handler on first use: install it
       now, in front of ours (it passes other faults on to ours). */
    if (altmem_uaccess_install() != 0) {
        fs_printf("FAIL altmem_uaccess_install() failed\n");
        return 1;
    }
    int detect_fails = check_detect(&ex, 0);
    if (only_part && fs_strcmp(only_part, "detect") == 0)
        return detect_fails ? 1 : 0;

    /* A second call is refused with one line on stderr and changes nothing. */
    struct altmem_binding_info before, after;
    altmem_binding(ALTMEM_MEMCPY, &before);
    fs_printf("a second altmem_init_freestanding() must be refused, with one line on stderr:\n");
    altmem_init_freestanding(0, 0);
    altmem_binding(ALTMEM_MEMCPY, &after);
    if (fs_strcmp(before.variant, after.variant) != 0) {
        fs_printf("FAIL a second altmem_init_freestanding() rebound memcpy from %s to %s\n", before.variant,
                  after.variant);
        detect_fails++;
    }

    make_buffers();
    if (matrix)
        return run_matrix(matrix);
    if (selftest)
        return self_test(&ex) || detect_fails;

    unsigned long cases = 0, fails = 0;
    uint64_t t0 = fs_now_ms();
    for (size_t t = 0; t < NTESTED; t++) {
        struct impl ims[8];
        size_t k = collect(tested[t], 0, ims, sizeof ims / sizeof ims[0]);
        for (size_t i = 0; i < k; i++) {
            uint64_t t = fs_now_ms();
            run_parts(&ims[i], only_part);
            fs_printf("%-8s %-16s %9lu cases %6lu failures %6lu ms\n", altmem_routine_name(ims[i].r), ims[i].name,
                      ims[i].cases, ims[i].fails, (unsigned long)(fs_now_ms() - t));
            cases += ims[i].cases;
            fails += ims[i].fails;
        }
    }
    fs_printf("freestanding %s: %lu cases, %lu failures, %d detection failures, %lu ms: %s\n", ARCH, cases, fails,
              detect_fails, (unsigned long)(fs_now_ms() - t0), fails || detect_fails ? "FAILED" : "passed");
    return fails || detect_fails ? 1 : 0;
}
