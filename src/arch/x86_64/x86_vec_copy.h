/*
 * Part of x86_vec.h, which includes it after the one-vector accessors and
 * pieces: the loops of memcpy and memmove above the classes (n > 8W), the
 * string instructions, and large(): direction, streaming, rep movsb.
 * Not for inclusion on its own.
 */
#ifndef ALTMEM_X86_VEC_COPY_H
#define ALTMEM_X86_VEC_COPY_H

/* ---- Loops of memcpy / memmove: n > 8W -------------------------------------

   Plain accesses only: their first vector (vcopy_fwd) or last (vcopy_bwd) is
   stored last, after the loop, which memmove needs (with dst just below src, a
   head stored first would overwrite source bytes the loop has still to read)
   and a fault-tolerant copy cannot have (a fault in the loop would leave a
   hole below the progress).  copy_user's own loops (src/arch/x86_64/uaccess/ua_x86_vec.h)
   store in ascending order from the same 4-vector blocks (ops_vcopy_block4). */

/* Forward; correct unless dst lies inside (src, src + n).  The first vector and
   the last four are loaded up front and stored last (the first only when dst
   is not W-aligned), so that the loop may start at a W-aligned dst and stop as
   soon as at most 4W bytes remain, and so that no store lands on source bytes
   still to be read when dst < src.  Where the first vector or one of the last
   four would cross a page, vcopy_fwd_pieces (the 32- and 64-byte loops,
   VCOPY_PAGE_TEST below; out of line: the test is the one
   not-taken branch the common path pays; with -fno-reorder-blocks an inline
   slow path would cost taken jumps around it). */
static void *vcopy_fwd_pieces(unsigned char *d, const unsigned char *s, size_t n);

/* One of the last four vectors before de may cross a page when de lies
   1..4W - 1 bytes past a boundary (at a W step from it none does, and the
   pieces cost little); one of the first four from d when d lies in the last
   4W - 1 bytes of a page. */
OPS_INL int last_four_cross_page(uintptr_t de) { return ((de - 1) & 4095) < 4 * W - 1; }
OPS_INL int first_four_cross_page(uintptr_t d) { return (d & 4095) > 4096 - 4 * W; }

/* The first vector crosses a page when dst lies in the last W - 1 bytes of
   one; or one of the last four may. */
OPS_INL int fwd_ends_cross_page(uintptr_t d, uintptr_t de)
{
    return (d & 4095) > 4096 - W || last_four_cross_page(de);
}

/* The 16-byte loops do without the test and its pieces: on Intel 6/207 its
   instructions cost more at 160-512 B (sse2 copies 0.86-0.95x glibc 2.41
   there with it, 0.94-1.02x without) than a crossing costs on average (~2%
   of random addresses; a crossing copy of 192 B then takes glibc's time,
   where the pieces took 0.6x of it: docs/perf/intel-family6-model207.md,
   "The sse2 copy loops without the page test").  The wider loops keep it. */
#define VCOPY_PAGE_TEST (VEC_BITS > 128)

/* Where the pieces run, the 32-byte loops' ends are loaded before the loop,
   the 64-byte ones' read again after it, each as measured on Intel 6/167
   against the other (docs/perf/intel-family6-model167.md, "The pieces' ends"):
   read after the 32-byte loop, they waited on its last stores wherever src
   and dst lie a few bytes from a multiple of 4 KiB apart (the 4 KiB alias;
   memmove 8 KiB with dst inside the source 0.93x glibc 2.41, 0.96x loaded
   first, 16 KiB with dst 64 above src 88-93 -> 80 ns); loaded first, the
   64-byte ones lost 0.02-0.05 in the same cells. */
#define VCOPY_PIECES_ENDS_FIRST (VEC_BITS == 256)

OPS_INL void *vcopy_fwd(unsigned char *d, const unsigned char *s, size_t n)
{
    unsigned char *d0 = d, *de = d + n;
    const unsigned char *se = s + n;
    if (!VCOPY_PAGE_TEST || likely(!fwd_ends_cross_page((uintptr_t)d, (uintptr_t)de))) {
        vec h = vld(s);
        vec t0 = vld(se - 4 * W), t1 = vld(se - 3 * W), t2 = vld(se - 2 * W), t3 = vld(se - W);
        /* 1..W: from dst's next W boundary, h stored apart, as glibc's.  From d
           itself at a W-aligned dst the loop's last block stored again what
           t0..t3 store where n mod 4W is 1..W (576 B: 12 stores for 9, 0.76x
           glibc 2.41); elsewhere this costs one store (vcopy_bwd likewise;
           docs/perf/intel-family6-model167.md, "576 B aligned"). */
        size_t skip = W - ((uintptr_t)d & (W - 1));
        d += skip;
        s += skip;
        n -= skip;
        for (; n > 4 * W; n -= 4 * W, d += 4 * W, s += 4 * W)   /* 4W per iteration */
            ops_vcopy_block4(OPS_PLAIN, OPS_ALIGNED, (uintptr_t)d, (uintptr_t)s);
        vst(de - 4 * W, t0);
        vst(de - 3 * W, t1);
        vst(de - 2 * W, t2);
        vst(de - W, t3);
        vst(d0, h);
        return d0;
    }
    return vcopy_fwd_pieces(d, s, n);  /* a tail call: no frame on the common path */
}

