/*
 * fuzz_uaccess: copy_user / clear_user, every runnable variant of the variant table
 * and the public entries altmem_copy_user / altmem_clear_user, against an exact
 * oracle computed from the page layout.
 *
 * Arenas (mapped once, in LLVMFuzzerInitialize): a source and a destination of
 * NP pages each, between two PROT_NONE guard pages.  Source pages hold fixed random
 * bytes (never BG) and are read-only; destination pages hold BG.  Each input makes
 * up to two holes per side (runs of 1-3 pages that are PROT_NONE, munmap'd, a shared
 * mapping of an empty file -- SIGBUS on any access -- or, for the destination,
 * read-only); the pages that change are re-protected (and re-mapped and re-filled
 * after munmap) before the case, nothing else.
 *
 * The oracle: k = the index of the first byte of [p, p + n) that is inaccessible
 * (a hole page, a guard page, or a wild pointer: index 0), in lengths, never end
 * addresses, so n may be anything up to SIZE_MAX and p + n may wrap around 2^64.
 * Expected r = n - min(k_src, k_dst) (clear: n - k_dst); dst[0, n - r) must equal the
 * source (clear: zero); every other readable byte of the destination arena (read-only
 * pages included) must still be BG (0xEE).  The done prefix is put back to BG after.
 *
 * The policy thresholds come from the input, as in fuzz_mem: through ALTMEM_TUNABLES
 * (nt_threshold=, memset_nt_threshold=, rep_movsb_threshold=, rep_stosb_threshold=,
 * rep_movsb_short_distance=; fuzz_common.h), relative to n, 0, never (so that huge n
 * meets the cached loops and rep movsb/stosb too), or the per-CPU rules' values.
 *
 * Refilled holes: a page this harness munmap'd is free address space, and any other
 * mapping of the process (ASan's and libFuzzer's own allocations, the symbolizer,
 * LSan, libFuzzer's RSS thread) may be put there by the kernel.  The oracle would
 * then be wrong (the page is accessible), and re-mapping the hole would clobber
 * someone else's memory.  So before each input, when a hole is re-mapped
 * (MAP_FIXED_NOREPLACE), right before the call and right after it, every page that
 * should be unmapped is checked (mincore: ENOMEM = unmapped); when one is taken the
 * input is not judged (no finding), the event is counted, and both arenas are
 * rebuilt at fresh addresses, leaving the foreign page alone.  The count is printed
 * at exit when it is not zero.  FUZZ_UACCESS_REFILL (only for scripts/fuzz.sh --self-test,
 * the negative control of this) maps a page into a hole on purpose: "setup" right
 * before the pre-call check; "between" into every hole at the end of each input
 * (the next input's first check meets it); "remap" into every hole the previous
 * input left, after that first check (the re-mapping meets it: EEXIST);
 * "setup-unchecked" as "setup" with the checks before and after the call skipped
 * (so that the injected page is shown to turn into a finding when unnoticed).
 *
 * Fault handling: LLVMFuzzerInitialize runs after ASan installed its SIGSEGV/SIGBUS
 * handlers and calls altmem_uaccess_install(), which chains to ASan's; libFuzzer
 * then puts its own SIGSEGV handler in front, which calls the one it found
 * (altmem's) first.  A fault outside altmem's exception table still reaches ASan.
 *
 * Input layout (bytes past the end read as 0):
 *    0  bit 0: clear_user (else copy_user)
 *    1  implementation: % count (runnable variants in table order, then the public
 *       entry; with FUZZ_PLANT=1 a broken one is appended that claims one byte more
 *       than it did when a fault cut it short: r - 1); 0xff: always the last one
 *       (fz_pick: the planted regression inputs select the broken one on any CPU)
 *  2-3  destination hole 1: kind (% 4: none, PROT_NONE, unmapped, read-only; bit 7
 *       set: SIGBUS instead; run length 1 + (kind >> 2) % 3 pages), first page (% NP)
 *  4-5  destination hole 2
 *  6-7  source hole 1 (kind % 4: none, PROT_NONE, unmapped, PROT_NONE; bit 7 SIGBUS)
 *  8-9  source hole 2
 *   10  dst position: % 8: 0 page + (off % 128), 1 page end - 1 - (off % 128),
 *       2 page + off % P, 3 hole 1 - (off % 512), 4 arena start + off % 128,
 *       5 arena end - 1 - off % 4096, 6 wild (page byte picks: NULL, 1, 4095, the last
 *       page, 0x0000800000000000, 0x8000000000000000, 0xffff800000000000),
 *       7 hole 2 - (off % 512)
 *   11  dst page (% NP)          12-13  dst off (16 bits)
 *   14  src position, 15 src page, 16-17 src off (as for dst)
 *   18  n class: % 16: 0 0..64; 1 0..arena; 2 (3) distance from dst (src) to its
 *       first inaccessible byte -4..+4; 4 SIZE_MAX - (0..255); 5 SIZE_MAX - 2^k
 *       (+ 0..3); 6 (7) 2^64 - dst (src) + 0..8191: the end wraps past 0;
 *       8 2^64 - dst - 1 - (0..8191): ends just below the top; 9 huge, not wrapping
 *       (2^47, 2^63 +- small, or below 2^48); 10 a threshold (2048 4096 8192 16384
 *       32768 65536, or one of the per-CPU rules' thresholds) -1/0/+1; 11 a size
 *       class edge (63..65 ... 511..513); 12-15 0..4 pages
 * 19-26  n detail (64 bits)
 *   27  nt_threshold: % 8 (fz_threshold): 0 the rules' value, 1 zero, 2 n, 3 n + 1,
 *       4 n - 1, 5 never, 6 detail % (NP pages), 7 n / 2
 * 28-30  threshold detail (24 bits, shared by 27, 31-34)
 *   31  memset_nt_threshold mode, 32 rep_movsb_threshold mode, 33 rep_stosb_threshold
 *       mode (as 27)
 *   34  rep_movsb_short_distance, relative to (dst - src) mod 4096 (fz_short)
 *
 * Seeds (tests/fuzz/corpus/fuzz_uaccess/, tests/fuzz/make_seeds.sh): a plain copy
 * and clear, a hole of each kind on each side, both sides at once, wild pointers,
 * SIZE_MAX and wrapping n.
 */
