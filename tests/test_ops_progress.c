/*
 * The size classes of src/ops/, instantiated with the recording access
 * operation (OPS_RECORD) on a vector of TEST_W bytes: every class, at every
 * size of its range, every destination alignment its loops care about, and
 * with each of its accesses made to fault in turn, must
 *   - with no fault: store every byte of [0, n) and nothing outside it, load
 *     only inside [0, n) of the source, and return OPS_OK;
 *   - with the k-th access faulting: make no access after it, and return
 *     exactly the prefix of dst it had stored (the fix-up goes on from there:
 *     less would re-read source bytes already copied, more would skip bytes
 *     never stored).
 * One progress written wrong (the 2-vector class of the x86_64 copies once
 * returned n - W at its last store, where the prefix is max(2W, n - W)) is
 * caught: --self-test runs such a class and expects the check to fail.
 *
 *   test_ops_progress [--self-test]      (built for TEST_W 16 and 64, and with
 *                                        TEST_BLOCK16: the two-word block)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops/scalar.h"

#ifndef TEST_W
#error "build with -DTEST_W=16 or 64"
#endif

/* The recorder: a destination of MAXN bytes at DST, a source at SRC. */
#define MAXN (24 * TEST_W + 64)
#define DST ((uintptr_t)0x10000000)
#define SRC ((uintptr_t)0x20000000)

static struct {
    unsigned accesses;      /* made so far */
    unsigned fault_at;      /* the access that faults (~0u: none) */
    int after_fault;        /* an access was made after the fault */
    int outside;            /* an access outside [0, n) of dst or src */
    size_t n;
    uintptr_t dst;          /* this run's destination */
    unsigned char stored[MAXN];
} rec;

static int access_faults(void)
{
    if (rec.accesses > rec.fault_at)
        rec.after_fault = 1;
    return rec.accesses++ == rec.fault_at;
}

int ops_record_load(uintptr_t p, size_t bytes)
{
    if (p < SRC || p - SRC + bytes > rec.n)
        rec.outside = 1;
    return access_faults();
}

size_t ops_record_store(uintptr_t p, size_t bytes)
{
    if (p < rec.dst || p - rec.dst + bytes > rec.n) {
        rec.outside = 1;
        return access_faults() ? 0 : OPS_OK;
    }
    if (access_faults())
        return 0;
    memset(rec.stored + (p - rec.dst), 1, bytes);
    return OPS_OK;
}


#ifdef TEST_BLOCK16
/* The unaligned-access variants' block (src/ops/block16.h: two words, the
   second store reporting 8 bytes stored when it faults), with its own
   accessors, which send OPS_RECORD to the recorder below word by word. */
#include "ops/block16.h"
#else
/* The vector the classes are instantiated with: only its size matters here. */
typedef struct {
    unsigned char b[TEST_W];
} ops_vec;
#define OPS_W ((size_t)TEST_W)
typedef struct {
    unsigned char b[16];
} ops_v16;
typedef struct {
    unsigned char b[32];
} ops_v32;
#define OPS_HAVE_V16 1
#define OPS_HAVE_V32 1
#define OPS_STORE_ORDER() ((void)0)

#define VEC_RECORDER(type, load, store)                                          \
    OPS_INL int load(const enum ops_access acc, type *v, uintptr_t p, ptrdiff_t off) \
    {                                                                            \
        (void)acc;                                                               \
        memset(v, 0, sizeof *v);                                                 \
        return ops_record_load(p + off, sizeof *v);                              \
    }                                                                            \
    OPS_INL size_t store(const enum ops_access acc, uintptr_t p, ptrdiff_t off, type v) \
    {                                                                            \
        (void)acc;                                                               \
        (void)v;                                                                 \
        return ops_record_store(p + off, sizeof v);                              \
    }
VEC_RECORDER(ops_vec, ops_vld, ops_vst)
VEC_RECORDER(ops_v16, ops_ld16v, ops_st16v)
VEC_RECORDER(ops_v32, ops_ld32v, ops_st32v)

OPS_INL size_t ops_vstore(const enum ops_access acc, const enum ops_store how, uintptr_t p, ptrdiff_t off, ops_vec v)
{
    (void)how;
    return ops_vst(acc, p, off, v);
}

#include "ops/vector.h"
#endif

/* ---- The classes under test, one signature -------------------------------------- */