/* 4W per iteration from the W-aligned d up, at least once, until at most 4W
   bytes are left below de. */
OPS_INL void vcopy_fwd_loop(unsigned char *d, const unsigned char *s, const unsigned char *de)
{
    do {
        ops_vcopy_block4(OPS_PLAIN, OPS_ALIGNED, (uintptr_t)d, (uintptr_t)s);
        d += 4 * W;
        s += 4 * W;
    } while ((size_t)(de - d) > 4 * W);
}

/* vcopy_fwd where its first or last vectors would cross a page (a 4 KiB copy
   to dst + 1 on Zen 4: 45.5 ns, 35.8 without the crossing): the same loop, the
   first bytes up to the boundary as a piece loaded up front and stored last,
   and the rest W-aligned vectors and a piece.  With VCOPY_PIECES_ENDS_FIRST the
   end is loaded before the loop (as vcopy_fwd's four vectors where they cross
   no page); without, read from the source again after it (every byte read then
   lies at or above what is left to copy, which no store so far reached: dst <=
   src, or apart). */
#if VCOPY_PIECES_ENDS_FIRST
static __attribute__((noinline, cold)) void *vcopy_fwd_pieces(unsigned char *d, const unsigned char *s, size_t n)
{
    unsigned char *d0 = d, *de = d + n;
    const unsigned char *se = s + n;
    size_t skip = -(uintptr_t)d & (W - 1);
    struct piece hp = piece_load(s, skip ? skip : 1);
    d += skip;
    s += skip;
    if (!last_four_cross_page((uintptr_t)de)) {     /* only the first vector crosses */
        vec u0 = vld(se - 4 * W), u1 = vld(se - 3 * W), u2 = vld(se - 2 * W), u3 = vld(se - W);
        vcopy_fwd_loop(d, s, de);
        vst(de - 4 * W, u0);
        vst(de - 3 * W, u1);
        vst(de - 2 * W, u2);
        vst(de - W, u3);
        piece_store(d0, &hp);
        return d0;
    }
    /* n > 8W: the loop runs at least once and stops at df, 1..4W below de */
    unsigned char *df = d + 4 * W * (((size_t)(de - d) - 1) / (4 * W));
    unsigned char *z = (unsigned char *)((uintptr_t)de & -(uintptr_t)W);
    size_t m = (size_t)(z - df) / W;    /* vectors in [df, z): 0..4 */
    const unsigned char *sz = se - (de - z);
    vec t0 = vld(sz - W), t1 = vld(sz - 2 * W), t2 = vld(sz - 3 * W), t3 = vld(sz - 4 * W);
    /* de W-aligned: no piece; its stand-in reads the source's last byte, not
       the one past its end (sz = se there: fuzz_mem found the read). */
    struct piece tp = de > z ? piece_load(sz, (size_t)(de - z)) : piece_load(sz - 1, 1);
    vcopy_fwd_loop(d, s, de);
    if (m > 0)
        vsta(z - W, t0);
    if (m > 1)
        vsta(z - 2 * W, t1);
    if (m > 2)
        vsta(z - 3 * W, t2);
    if (m > 3)
        vsta(z - 4 * W, t3);
    if (de > z)
        piece_store(z, &tp);
    if (skip)
        piece_store(d0, &hp);
    return d0;
}
#else
static __attribute__((noinline, cold)) void *vcopy_fwd_pieces(unsigned char *d, const unsigned char *s, size_t n)
{
    unsigned char *d0 = d;
    size_t skip = -(uintptr_t)d & (W - 1);
    struct piece hp = piece_load(s, skip ? skip : 1);
    d += skip;
    s += skip;
    n -= skip;
    for (; n > 4 * W; n -= 4 * W, d += 4 * W, s += 4 * W)
        ops_vcopy_block4(OPS_PLAIN, OPS_ALIGNED, (uintptr_t)d, (uintptr_t)s);
    for (; n >= W; n -= W, d += W, s += W)
        vsta(d, vld(s));
    if (n) {
        struct piece tp = piece_load(s, n);
        piece_store(d, &tp);
    }
    if (skip)
        piece_store(d0, &hp);
    return d0;
}
#endif

/* (dst - src) mod 4096 in [0, 256), regions apart: a forward 256-byte loop's
   loads would wait on stores just made whose addresses match in the low 12
   bits (4 KiB aliasing: inside the call for 1..255, and, for 0, on the stores
   of the previous call when the same buffers are copied again); a backward
   loop's do not.  glibc 2.36 makes the same choice (what it bought:
   docs/perf/variant-figures.md). */