#define _GNU_SOURCE
#define FZ_NAME "fuzz_uaccess"
#include "fuzz_common.h"

#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

/* glibc < 2.28 lacks the name; the value is the kernel's (uapi mman-common.h). */
#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

#define NP 20
#define BG 0xEE

/* P_BUS: a shared mapping of an empty file (memfd): every access raises SIGBUS. */
enum pstate { P_OK, P_NONE, P_UNMAP, P_RO, P_BUS };

struct arena {
    unsigned char *lo, *end;  /* NP pages; lo - page and end are guard pages */
    enum pstate st[NP];
    int is_src;
    const char *name;
};

static size_t page;
static struct arena A_src = {.is_src = 1, .name = "src"}, A_dst = {.is_src = 0, .name = "dst"};
static unsigned char *bgpage, *zeropage;

struct impl {
    const char *name;
    altmem_copy_user_fn *copy;
    altmem_clear_user_fn *clear;
};
static struct impl impls[2][16];
static size_t n_impls[2];

static altmem_copy_user_fn *gen_copy;
static altmem_clear_user_fn *gen_clear;

static size_t broken_copy(void *d, const void *s, size_t n)
{
    size_t r = gen_copy(d, s, n);
    return r > 0 && r < n ? r - 1 : r;
}

static size_t broken_clear(void *d, size_t n)
{
    size_t r = gen_clear(d, n);
    return r > 0 && r < n ? r - 1 : r;
}

__attribute__((noreturn)) static void die(const char *what)
{
    fprintf(stderr, "fuzz_uaccess: harness error: %s: %s\n", what, strerror(errno));
    exit(2);
}

/* Source bytes: a function of the address offset, never BG. */
static void fill_src_page(struct arena *a, size_t i)
{
    unsigned char *p = a->lo + i * page;
    uint64_t x = 0x9e3779b97f4a7c15u ^ (uint64_t)(i + 1) * 0xbf58476d1ce4e5b9u;
    for (size_t k = 0; k < page; k++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        unsigned char b = (unsigned char)(x >> 29);
        p[k] = b == BG ? (unsigned char)(b ^ 0x5a) : b;
    }
}