typedef size_t class_fn(uintptr_t d, size_t n);
static const ops_vec zero_vec;
#ifdef OPS_HAVE_V16
static const ops_v16 zero_v16;
static const ops_v32 zero_v32;
#endif

#define COPY(name, fn) static size_t name(uintptr_t d, size_t n) { return fn(OPS_RECORD, d, SRC, n); }
#define SET(name, fn, x) static size_t name(uintptr_t d, size_t n) { return fn(OPS_RECORD, d, x, n); }
COPY(c_8_16, ops_copy_8_16)
COPY(c_4_8, ops_copy_4_8)
COPY(c_2_4, ops_copy_2_4)
COPY(c_1_3, ops_copy_1_3)
COPY(c_lt8, ops_copy_lt8)
COPY(c_lt16, ops_copy_lt16)
#ifdef OPS_HAVE_V16
COPY(c_ht16, ops_copy_ht16)
COPY(c_ht32, ops_copy_ht32)
#endif
COPY(c_vht1, ops_vcopy_ht1)
COPY(c_vht2, ops_vcopy_ht2)
COPY(c_vht4, ops_vcopy_ht4)
static size_t c_1(uintptr_t d, size_t n) { (void)n; return ops_copy_1(OPS_RECORD, d, SRC); }
static size_t c_block4(uintptr_t d, size_t n) { (void)n; return ops_vcopy_block4(OPS_RECORD, OPS_ALIGNED, d, SRC); }
SET(s_8_16, ops_set_8_16, 0)
SET(s_4_8, ops_set_4_8, 0)
SET(s_2_4, ops_set_2_4, 0)
SET(s_lt16, ops_set_lt16, 0)
#ifdef OPS_HAVE_V16
SET(s_ht16, ops_set_ht16, zero_v16)
SET(s_ht32, ops_set_ht32, zero_v32)
#endif
SET(s_vht1, ops_vset_ht1, zero_vec)
SET(s_vht2, ops_vset_ht2, zero_vec)
SET(s_vht4, ops_vset_ht4, zero_vec)
SET(s_loop, ops_vset_loop, zero_vec)
static size_t s_1(uintptr_t d, size_t n) { (void)n; return ops_set_1(OPS_RECORD, d, 0); }
static size_t s_block4(uintptr_t d, size_t n) { (void)n; return ops_vset_block4(OPS_RECORD, OPS_ALIGNED, d, zero_vec); }
static size_t s_last4(uintptr_t d, size_t n)
{
    /* The bytes below n - 4W stored already, as ops_vset_loop leaves them. */
    memset(rec.stored, 1, n - 4 * OPS_W);
    return ops_vset_last4(OPS_RECORD, d + n, zero_vec, n, n - 4 * OPS_W);
}

/* The negative control: the 2-vector copy with the progress x86_64 had at its
   last store before the classes were shared (n - W: less than the 2W stored
   below it when n < 3W). */
static size_t wrong_vht2(uintptr_t d, size_t n)
{
    const enum ops_access acc = OPS_RECORD;
    ops_vec a, b, y, z;
    if (ops_vld(acc, &a, SRC, 0) || ops_vld(acc, &b, SRC, OPS_W) || ops_vld(acc, &y, SRC, n - 2 * OPS_W) ||
        ops_vld(acc, &z, SRC, n - OPS_W))
        return 0;
    if (ops_vst(acc, d, 0, a) != OPS_OK)
        return 0;
    if (ops_vst(acc, d, OPS_W, b) != OPS_OK)
        return OPS_W;
    if (ops_vst(acc, d, n - 2 * OPS_W, y) != OPS_OK)
        return 2 * OPS_W;
    if (ops_vst(acc, d, n - OPS_W, z) != OPS_OK)
        return n - OPS_W;
    return OPS_OK;
}

struct class_case {
    const char *name;
    class_fn *fn;
    size_t lo, hi;          /* the sizes it serves */
    size_t align;           /* dst offsets 0..align-1 from an OPS_W-aligned base */
};