OPS_INL int alias_4k_ahead(const unsigned char *d, const unsigned char *s)
{
    return (((uintptr_t)d - (uintptr_t)s) & 4095) < 256;
}

/* The 4W bytes below qe from the 4W below pe: all four loaded, then stored
   from the top down (OPS_STORE_ORDER), W-aligned. */
OPS_INL void vcopy_bwd_block4(unsigned char *qe, const unsigned char *pe)
{
    vec e = vld(pe - W), c = vld(pe - 2 * W), b = vld(pe - 3 * W), a = vld(pe - 4 * W);
    vsta(qe - W, e);
    OPS_STORE_ORDER();
    vsta(qe - 2 * W, c);
    OPS_STORE_ORDER();
    vsta(qe - 3 * W, b);
    OPS_STORE_ORDER();
    vsta(qe - 4 * W, a);
}

/* 4W per iteration from the W-aligned q (its source p) down, at least once,
   until at most 4W bytes are left above d; a pointer per side (below). */
OPS_INL void vcopy_bwd_loop(unsigned char *q, const unsigned char *p, const unsigned char *d)
{
    do {
        vcopy_bwd_block4(q, p);
        q -= 4 * W;
        p -= 4 * W;
        OPS_LAUNDER(p);                 /* else GCC derives it from q again */
    } while (q > d + 4 * W);
}

/* Backward; correct unless dst lies below src inside its range.  Mirror image
   of vcopy_fwd: the first four vectors and the last one up front (the last
   stored only when dst + n is not W-aligned); vcopy_bwd_pieces where one of
   them would cross a page. */
static void *vcopy_bwd_pieces(unsigned char *d, const unsigned char *s, size_t n);

/* The last vector crosses a page when dst + n lies 1..W - 1 bytes past a
   boundary; or one of the first four may. */
OPS_INL int bwd_ends_cross_page(uintptr_t d, uintptr_t de)
{
    return ((de - 1) & 4095) < W - 1 || first_four_cross_page(d);
}

/* The backward loop with a pointer per side, as the forward one and glibc's:
   with one index for both (GCC's choice, base + index addresses), and with
   the loads indexed off the stores' pointer, the 16-byte loop ran 0.83-0.91x
   glibc 2.41 at 4-32 KiB with dst inside the source, and the copies at the
   bench's 4 KiB alias 0.86-0.94x at 512 B-1.5 KiB, on Intel 6/167; with two
   pointers 0.96-1.03x (docs/perf/intel-family6-model167.md, "The backward
   loop's addressing"). */
OPS_INL void *vcopy_bwd(unsigned char *d, const unsigned char *s, size_t n)
{
    unsigned char *de = d + n;
    if (!VCOPY_PAGE_TEST || likely(!bwd_ends_cross_page((uintptr_t)d, (uintptr_t)de))) {
        vec t = vld(s + n - W);
        vec h0 = vld(s), h1 = vld(s + W), h2 = vld(s + 2 * W), h3 = vld(s + 3 * W);
        /* From the last W boundary below de, t stored last, as glibc's: at a
           W-aligned end where n mod 4W is 1..W a loop from de would store a
           last block that h0..h3 store again (576 B: 12 stores for 9, 0.80x
           glibc 2.41's avx512), and choosing per call cost the others. */
        unsigned char *q = (unsigned char *)(((uintptr_t)de - 1) & -(uintptr_t)W); /* W-aligned, below de */
        /* in integers: s - d wraps where s lies below d (a pointer sum would overflow) */
        const unsigned char *p = (const unsigned char *)((uintptr_t)q + ((uintptr_t)s - (uintptr_t)d));
        vcopy_bwd_loop(q, p, d);       /* n > 8W: at least one round */
        vst(d, h0);
        vst(d + W, h1);
        vst(d + 2 * W, h2);
        vst(d + 3 * W, h3);
        vst(de - W, t);
        return d;
    }
    return vcopy_bwd_pieces(d, s, n);  /* a tail call: no frame on the common path */
}

/* vcopy_bwd where its first or last vectors would cross a page: the bytes
   above the last W boundary as a piece loaded up front and stored last, the
   same loop from the top down, then [d, d + n) as W-aligned vectors and a
   piece.  With VCOPY_PIECES_ENDS_FIRST those are loaded before the loop (as
   vcopy_bwd's four vectors where they cross no page); without, read from the
   source again from the top down after it: every byte read lies below what
   the loop stored (dst >= src, or apart), and each store lands above the
   source bytes still to be read. */
