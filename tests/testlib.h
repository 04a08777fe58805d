/*
 * Shared machinery of the routine tests (test_memcpy, test_memmove, test_memset):
 * byte-loop references, guarded buffers, the one-case checker with its failure
 * report, the test parts memcpy and memmove have in common, and the driver that
 * runs every part against every runnable variant, the public entry point, and
 * (with --self-test) against deliberately broken implementations.
 *
 * How a case is checked: every buffer the routine writes has a mirror `exp`.  The
 * reference is applied to the mirror, the routine under test to the real buffer,
 * and the two are compared with memcmp over the destination plus TL_MARGIN bytes
 * on each side.  Afterwards both are put back to their resting contents, so each
 * case costs a few passes over its own window, never a refill of the buffer.
 */
#ifndef ALTMEM_TESTLIB_H
#define ALTMEM_TESTLIB_H

#include <stddef.h>
#include <stdint.h>

#include "altmem.h"

#define TL_KIB ((size_t)1024)
#define TL_MIB ((size_t)1024 * 1024)

#define TL_SWEEP_MAX 1024          /* sizes 0..TL_SWEEP_MAX at every offset pair */
#define TL_OFFSETS 64              /* offsets 0..63 from a page-aligned base     */
#define TL_LARGE_MAX (64 * TL_MIB) /* largest size tested                        */
#define TL_MARGIN 256              /* bytes checked on each side of the window   */

/* What the parts cover.  The defaults are the constants above; --quick (for
   emulators, where every case costs 10-50 times more) narrows offsets to 0..15,
   which still covers every residue mod 16 on both sides, large sizes to 4 MiB,
   and memmove overlaps to distances within +-100 at sizes 0..300.  --self-test
   ignores --quick: some broken implementations are only caught by the full ranges.

   --reduced (the CPU-model matrix's other models, tests/qemu-models/) keeps only
   the sizes at boundaries (tl_sizes) and a list of offset pairs (tl_pairs) that
   still puts dst and src at every residue mod 16 and at the ends of a 64-byte line;
   memmove's overlaps at distances around each class (tl_dists).  --self-test
   --reduced runs the broken implementations at those ranges (each caught by a
   part that runs under --reduced must still be caught there). */
struct tl_limits {
    size_t offsets;    /* sweep, guard, zero: offsets 0..offsets-1        */
    size_t large_max;  /* large: sizes up to this                          */
    long overlap_dist; /* memmove overlap: dst - src in [-d, d]           */
    size_t overlap_max;/* memmove overlap: sizes 0..overlap_max            */
    int reduced;       /* --reduced: the lists below instead of every size  */
};
extern struct tl_limits tl_lim;

/* Sizes of the sweep-like parts, ascending: 0..TL_SWEEP_MAX, or with --reduced
   0..33, then m-1, m, m+1 for every multiple m of 16 up to 1024 (every size-class
   boundary 8..512 and every vector length 16..256 and its multiples) and of 128 up
   to TL_REDUCED_MAX (8 x the vector length: SVE VL 256, RVV LMUL 8 strips).
   tl_sizes_upto(max) counts those <= max. */
#define TL_REDUCED_MAX (4 * TL_KIB + 1)
extern size_t tl_sizes[];
extern size_t tl_nsizes;
size_t tl_sizes_upto(size_t max);

/* (src offset, dst offset) pairs of the sweep: every pair 0..offsets-1, or with
   --reduced a list in which each of src and dst takes every residue mod 16 (at
   odd and even distances), equal offsets, and the last bytes of a 64-byte line. */
struct tl_pair {
    unsigned char src, dst;
};
extern const struct tl_pair tl_reduced_pairs[];
extern const size_t tl_reduced_pair_count;

/* memmove overlap distances (dst - src), ascending: every one in
   [-overlap_dist, overlap_dist], or with --reduced 0, +-1..5 and b-1, b, b+1 for
   b = 8, 16, 32, ... 1024 (distances around each class and vector strip). */