static const struct class_case cases[] = {
    {"ops_copy_1", c_1, 1, 1, 1},
    {"ops_copy_2_4", c_2_4, 2, 4, 1},
    {"ops_copy_4_8", c_4_8, 4, 8, 1},
    {"ops_copy_8_16", c_8_16, 8, 16, 1},
    {"ops_copy_1_3", c_1_3, 1, 3, 1},
    {"ops_copy_lt8", c_lt8, 0, 7, 1},
    {"ops_copy_lt16", c_lt16, 0, 15, 1},
#ifdef OPS_HAVE_V16
    {"ops_copy_ht16", c_ht16, 16, 32, 1},
    {"ops_copy_ht32", c_ht32, 32, 64, 1},
#endif
    {"ops_vcopy_ht1", c_vht1, TEST_W, 2 * TEST_W, 1},
    {"ops_vcopy_ht2", c_vht2, 2 * TEST_W, 4 * TEST_W, 1},
    {"ops_vcopy_ht4", c_vht4, 4 * TEST_W, 8 * TEST_W, 1},
    {"ops_vcopy_block4", c_block4, 4 * TEST_W, 4 * TEST_W, 1},
    {"ops_set_1", s_1, 1, 1, 1},
    {"ops_set_2_4", s_2_4, 2, 4, 1},
    {"ops_set_4_8", s_4_8, 4, 8, 1},
    {"ops_set_8_16", s_8_16, 8, 16, 1},
    {"ops_set_lt16", s_lt16, 0, 15, 1},
#ifdef OPS_HAVE_V16
    {"ops_set_ht16", s_ht16, 16, 32, 1},
    {"ops_set_ht32", s_ht32, 32, 64, 1},
#endif
    {"ops_vset_ht1", s_vht1, TEST_W, 2 * TEST_W, 1},
    {"ops_vset_ht2", s_vht2, 2 * TEST_W, 4 * TEST_W, 1},
    {"ops_vset_ht4", s_vht4, 4 * TEST_W, 8 * TEST_W, 1},
    {"ops_vset_block4", s_block4, 4 * TEST_W, 4 * TEST_W, 1},
    {"ops_vset_last4", s_last4, 4 * TEST_W, 12 * TEST_W, 1},
    {"ops_vset_loop", s_loop, 8 * TEST_W + 1, 20 * TEST_W, TEST_W},
};

static size_t prefix(size_t n)
{
    size_t i = 0;
    while (i < n && rec.stored[i])
        i++;
    return i;
}

/* Runs fn at every size, offset and fault point; returns the number of
   failures (printing the first few). */
static unsigned check(const char *name, class_fn *fn, size_t lo, size_t hi, size_t align, int quiet)
{
    unsigned failures = 0;
    for (size_t n = lo; n <= hi; n++)
        for (size_t off = 0; off < align; off++) {
            unsigned total = 0;
            /* f = 0: no fault (and the count of accesses); then each in turn. */
            for (unsigned f = 0; f == 0 || f <= total; f++) {
                memset(&rec, 0, sizeof rec);
                rec.n = n;
                rec.dst = DST + off;
                rec.fault_at = f == 0 ? ~0u : f - 1;
                const size_t r = fn(DST + off, n);
                const char *why = NULL;
                size_t want = 0;
                if (rec.outside)
                    why = "an access outside [0, n)";
                else if (rec.after_fault)
                    why = "an access after the fault";
                else if (f == 0 && (r != OPS_OK || prefix(n) != n))
                    why = r != OPS_OK ? "OPS_OK expected" : "bytes left unstored";
                else if (f != 0 && r != (want = prefix(n)))
                    why = "progress is not the prefix stored";
                if (why) {
                    if (!quiet && failures < 5)
                        fprintf(stderr, "FAIL %s (W %d): n %zu, dst+%zu, access %u faults: %s (returned %zu, prefix %zu)\n",
                                name, TEST_W, n, off, f, why, r, want);
                    failures++;
                }
                if (f == 0)
                    total = rec.accesses;
            }
        }
    return failures;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--self-test") == 0) {
        const unsigned f = check("wrong_vht2", wrong_vht2, 2 * TEST_W, 4 * TEST_W, 1, 1);
        printf("negative control (x86_64's old 2-vector progress): %u failures (expected > 0)\n", f);
        return f > 0 ? 0 : 1;
    }
    unsigned failures = 0, classes = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct class_case *c = &cases[i];
        failures += check(c->name, c->fn, c->lo, c->hi, c->align, 0);
        classes++;
    }
    printf("%u classes at W %d: %u failures\n", classes, TEST_W, failures);
    return failures ? 1 : 0;
}