#if VCOPY_PIECES_ENDS_FIRST
static __attribute__((noinline, cold)) void *vcopy_bwd_pieces(unsigned char *d, const unsigned char *s, size_t n)
{
    unsigned char *de = d + n;
    size_t top = (uintptr_t)de & (W - 1);
    struct piece tp = piece_load(s + n - (top ? top : 1), top ? top : 1);
    unsigned char *q = de - top;        /* W-aligned */
    const unsigned char *p = s + (n - top);
    if (!first_four_cross_page((uintptr_t)d)) {     /* only the last vector crosses */
        vec h0 = vld(s), h1 = vld(s + W), h2 = vld(s + 2 * W), h3 = vld(s + 3 * W);
        vcopy_bwd_loop(q, p, d);
        vst(d, h0);
        vst(d + W, h1);
        vst(d + 2 * W, h2);
        vst(d + 3 * W, h3);
        piece_store(de - top, &tp);
        return d;
    }
    /* n > 8W: the loop runs at least once and stops at qb, 1..4W above d */
    unsigned char *qb = q - 4 * W * (((size_t)(q - d) - 1) / (4 * W));
    unsigned char *a = (unsigned char *)(((uintptr_t)d + W - 1) & -(uintptr_t)W);
    size_t m = (size_t)(qb - a) / W;    /* vectors in [a, qb): 0..4 */
    const unsigned char *sa = s + (a - d);
    vec b0 = vld(sa), b1 = vld(sa + W), b2 = vld(sa + 2 * W), b3 = vld(sa + 3 * W);
    struct piece bp = piece_load(s, a > d ? (size_t)(a - d) : 1);
    vcopy_bwd_loop(q, p, d);
    if (m > 3)
        vsta(a + 3 * W, b3);
    if (m > 2)
        vsta(a + 2 * W, b2);
    if (m > 1)
        vsta(a + W, b1);
    if (m > 0)
        vsta(a, b0);
    if (a > d)
        piece_store(d, &bp);
    if (top)
        piece_store(de - top, &tp);
    return d;
}
#else
static __attribute__((noinline, cold)) void *vcopy_bwd_pieces(unsigned char *d, const unsigned char *s, size_t n)
{
    unsigned char *de = d + n;
    size_t top = (uintptr_t)de & (W - 1);
    struct piece tp = piece_load(s + n - (top ? top : 1), top ? top : 1);
    n -= top;
    for (; n > 4 * W; n -= 4 * W)
        vcopy_bwd_block4(d + n, s + n);
    for (; n >= W; n -= W)
        vsta(d + n - W, vld(s + n - W));
    if (n) {
        struct piece bp = piece_load(s, n);
        piece_store(d, &bp);
    }
    if (top)
        piece_store(de - top, &tp);
    return d;
}
#endif

/* vcopy_fwd_nt copies four pages at a time, so memmove may stream a forward
   overlap only when src is at least this far ahead of dst. */
#define NT_MIN_AHEAD (4 * 4096)

/* memmove from the streaming threshold, src ahead of dst by bwd (or apart):
   whether vcopy_fwd_nt may run.  Src at least NT_MIN_AHEAD ahead, and a
   forward overlap (bwd < n) only from altmem__nt_threshold_fwd_overlap
   (src/policy.c: the rules' own where they set one, else the copies'
   threshold): its stores land on lines the loop read as source n - bwd bytes
   before, which may still be cached; glibc never streams an overlapping move
   for that reason ("destination may be in cache when source is loaded",
   memmove-vec-unaligned-erms.S). */
OPS_INL int fwd_may_stream(uintptr_t bwd, size_t n)
{
    return bwd >= NT_MIN_AHEAD && (bwd >= n || n >= altmem__nt_threshold_fwd_overlap);
}

/* Forward with non-temporal stores, n > 8W (>= 128 bytes); for regions apart,
   or src at least NT_MIN_AHEAD above dst (each store then lands on source
   bytes already read).  The first 64 bytes and the last 4W go through the
   cache as ordinary stores; between them whole 64-byte lines are streamed. */
OPS_INL void vcopy_fwd_nt(unsigned char *d, const unsigned char *s, size_t n)
{
    unsigned char *de = d + n;
    const unsigned char *se = s + n;
    vec t0 = vld(se - 4 * W), t1 = vld(se - 3 * W), t2 = vld(se - 2 * W), t3 = vld(se - W);
    for (size_t k = 0; k < 64; k += W)                 /* head: first 64 bytes */
        vst(d + k, vld(s + k));
    size_t skip = 64 - ((uintptr_t)d & 63);            /* 1..64: dst line-aligned after it */
    d += skip;
    s += skip;
    n -= skip;
    /* Four 4 KiB pages at a time, 4W from each in turn: four streams for the
       memory system (and the page-bound hardware prefetchers) instead of one;
       where the rules say one stream wins (src/policy.c, amd-zen4), straight on. */
    if (altmem__copy_nt_four_pages)
        for (; n > 4 * 4096 + 4 * W; n -= 4 * 4096, d += 4 * 4096, s += 4 * 4096)
            for (size_t k = 0; k < 4096; k += 4 * W)
                for (size_t p = 0; p < 4 * 4096; p += 4096) {
                    const unsigned char *q = s + p + k;
                    vec a = vld(q), b = vld(q + W), c = vld(q + 2 * W), e = vld(q + 3 * W);
                    vstnt(d + p + k, a);
                    vstnt(d + p + k + W, b);
                    vstnt(d + p + k + 2 * W, c);
                    vstnt(d + p + k + 3 * W, e);
                }
    for (; n > 4 * W; n -= 4 * W, d += 4 * W, s += 4 * W)
        ops_vcopy_block4(OPS_PLAIN, OPS_STREAMING, (uintptr_t)d, (uintptr_t)s);
    _mm_sfence();
    vst(de - 4 * W, t0);
    vst(de - 3 * W, t1);
    vst(de - 2 * W, t2);
    vst(de - W, t3);
}