static int prot_of(const struct arena *a, enum pstate s)
{
    if (s == P_NONE)
        return PROT_NONE;
    if (s == P_RO || a->is_src)
        return PROT_READ;
    return PROT_READ | PROT_WRITE;
}

static int bus_fd = -1;   /* an empty memfd */

/* One page at p, where our own page is (MAP_FIXED: replaces it) or where we left a
   hole (MAP_FIXED_NOREPLACE: never over someone else's mapping).  0, or -1 when the
   hole was taken: EEXIST, or, before Linux 4.17, which ignores the unknown flag and
   takes the address as a hint only, a page somewhere else (given back). */
static int map_page(unsigned char *p, int prot, int flags, int fd, int into_hole)
{
    void *m = mmap(p, page, prot, flags | (into_hole ? MAP_FIXED_NOREPLACE : MAP_FIXED), fd, 0);
    if (m == p)
        return 0;
    if (m == MAP_FAILED) {
        if (into_hole && errno == EEXIST)
            return -1;
        die("mmap of an arena page");
    }
    if (!into_hole)
        die("mmap MAP_FIXED put the page elsewhere");
    if (munmap(m, page))
        die("munmap");
    return -1;
}

/* Returns -1 when a hole page was taken by another mapping (nothing changed). */
static int set_state(struct arena *a, size_t i, enum pstate s)
{
    unsigned char *p = a->lo + i * page;
    enum pstate was = a->st[i];
    if (was == s)
        return 0;
    if (s == P_UNMAP) {
        if (munmap(p, page))
            die("munmap");
    } else if (s == P_BUS) {
        if (map_page(p, PROT_READ | PROT_WRITE, MAP_SHARED, bus_fd, was == P_UNMAP))
            return -1;
    } else {
        if (was == P_UNMAP || was == P_BUS) {
            if (map_page(p, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, was == P_UNMAP))
                return -1;
            if (a->is_src)
                fill_src_page(a, i);
            else
                memset(p, BG, page);
        }
        if (mprotect(p, page, prot_of(a, s)))
            die("mprotect");
    }
    a->st[i] = s;
    return 0;
}