size_t tl_dists(long *out, size_t cap);

/* Resting value of destination bytes.  Random source data never contains it, so
   a destination byte the routine forgot to write, or one it wrote outside the
   window, always differs from what the reference expects. */
#define TL_BG 0xEE

/* ---- References: plain byte loops, nothing clever ----------------------- */

void *tl_ref_memcpy(void *dst, const void *src, size_t n);
void *tl_ref_memmove(void *dst, const void *src, size_t n);
void *tl_ref_memset(void *dst, int c, size_t n);

/* ---- Guarded buffers ----------------------------------------------------- */

enum tl_buf_kind {
    TL_BUF_SOURCE,     /* random bytes, read-only: a stray write faults          */
    TL_BUF_BACKGROUND, /* every byte `bg` between cases; has a mirror            */
    TL_BUF_RANDOM      /* random bytes between cases (kept in `init`); mirror    */
};

struct tl_buf {
    unsigned char *mem;  /* size bytes; the page before and the page after are PROT_NONE */
    unsigned char *exp;  /* what mem must hold after the current case (NULL: SOURCE)    */
    unsigned char *init; /* resting contents (RANDOM only)                              */
    size_t size;         /* a multiple of the page size, so mem + size is a guard page  */
    unsigned char bg;
    enum tl_buf_kind kind;
};

void tl_buf_make(struct tl_buf *b, size_t min_size, enum tl_buf_kind kind, uint64_t seed);
/* BACKGROUND buffers: change the resting byte (rewrites mem and exp). */
void tl_buf_set_bg(struct tl_buf *b, unsigned char bg);
/* mem + size - n: a window of n bytes ending flush against the upper guard page. */
unsigned char *tl_buf_end(const struct tl_buf *b, size_t n);

/* The buffers the parts share; made once by tl_main (src and ovl only for the
   copies). */
struct tl_env {
    struct tl_buf src; /* SOURCE, TL_LARGE_MAX plus room for offsets            */
    struct tl_buf dst; /* BACKGROUND, the same size                             */
    struct tl_buf ovl; /* RANDOM, 2 MiB + 3 pages: overlap and dst == src cases  */
    size_t page;
};
extern struct tl_env tl_env;

/* ---- What is tested, and the running tally -------------------------------- */

union tl_fn {
    altmem_memcpy_fn *memcpy;
    altmem_memmove_fn *memmove;
    altmem_memset_fn *memset;
};

struct tl_ctx {
    enum altmem_routine routine;
    const char *name;         /* "generic", "ual", "altmem_memcpy", "broken:..." */
    union tl_fn fn;
    const char *part;         /* the part running, for reports                  */
    unsigned long cases, failures;
    unsigned long max_print;  /* failures reported in full                      */
    unsigned long stop_after; /* 0: never; else give up after this many failures */
    int stop;                 /* stop_after reached: further cases are no-ops    */
};

/* One copy case (memcpy or memmove, per c->routine): dst must lie in b (or be
   b->mem + b->size when n == 0); src may lie in b too (overlap, dst == src) or
   anywhere else.  Returns 1 if the case passed. */
int tl_copy(struct tl_ctx *c, struct tl_buf *b, unsigned char *dst, const unsigned char *src, size_t n);
/* One memset case; dst as above. */
int tl_set(struct tl_ctx *c, struct tl_buf *b, unsigned char *dst, int v, size_t n);
/* n == 0 with pointers that may be NULL, point into a guard page, or anywhere:
   the return must be dst, and the two pages at each end of b (where the edge
   pointers point) must be untouched.  A routine that dereferences faults. */
void tl_zero(struct tl_ctx *c, struct tl_buf *b, void *dst, const void *src, int v);

/* Sizes of the large-size parts: powers of two from 2 KiB to tl_lim.large_max, their
   neighbours +-1, +-7, +-63, and a few odd sizes; ascending.  Returns the count. */