/* Backward with non-temporal stores, n > 8W, for memmove with dst at least
   4 KiB above src inside its range: each store lands on source bytes at least
   a page above the next load, already read.  Mirror image of vcopy_fwd_nt's
   simple loop: the last 64 bytes and the first 4W through the cache. */
OPS_INL void vcopy_bwd_nt(unsigned char *d, const unsigned char *s, size_t n)
{
    unsigned char *de = d + n;
    const unsigned char *se = s + n;
    vec h0 = vld(s), h1 = vld(s + W), h2 = vld(s + 2 * W), h3 = vld(s + 3 * W);
    for (size_t k = 64; k > 0; k -= W)                 /* tail: last 64 bytes */
        vst(de - k, vld(se - k));
    n -= ((uintptr_t)de & 63) ? ((uintptr_t)de & 63) : 64;   /* d + n line-aligned, below the tail */
    for (; n > 4 * W; n -= 4 * W) {
        const unsigned char *p = s + n - 4 * W;
        unsigned char *q = d + n - 4 * W;
        vec a = vld(p), b = vld(p + W), c = vld(p + 2 * W), e = vld(p + 3 * W);
        vstnt(q + 3 * W, e);
        vstnt(q + 2 * W, c);
        vstnt(q + W, b);
        vstnt(q, a);
    }
    _mm_sfence();
    vst(d, h0);
    vst(d + W, h1);
    vst(d + 2 * W, h2);
    vst(d + 3 * W, h3);
}

/* ---- String instructions (ERMS) ---------------------------------------------- */

OPS_INL void rep_movsb(unsigned char *d, const unsigned char *s, size_t n)
{
    __asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}

OPS_INL void rep_stosb(unsigned char *d, int c, size_t n)
{
    __asm__ volatile("rep stosb" : "+D"(d), "+c"(n) : "a"(c) : "memory");
}

/* The same inside an entry that returns ret (its dst) in rax: rax kept by
   hand, so that the compiler need not keep dst elsewhere on every other path;
   d is where the string starts (dst, or past a head stored otherwise). */
OPS_INL void *rep_stosb_keep_rax(void *ret, unsigned char *d, int c, size_t n)
{
    __asm__ volatile("mov %%rax, %%r8\n\tmovzbl %b[c], %%eax\n\trep stosb\n\tmov %%r8, %%rax"
                     : "+a"(ret), "+D"(d), "+c"(n) : [c] "r"(c) : "r8", "memory");
    return ret;
}

/* rep_stosb_keep_rax with n still in rdx, copied to rcx inside (ret in rax,
   d in rdi): asked for n in rcx, GCC copied it there on the 64-byte memset's
   entry, an instruction on every path (64-128 B aligned 0.95-0.98 -> 1.00x
   glibc 2.41 without it, Intel 6/167; docs/perf/intel-family6-model167.md,
   "rep stosb in the 64-byte entry"). */
OPS_INL void *rep_stosb_keep_rax_n_rdx(void *ret, unsigned char *d, int c, size_t n)
{
    __asm__ volatile("mov %%rdx, %%rcx\n\tmov %%rax, %%r8\n\tmovzbl %b[c], %%eax\n\trep stosb\n\tmov %%r8, %%rax"
                     : "+a"(ret), "+D"(d), "+d"(n) : [c] "r"(c) : "rcx", "r8", "memory");
    return ret;
}

/* rep stosb from dst's first 64-byte boundary, the bytes before it by
   unaligned vector stores (n >= 64 on every path here), for an entry that
   returns dst in rax (ret); correct at any dst, taken only where dst is not 64-byte
   aligned.  glibc 2.41 aligns dst so before rep movsb
   (memmove-vec-unaligned-erms.S), not before rep stosb.  Intel 6/167, every width, against glibc 2.41
   and 2.36, idle and under --load: 2-6 KiB dst+3 and dst+63 +0.04..+0.07
   (0.94-0.98 -> 1.00-1.08x), 8-12 KiB +0.02; the test costs aligned 4-6 KiB
   0.01-0.03 (docs/perf/intel-family6-model167.md, "rep stosb from a line"). */
OPS_INL void *rep_stosb_line_keep_rax(void *ret, unsigned char *d, vec x, int c, size_t n)
{
    for (int i = 0; i < 64; i += W)
        vst(d + i, x);
    unsigned char *a = (unsigned char *)(((uintptr_t)d + 64) & ~(uintptr_t)63);
    return rep_stosb_keep_rax(ret, a, c, (size_t)(d + n - a));
}