static void arena_make(struct arena *a)
{
    unsigned char *m = mmap(NULL, (NP + 2) * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        die("mmap");
    a->lo = m + page;
    a->end = a->lo + NP * page;
    if (mprotect(m, page, PROT_NONE) || mprotect(a->end, page, PROT_NONE))
        die("mprotect");
    for (size_t i = 0; i < NP; i++) {
        if (a->is_src)
            fill_src_page(a, i);
        else
            memset(a->lo + i * page, BG, page);
        a->st[i] = P_OK;
    }
    if (a->is_src && mprotect(a->lo, NP * page, PROT_READ))
        die("mprotect");
}

/* ---- Refilled holes -------------------------------------------------------------- */

/* Inputs not judged because a hole page was taken, by where it was seen. */
enum { R_START, R_REMAP, R_BEFORE, R_AFTER, R_WHERE };
static unsigned long refills[R_WHERE];

/* FUZZ_UACCESS_REFILL (the self-test's negative control; see the header). */
static enum { INJECT_NONE, INJECT_SETUP, INJECT_BETWEEN, INJECT_REMAP, INJECT_SETUP_UNCHECKED } inject;

static int page_unmapped(const unsigned char *p)
{
    unsigned char v;
    if (mincore((void *)p, page, &v) == 0)
        return 0;
    if (errno != ENOMEM)
        die("mincore");
    return 1;
}

/* 1 when every page of a that we unmapped is still unmapped. */
static int holes_intact(const struct arena *a)
{
    for (size_t i = 0; i < NP; i++)
        if (a->st[i] == P_UNMAP && !page_unmapped(a->lo + i * page))
            return 0;
    return 1;
}

/* A fresh arena; then the old one's own pages go, the holes (foreign pages in
   some) stay as they are.  The old arena's guard pages are never unmapped, so the
   new mapping cannot overlap any of it. */
static void arena_rebuild(struct arena *a)
{
    struct arena old = *a;
    arena_make(a);
    if (munmap(old.lo - page, page) || munmap(old.end, page))
        die("munmap");
    for (size_t i = 0; i < NP; i++)
        if (old.st[i] != P_UNMAP && munmap(old.lo + i * page, page))
            die("munmap");
}

/* Counts a refill seen at `where` and rebuilds both arenas (cheap, and no arena
   state survives that might rest on the taken page); the input is not judged. */
static int refilled(int where)
{
    refills[where]++;
    arena_rebuild(&A_src);
    arena_rebuild(&A_dst);
    return 0;
}

/* FUZZ_UACCESS_REFILL: what another mapping of the process would do. */
static void inject_into(struct arena *a, size_t i)
{
    unsigned char *p = a->lo + i * page;
    void *m = mmap(p, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (m != p)
        die("FUZZ_UACCESS_REFILL: mapping a page into a hole");
    memset(p, 0x11, page);
}

static void inject_holes(int all)
{
    struct arena *as[2] = {&A_dst, &A_src};
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < NP; i++)
            if (as[k]->st[i] == P_UNMAP) {
                inject_into(as[k], i);
                if (!all)
                    return;
            }
}

static void report_refills(void)
{
    unsigned long total = 0;
    for (int w = 0; w < R_WHERE; w++)
        total += refills[w];
    if (total)
        fprintf(stderr,
                "fuzz_uaccess: %lu input(s) not judged: a hole page was taken by another mapping (seen: %lu at the "
                "input's start, %lu re-mapping a hole, %lu before the call, %lu after it); the arenas were rebuilt "
                "at fresh addresses\n",
                total, refills[R_START], refills[R_REMAP], refills[R_BEFORE], refills[R_AFTER]);
}

static void add_impl(int clear, const char *name, altmem_copy_user_fn *c, altmem_clear_user_fn *z)
{
    if (n_impls[clear] < sizeof impls[clear] / sizeof impls[clear][0])
        impls[clear][n_impls[clear]++] = (struct impl){name, c, z};
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    altmem_init();
    /* After ASan's handler, before libFuzzer's (which calls ours first). */
    if (altmem_uaccess_install())
        die("altmem_uaccess_install");
    page = (size_t)sysconf(_SC_PAGESIZE);
    bus_fd = memfd_create("fuzz_uaccess-sigbus", MFD_CLOEXEC);
    if (bus_fd < 0)
        die("memfd_create");
    arena_make(&A_src);
    arena_make(&A_dst);
    bgpage = malloc(page);
    zeropage = calloc(1, page);
    if (!bgpage || !zeropage)
        die("malloc");
    memset(bgpage, BG, page);
    for (size_t i = 0; i < altmem_variant_count(); i++) {
        struct altmem_variant_info v;
        if (altmem_variant(i, &v) || !v.runnable)
            continue;
        if (v.routine == ALTMEM_COPY_USER) {
            add_impl(0, v.name, v.fn.copy_user, NULL);
            if (!strcmp(v.name, "generic"))
                gen_copy = v.fn.copy_user;
        } else if (v.routine == ALTMEM_CLEAR_USER) {
            add_impl(1, v.name, NULL, v.fn.clear_user);
            if (!strcmp(v.name, "generic"))
                gen_clear = v.fn.clear_user;
        }
    }
    add_impl(0, "altmem_copy_user", altmem_copy_user, NULL);
    add_impl(1, "altmem_clear_user", NULL, altmem_clear_user);
    if (fz_planted()) {
        add_impl(0, "broken:copy_user_r_minus_1", broken_copy, NULL);
        add_impl(1, "broken:clear_user_r_minus_1", NULL, broken_clear);
    }
    const char *e = getenv("FUZZ_UACCESS_REFILL");
    if (e && *e) {
        if (!strcmp(e, "setup"))
            inject = INJECT_SETUP;
        else if (!strcmp(e, "between"))
            inject = INJECT_BETWEEN;
        else if (!strcmp(e, "remap"))
            inject = INJECT_REMAP;
        else if (!strcmp(e, "setup-unchecked"))
            inject = INJECT_SETUP_UNCHECKED;
        else {
            errno = EINVAL;
            die("FUZZ_UACCESS_REFILL must be setup, between, remap or setup-unchecked");
        }
    }
    atexit(report_refills);
    return 0;
}

/* ---- The oracle ------------------------------------------------------------------- */

static int in_arena(const struct arena *a, uintptr_t p)
{
    return p >= (uintptr_t)a->lo && p < (uintptr_t)a->end;
}

static int page_bad(const struct arena *a, size_t i, int write)
{
    enum pstate s = a->st[i];
    return s == P_NONE || s == P_UNMAP || s == P_BUS || (write && (s == P_RO || a->is_src));
}

/* Index of the first byte of [p, p + n) an access would fault on, or n. */
static size_t first_bad(const struct arena *a, uintptr_t p, size_t n, int write)
{
    if (n == 0)
        return 0;
    if (!in_arena(a, p))
        return 0; /* a wild pointer or a guard page */
    uintptr_t lo = (uintptr_t)a->lo;
    for (size_t i = (p - lo) / page; i < NP; i++) {
        uintptr_t b = lo + i * page, e = b + page;
        size_t at = b > p ? (size_t)(b - p) : 0;
        if (at >= n)
            return n;
        if (page_bad(a, i, write))
            return at;
        (void)e;
    }
    size_t to_end = (size_t)((uintptr_t)a->end - p);
    return to_end < n ? to_end : n;
}

/* ---- Positions and sizes ---------------------------------------------------------- */

static const uintptr_t wild[] = {
    0, 1, 4095, UINTPTR_MAX - 4095,
    UINT64_C(0x0000800000000000), UINT64_C(0x8000000000000000), UINT64_C(0xffff800000000000),
};

struct holes {
    size_t first[2]; /* page of each hole, or NP for none */
};

/* -1 when a hole page to re-map was taken. */
static int make_holes(struct fz_in *in, struct arena *a, struct holes *h)
{
    enum pstate want[NP];
    for (size_t i = 0; i < NP; i++)
        want[i] = P_OK;
    for (int k = 0; k < 2; k++) {
        uint8_t kind = fz_u8(in), pg = fz_u8(in);
        h->first[k] = NP;
        if (kind % 4 == 0 && !(kind & 0x80))
            continue;
        enum pstate s = kind & 0x80          ? P_BUS
                        : kind % 4 == 1      ? P_NONE
                        : kind % 4 == 2      ? P_UNMAP
                        : a->is_src          ? P_NONE
                                             : P_RO;
        size_t len = 1 + (size_t)(kind >> 2) % 3;
        size_t first = pg % NP;
        h->first[k] = first;
        for (size_t i = first; i < first + len && i < NP; i++)
            want[i] = s;
    }
    for (size_t i = 0; i < NP; i++)
        if (set_state(a, i, want[i]))
            return -1;
    return 0;
}

static uintptr_t pick_pos(struct fz_in *in, const struct arena *a, const struct holes *h)
{
    uint8_t mode = fz_u8(in), pg = fz_u8(in);
    uint16_t off = fz_u16(in);
    uintptr_t lo = (uintptr_t)a->lo, end = (uintptr_t)a->end;
    uintptr_t base = lo + (uintptr_t)(pg % NP) * page;
    switch (mode % 8) {
    case 0: return base + off % 128;
    case 1: return base + page - 1 - off % 128;
    case 2: return base + off % page;
    case 4: return lo + off % 128;
    case 5: return end - 1 - off % 4096;
    case 6: return wild[pg % (sizeof wild / sizeof wild[0])];
    default: {
        size_t hp = h->first[mode % 8 == 3 ? 0 : 1];
        uintptr_t hole = lo + (uintptr_t)(hp < NP ? hp : 0) * page;
        uintptr_t back = off % 512;
        return hole >= lo + back ? hole - back : lo;
    }
    }
}

static size_t pick_n(uint8_t sel, uint64_t x, uintptr_t d, uintptr_t s, int clear)
{
    /* Fixed sizes, and the per-CPU rules' thresholds (altmem_init()'s policy: the
       same for every input). */
    (void)altmem_nt_threshold();  /* the final policy: the caches are read late (src/select.c) */
    const struct altmem__policy *rp = &altmem__global.policy;
    const size_t thresholds[] = {2048, 4096, 8192, 16384, 32768, 65536, rp->nt_copy, rp->nt_set,
                                 rp->movsb[0], rp->movsb[1], rp->movsb[2], rp->movsb_coaligned,
                                 rp->stosb[0], rp->stosb[1], rp->stosb[2]};
    const size_t nthr = sizeof thresholds / sizeof thresholds[0];
    static const size_t classes[] = {64, 128, 256, 512};
    size_t small = (size_t)(x % 8192);
    switch (sel % 16) {
    case 0: return (size_t)(x % 65);
    case 1: return (size_t)(x % (NP * page + 257));
    case 2:
    case 3: {
        const struct arena *a = sel % 16 == 2 || clear ? &A_dst : &A_src;
        uintptr_t p = sel % 16 == 2 || clear ? d : s;
        size_t k = first_bad(a, p, SIZE_MAX, a == &A_dst);
        size_t delta = (size_t)(x % 9);
        return k + delta >= 4 ? k + delta - 4 : 0;
    }
    case 4: return SIZE_MAX - (size_t)(x % 256);
    case 5: return SIZE_MAX - ((size_t)1 << (x % 64)) + (size_t)((x >> 8) % 4);
    case 6: return (size_t)0 - d + small;
    case 7: return (size_t)0 - (clear ? d : s) + small;
    case 8: return (size_t)0 - d - 1 - small;
    case 9:
        switch ((x >> 16) % 4) {
        case 0: return ((size_t)1 << 47) + small - 4096;
        case 1: return ((size_t)1 << 63) + small - 4096;
        case 2: return (size_t)(x >> 18) % ((size_t)1 << 48);
        default: return ((size_t)1 << 48) + small;
        }
    case 10: return thresholds[(x >> 8) % nthr] + (size_t)(x % 3) - 1;
    case 11: return classes[(x >> 8) % 4] + (size_t)(x % 3) - 1;
    default: return (size_t)(x % (4 * page + 1));
    }
}

/* ---- The check ------------------------------------------------------------------------ */

static void fail(const struct impl *im, int clear, uintptr_t d, uintptr_t s, size_t n, size_t r, size_t rexp,
                 size_t kd, size_t ks, const char *what, uintptr_t at, unsigned got, unsigned want)
{
    char dl[40], sl[40], st[2][NP + 1];
    for (int k = 0; k < 2; k++) {
        const struct arena *a = k ? &A_src : &A_dst;
        for (size_t i = 0; i < NP; i++)
            st[k][i] = ".NURB"[a->st[i]];
        st[k][NP] = '\0';
    }
    if (in_arena(&A_dst, d))
        snprintf(dl, sizeof dl, "arena+%zu", (size_t)(d - (uintptr_t)A_dst.lo));
    else
        snprintf(dl, sizeof dl, "wild %#lx", (unsigned long)d);
    if (clear)
        snprintf(sl, sizeof sl, "-");
    else if (in_arena(&A_src, s))
        snprintf(sl, sizeof sl, "arena+%zu", (size_t)(s - (uintptr_t)A_src.lo));
    else
        snprintf(sl, sizeof sl, "wild %#lx", (unsigned long)s);
    char tail[128] = "";
    if (what)
        snprintf(tail, sizeof tail, "; %s: dst[%ld] = 0x%02x, expected 0x%02x", what, (long)(at - d), got, want);
    FZ_FAIL("%s/%s n=%zu (%#zx) dst=%s src=%s pages dst[%s] src[%s] (. ok, N PROT_NONE, U unmapped, R read-only, B SIGBUS) "
            FZ_POLICY_FMT ": expected r=%zu (k_dst=%zu k_src=%zu), got r=%zu%s",
            clear ? "clear_user" : "copy_user", im->name, n, n, dl, sl, st[0], st[1], FZ_POLICY_ARGS, rexp,
            kd, ks, r, tail);
}

static const unsigned char *first_diff(const unsigned char *a, const unsigned char *b, size_t n)
{
    if (!memcmp(a, b, n))
        return NULL;
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return a + i;
    return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fz_in in = {data, size, 0};
    /* The previous input's holes, taken since it was checked? */
    if (!holes_intact(&A_dst) || !holes_intact(&A_src))
        return refilled(R_START);
    if (inject == INJECT_REMAP)
        inject_holes(1);
    int clear = fz_u8(&in) & 1;
    const struct impl *im = &impls[clear][fz_pick(fz_u8(&in), n_impls[clear])];
    struct holes hd, hs;
    if (make_holes(&in, &A_dst, &hd) || make_holes(&in, &A_src, &hs))
        return refilled(R_REMAP);
    uintptr_t d = pick_pos(&in, &A_dst, &hd);
    uintptr_t s = pick_pos(&in, &A_src, &hs);
    uint8_t nsel = fz_u8(&in);
    uint64_t nx = fz_u64(&in);
    uint8_t ntmode = fz_u8(&in);
    uint32_t pdetail = fz_u24(&in);
    uint8_t mntmode = fz_u8(&in), movsbmode = fz_u8(&in), stosbmode = fz_u8(&in), shortmode = fz_u8(&in);

    size_t n = pick_n(nsel, nx, d, s, clear);
    struct fz_policy pol = {
        .nt = fz_threshold(ntmode, n, pdetail, NP * page),
        .memset_nt = fz_threshold(mntmode, n, pdetail, NP * page),
        .movsb = fz_threshold(movsbmode, n, pdetail, NP * page),
        .stosb = fz_threshold(stosbmode, n, pdetail, NP * page),
        .shortd = fz_short(shortmode, (size_t)(d - s) % 4096, pdetail),
    };
    fz_set_policy(&pol);

    size_t kd = first_bad(&A_dst, d, n, 1);
    size_t ks = clear ? n : first_bad(&A_src, s, n, 0);
    size_t done = kd < ks ? kd : ks;
    size_t rexp = n - done;
    /* Setting the policy may have allocated: is every hole still one? */
    int check = inject != INJECT_SETUP_UNCHECKED;
    if (inject == INJECT_SETUP || inject == INJECT_SETUP_UNCHECKED)
        inject_holes(0);
    if (check && (!holes_intact(&A_dst) || !holes_intact(&A_src)))
        return refilled(R_BEFORE);
    size_t r = clear ? im->clear((void *)d, n) : im->copy((void *)d, (const void *)s, n);
    /* A page mapped into a hole during the call makes r and the bytes
       meaningless (and may have been written): no judgement. */
    if (check && (!holes_intact(&A_dst) || !holes_intact(&A_src)))
        return refilled(R_AFTER);

    /* Every readable destination page: the done prefix as the source (zero), the
       rest BG. */
    const char *what = NULL;
    const unsigned char *bad = NULL;
    unsigned want = 0;
    uintptr_t p0 = d, p1 = d + done; /* done > 0 only inside the arena: no wrap */
    for (size_t i = 0; i < NP && !bad; i++) {
        if (A_dst.st[i] == P_NONE || A_dst.st[i] == P_UNMAP || A_dst.st[i] == P_BUS)
            continue;
        uintptr_t b = (uintptr_t)A_dst.lo + i * page, e = b + page;
        uintptr_t pb = b > p0 ? b : p0, pe = e < p1 ? e : p1;
        if (pb < pe) {
            const unsigned char *ref = clear ? zeropage : (const unsigned char *)(s + (pb - d));
            if ((bad = first_diff((const unsigned char *)pb, ref, pe - pb))) {
                what = "wrong byte in the done prefix";
                want = ref[bad - (const unsigned char *)pb];
                break;
            }
        } else {
            pb = pe = b;
        }
        if ((bad = first_diff((const unsigned char *)b, bgpage, pb - b)) ||
            (bad = first_diff((const unsigned char *)pe, bgpage, e - pe))) {
            what = "destination byte changed outside the done prefix";
            want = BG;
        }
    }
    if (r != rexp || bad)
        fail(im, clear, d, s, n, r, rexp, kd, ks, what, (uintptr_t)bad, bad ? *bad : 0, want);
    if (done)
        memset((void *)d, BG, done);
    if (inject == INJECT_BETWEEN)
        inject_holes(1);
    return 0;
}