size_t tl_large_sizes(size_t *out, size_t cap);

/* ---- Test parts ------------------------------------------------------------ */

typedef void tl_part_fn(struct tl_ctx *c);

struct tl_part {
    const char *name;
    tl_part_fn *run;
};

/* Shared by memcpy and memmove (non-overlapping regions). */
void tl_part_copy_zero(struct tl_ctx *c);   /* n == 0, NULL and guard-page pointers */
void tl_part_copy_same(struct tl_ctx *c);   /* dst == src                            */
void tl_part_copy_guard(struct tl_ctx *c);  /* windows flush against guard pages    */
void tl_part_copy_sweep(struct tl_ctx *c);  /* 0..1024 x 64 x 64                     */
void tl_part_copy_large(struct tl_ctx *c);  /* up to 64 MiB                          */
void tl_part_copy_page_ends(struct tl_ctx *c); /* first or last bytes across a page  */
void tl_part_copy_nt(struct tl_ctx *c);     /* across non-temporal thresholds       */

/* Non-temporal paths across their threshold: the parts lower the threshold the
   variants read (altmem__nt_threshold) to each of these in turn, run sizes
   around it, and put it back.  tl_nt_sizes() lists the sizes for one of them. */
extern const size_t tl_nt_thresholds[];
extern const size_t tl_nt_threshold_count;
size_t tl_nt_sizes(size_t threshold, size_t *out, size_t cap);
void tl_nt_set(size_t threshold);   /* (size_t)-1 restores the library's value */

/* The policy the variants read, set through ALTMEM_TUNABLES' code path (the
   parser and altmem__decide on this CPU, then installed); NULL restores what
   altmem_init() chose.  A value the parser refuses ends the test (exit 2). */
void tl_policy_set(const char *value);
/* rep movsb / rep stosb from each of tl_string_thresholds (every width), never
   streaming; short_distance 0 (rep movsb at any distance) or 4095. */
extern const size_t tl_string_thresholds[];
extern const size_t tl_string_threshold_count;
void tl_string_set(size_t threshold, size_t short_distance);
void tl_part_copy_string(struct tl_ctx *c); /* sizes around rep movsb starts */

/* ---- Negative controls ------------------------------------------------------ */

enum tl_expect {
    TL_EXPECT_FAIL,  /* the checker must report at least one failure           */
    TL_EXPECT_FAULT  /* the process must die of SIGSEGV (or SIGBUS): guard page */
};

struct tl_broken {
    const char *name;
    const char *what;   /* the bug, in a few words                                */
    union tl_fn fn;
    const char *part;   /* the part that must catch it (NULL: run them all)        */
    enum tl_expect expect;
    /* NULL: --self-test --reduced must catch it too.  Else why the --reduced
       ranges do not claim this bug (a size that is no boundary, past their
       largest size): that self-test skips it and says so. */
    const char *not_reduced;
    /* 1: a bug planted at a boundary the --reduced lists claim (a size-class or
       strip edge, a residue, an overlap distance), run by --self-test --reduced
       only: it proves the reduced ranges still reach that boundary.  (The full
       ranges contain those cases by construction.) */
    int boundary;
};

/* Broken copies, used as memcpy and as memmove: each is correct except for one
   bug, and its entry names the part that must catch that bug.  tl_main adds them
   to the routine's own table for memcpy and memmove. */
extern const struct tl_broken tl_broken_copy[];
extern const size_t tl_broken_copy_count;

/* ---- Driver ------------------------------------------------------------------ */

/* Parses the command line (--self-test, --quick, --reduced, --only NAME, --part NAME, --help), makes
   the buffers, and runs every part against every runnable variant of r and the
   public entry point, or (--self-test) every broken implementation in a child
   process.  Returns the process exit status. */
int tl_main(int argc, char **argv, enum altmem_routine r, const struct tl_part *parts, size_t nparts,
            const struct tl_broken *broken, size_t nbroken);

#endif