/* Every memset entry's rep stosb from d, returning ret (the same pointer, as
   the entry holds it in rax): from d's next line where d is not 64-byte
   aligned (above), else from d; n_in_rdx: the 64-byte entry's form
   (rep_stosb_keep_rax_n_rdx). */
OPS_INL void *rep_stosb_entry_keep_rax(void *ret, unsigned char *d, vec x, int c, size_t n, const int n_in_rdx)
{
    if (unlikely((uintptr_t)d & 63))
        return rep_stosb_line_keep_rax(ret, d, x, c, n);
    return n_in_rdx ? rep_stosb_keep_rax_n_rdx(ret, d, c, n) : rep_stosb_keep_rax(ret, d, c, n);
}

/* (dst - src) mod 4096 in [1, 63]: where rep movsb falls to 1.5-2.7 GB/s on
   AMD Zen 3 (21-42 GB/s at other distances; glibc BZ 30994).  The ERMS variants keep
   their vector loop there; on the machine of docs/performance.md the two run at
   the same speed at these distances, so the guard costs nothing measurable. */
OPS_INL int movsb_short_distance(uintptr_t d, uintptr_t s)
{
    return (((uintptr_t)d - (uintptr_t)s) & 4095) - 1 < altmem__movsb_short_distance;
}

/* A forward overlap (src ahead of dst by bwd < n) below the start a rule gives
   this width's forward overlaps' rep movsb (amd-zen5: 8 / 40 / 64 KiB for the
   16 / 32 / 64-byte variants; 0 elsewhere, and the test fails at once).  Read
   only on memmove's paths past the common one. */
OPS_INL int fwd_overlap_below_movsb(uintptr_t bwd, size_t n)
{
    return bwd < n && n < altmem__rep_movsb_start_fwd_overlap[VEC_BITS == 128 ? 0 : VEC_BITS == 256 ? 1 : 2];
}
/* ... whose loop: out of line, so that the test is all the other CPUs' paths
   carry (inline, the loop's copy moved GCC's blocks and registers: memmove_avx512
   1 KiB with dst inside the source 1.03 -> 1.00x glibc 2.41 on Intel 6/167).
   Not `cold`: GCC optimises a cold function for size and leaves it and its
   loop unaligned in .text.unlikely, where any change before it moved the loop
   (a 25-byte shift: memmove avx2 4-16 KiB forward overlaps 0.93-1.00 ->
   0.73-0.78x glibc 2.41 on Zen 5, docs/perf/amd-family26-model2.md). */
static __attribute__((noinline, unused)) void *vcopy_fwd_cold(unsigned char *d, const unsigned char *s, size_t n)
{
    return vcopy_fwd(d, s, n);
}

/* Where this width's memcpy / memmove stream (src/policy.c: amd-zen4 keeps
   the 16-byte copies cached), and where its rep movsb stops (amd-zen4: the
   16-byte loop again above 8 KiB with source and destination apart, above
   32 KiB for a forward overlap, above 12 MiB for a forward move whose source
   is 64 B-4 KiB ahead by a multiple of 64, where the two share their lines;
   the wider ones have no stop, and the test folds away). */
#if VEC_BITS == 128
#define COPY_NT_THRESHOLD altmem__nt_threshold_16
OPS_INL size_t movsb_stop(const unsigned char *d, const unsigned char *s, size_t n)
{
    if (likely(n <= altmem__rep_movsb_stop_16_min))
        return n;                       /* below every stop (all of them where no rule sets one) */
    uintptr_t ahead = (uintptr_t)s - (uintptr_t)d;
    if (ahead - 64 <= 4096 - 64 && !(ahead & 63))
        return altmem__rep_movsb_stop_16_near;
    return ahead < n ? altmem__rep_movsb_stop_16 : altmem__rep_movsb_stop_16_apart;
}
#else
#define COPY_NT_THRESHOLD altmem__nt_threshold
#define movsb_stop(d, s, n) ((size_t)-1)
#endif

/* Below streaming: under the width's threshold, or, with (dst - src) % 64 == 0,
   under the equally aligned copies' own (amd-zen5: never; elsewhere the same,
   and the second test is reached only where it is false).  The 16-byte copies
   have one threshold. */
OPS_INL int copy_below_nt(uintptr_t d, uintptr_t s, size_t n)
{
#if VEC_BITS == 128
    (void)d, (void)s;
    return n < COPY_NT_THRESHOLD;
#else
    return n < COPY_NT_THRESHOLD || (n < altmem__nt_threshold_coaligned && !((d ^ s) & 63));
#endif
}

#if VEC_BITS == 256
/* src and dst equally aligned mod 32: no load of the 32-byte loop crosses a
   line.  Apart, the copies take rep movsb from a start of their own where a
   rule sets one (src/policy.c, intel-fsrm; the entry's vcopy_loop_coaligned
   keeps the others in the loop up to theirs). */
#define coaligned_32(d, s) (!(((uintptr_t)(d) ^ (uintptr_t)(s)) & 31))
#define movsb_start_32(d, s) (!coaligned_32(d, s) ? &altmem__rep_movsb_start_32_apart : &altmem__rep_movsb_start[1])
#endif

/* (8W, 16W]: k vectors from each end (k = 8 above 12W, 6 above 10W, else 5: 8 at
   192 B moved 256, 0.79-0.84x glibc 2.41's sse2 copies on Zen 4), all loaded
   before the first store (memmove-safe; the 16 xmm registers of the sse2
   copies, where glibc's loop runs one round at 129-256 bytes).  Only with dst W-aligned: with dst
   misaligned its 16 unaligned stores cross a line twice per 64 bytes, and the
   loop (dst aligned first) wins: at 160-256 B dst+3 0.68-0.84x glibc here,
   0.87-0.96x through the loop; aligned, 1.2-1.5x glibc here against ~1.0x
   through the loop (Intel 6/167, docs/perf/intel-family6-model167.md).
   vcopy_htk_fits: (8W, 16W] with dst W-aligned, which the entries test before
   their loops, as one compare: dst's low bits shifted to the top of n's word,
   where any of them makes it larger than 16W (mov, shl, or, cmp, jbe: GCC made
   the two tests 8 instructions with their branch, on every path to the loops). */
OPS_INL int vcopy_htk_fits(const unsigned char *d, size_t n)
{
    uintptr_t x = ((uintptr_t)d << (64 - __builtin_ctz(W))) | n;
    __asm__("" : "+r"(x));              /* not split back into two tests */
    return x <= 16 * W;
}
/* h vectors from the start, t from the end (h + t covering n), all loaded first. */
OPS_INL void vcopy_hk(unsigned char *d, const unsigned char *s, size_t n, const int h, const int t)
{
    vec a[8], b[8];
    for (int i = 0; i < h; i++)
        a[i] = vld(s + i * W);
    for (int i = 0; i < t; i++)
        b[i] = vld(s + n - t * W + i * W);
    for (int i = 0; i < h; i++)
        vst(d + i * W, a[i]);
    for (int i = 0; i < t; i++)
        vst(d + n - t * W + i * W, b[i]);
}
OPS_INL void vcopy_htk(unsigned char *d, const unsigned char *s, size_t n, const int k) { vcopy_hk(d, s, n, k, k); }

#if VEC_BITS == 256
/* The 32-byte copies' (8W, 16W] with dst aligned, all loaded before any store
   as the 16-byte copies' entry takes them, but as many vectors as n needs
   (9 for 288 B: 5 from the start, 4 from the end; with k from each end 10, and
   288 B memcpy 0/0 ran at 0.91x glibc 2.41 against 1.00x, 416 B 0.93 against
   1.00x).  Before, they looped there (backward at an aligned 4 KiB alias):
   0.63-0.88x glibc 2.41's avx2 memmove at 288-384 B 0/0 on Zen 4; then 0.83-1.27x
   (docs/perf/amd-family25-model17.md, "The 32-byte copies at 257-512 B").  They
   were first tested in large(), since in the entry the 32-byte copies lost
   15-20% at 0-3 B and 96-128 B to the moved code; with the loops inline, the
   entry tests them (one test, the loops on its fall-through) and 64-byte jump
   targets keep the small classes where they were (x86_vec_set.h,
   vcopy_loop_or_large). */
OPS_INL void *vcopy_htk_classes(unsigned char *d, const unsigned char *s, size_t n)
{
    if (n <= 12 * W) {
        if (n <= 10 * W) {
            if (n <= 9 * W)
                vcopy_hk(d, s, n, 5, 4);        /* (8W, 9W]   */
            else
                vcopy_hk(d, s, n, 5, 5);        /* (9W, 10W]  */
        } else if (n <= 11 * W) {
            vcopy_hk(d, s, n, 6, 5);            /* (10W, 11W] */
        } else {
            vcopy_hk(d, s, n, 6, 6);            /* (11W, 12W] */
        }
    } else if (n <= 14 * W) {
        if (n <= 13 * W)
            vcopy_hk(d, s, n, 7, 6);            /* (12W, 13W] */
        else
            vcopy_hk(d, s, n, 7, 7);            /* (13W, 14W] */
    } else if (n <= 15 * W) {
        vcopy_hk(d, s, n, 8, 7);                /* (14W, 15W] */
    } else {
        vcopy_hk(d, s, n, 8, 8);                /* (15W, 16W] */
    }
    return d;
}
#endif

#if VEC_BITS < 512
/* memmove from altmem__copy_loop_below (the entry's loops run below it,
   x86_vec_set.h), for the 16- and 32-byte widths (memmove_avx512 has its own:
   the co-aligned rep movsb start); correct at any size. */
OPS_INL void *vmove_large(unsigned char *d, const unsigned char *s, size_t n, const size_t *erms_min,
                          const size_t *direct_below)
{
    uintptr_t fwd = (uintptr_t)d - (uintptr_t)s, bwd = (uintptr_t)s - (uintptr_t)d;
    /* From the loop limit: rep movsb at once where no other rule applies, dst
       not inside the source, src not less than 64 B ahead (each instruction
       before a rep movsb costs it about a quarter of a nanosecond on Intel
       6/207: 12 compares +2.9 ns at 3 KiB, bench/movsb_prefix.c; glibc's sse2
       path has 16 instructions, this one 19). */
    if (likely(n < *direct_below && fwd >= n && bwd >= 64)) {
        rep_movsb(d, s, n);
        return d;
    }
    /* The common case first, on the fall-through: regions apart, from the rep
       movsb start to its stop and below streaming, not at a short distance. */
    if (likely(fwd >= n && bwd >= n && n >= *erms_min && copy_below_nt((uintptr_t)d, (uintptr_t)s, n)) && n <= movsb_stop(d, s, n) &&
        !movsb_short_distance((uintptr_t)d, (uintptr_t)s)) {
        rep_movsb(d, s, n);
        return d;
    }
    /* Backward also where rep movsb is refused at a short distance: that is
       the 4 KiB alias too (a forward loop there ran 0.72-0.84x glibc 2.41's
       sse2 memcpy at 32 KiB-8 MiB s+1/d+3 on Zen 4 with rep movsb on). */
    int no_movsb = n < *erms_min || n > movsb_stop(d, s, n) || movsb_short_distance((uintptr_t)d, (uintptr_t)s);
    int back = fwd < n || (bwd >= n && alias_4k_ahead(d, s) && (n < *erms_min || (copy_below_nt((uintptr_t)d, (uintptr_t)s, n) && no_movsb)));
    if (back && (copy_below_nt((uintptr_t)d, (uintptr_t)s, n) || fwd < 4096))
        return vcopy_bwd(d, s, n);      /* dst inside (src, src+n), or the 4 KiB alias: backward */
    else if (back) {
        ALTMEM_SETTLE(n, altmem__settle_memmove(d, s, n)); /* the first streaming call: the caches */
        vcopy_bwd_nt(d, s, n);          /* [nt, ...), dst 4 KiB+ above src or apart: backward, streaming */
    } else if (!copy_below_nt((uintptr_t)d, (uintptr_t)s, n) && fwd_may_stream(bwd, n)) {
        ALTMEM_SETTLE(n, altmem__settle_memmove(d, s, n));
        vcopy_fwd_nt(d, s, n);          /* [nt, ...), src 16 KiB+ ahead or apart: streaming */
    }
    else if (bwd < 64 || no_movsb)
        return vcopy_fwd(d, s, n);      /* src < 64 B ahead, outside [start, stop], short distance */
    else if (unlikely(fwd_overlap_below_movsb(bwd, n)))
        return vcopy_fwd_cold(d, s, n); /* a forward overlap below a rule's own start (amd-zen5) */
    else
        rep_movsb(d, s, n);             /* from *erms_min, src 64 B+ ahead or apart: rep movsb */
    return d;
}
#endif

/* memcpy from altmem__copy_loop_below, for the 16- and 32-byte widths
   (memcpy_avx512 has its own: the co-aligned rep movsb start); correct at any
   size: streaming from the threshold, rep movsb from *erms_min (not at short
   distances), the backward loop at the 4 KiB alias (glibc's 32-byte variants
   test the same: 4 KiB d+63 was 0.69x glibc 2.41's avx2 memcpy on Zen 4
   without it, docs/perf/amd-family25-model17.md), else forward. */
#if VEC_BITS < 512
OPS_INL void *vcopy_large(unsigned char *d, const unsigned char *s, size_t n, const size_t *erms_min,
                          const size_t *direct_below)
{
    if (likely(n < *direct_below)) {
        rep_movsb(d, s, n);             /* from the loop limit, no other rule: as vmove_large */
        return d;
    }
    /* The common case first, on the fall-through, as vmove_large. */
    if (likely(copy_below_nt((uintptr_t)d, (uintptr_t)s, n) && n >= *erms_min) && n <= movsb_stop(d, s, n) &&
        !movsb_short_distance((uintptr_t)d, (uintptr_t)s)) {
        rep_movsb(d, s, n);             /* [*erms_min, stop], below nt: rep movsb */
        return d;
    }
    if (!copy_below_nt((uintptr_t)d, (uintptr_t)s, n)) {
        ALTMEM_SETTLE(n, altmem__settle_memcpy(d, s, n)); /* the first streaming call: the caches */
        vcopy_fwd_nt(d, s, n);          /* [nt, ...): streaming stores        */
    }
    else if (alias_4k_ahead(d, s))
        return vcopy_bwd(d, s, n);      /* a short distance, or past the 16-byte stop, dst just above src mod 4 KiB: backward */
    else
        return vcopy_fwd(d, s, n);      /* above the 16-byte stop: 4W loop    */
    return d;
}
#endif

#endif
