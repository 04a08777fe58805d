/*
 * Vector size classes, for every architecture with unaligned vector loads and
 * stores, in the spirit of LLVM libc's memory_utils (head_tail,
 * loop_and_tail): "htK" is K vectors from the start and K from the end,
 * overlapping in the middle, which covers any n in [K*W, 2*K*W] with no
 * branch per byte; "block4" is one block of a loop.  Every class is written
 * once over the access operation (src/ops/access.h) and returns OPS_OK or its
 * progress: each store's progress sits next to it.
 *
 * The including architecture header supplies, before it includes this file:
 *   ops_vec, OPS_W                     its vector type and width in bytes
 *   ops_vld(acc, &v, p, off)           one unaligned vector load at p + off
 *                                      (nonzero: it faulted)
 *   ops_vst(acc, p, off, v)            one unaligned vector store (OPS_OK, or
 *                                      how many of its bytes are known stored)
 *   ops_vstore(acc, how, p, off, v)    a loop's store (enum ops_store)
 *   OPS_STORE_ORDER()                  what keeps a copy block's aligned stores
 *                                      in source order (a compiler barrier)
 * and, where it has narrower vectors the classes below W use, ops_v16 with
 * ops_ld16v / ops_st16v (OPS_HAVE_V16), ops_v32 with ops_ld32v / ops_st32v
 * (OPS_HAVE_V32), with the same arguments.  Offsets are separate from the base
 * for the reason given in src/ops/access.h.
 * It may also define OPS_HT2_TAIL_FROM_END: the plain (not fault-tolerant)
 * [2W, 4W] class then loads and stores its last two vectors from the end, the
 * last before the one before it (see ops_vcopy_ht2); and OPS_HT4_LOADS_FROM_ENDS
 * with OPS_LOAD_ORDER() (a compiler barrier): the plain [4W, 8W] class then
 * loads its first four ascending and its last four from the end, in that
 * order (see ops_vcopy_ht4); and OPS_SET_LOOP_END_ALIGNED: the plain memset
 * loop then ends with an aligned block and one unaligned vector, not four
 * unaligned ones (see ops_vset_loop).
 *
 * Assumptions:
 *   - Every class loads all it copies before its first store (the classes up
 *     to 8W serve overlapping memmove too) and stores in ascending address
 *     order, each store beginning at or below the end of those before it
 *     (the order progress needs; a plain class without progress may differ:
 *     OPS_HT2_TAIL_FROM_END).
 *   - A vector store that faults may have written part of its bytes; the
 *     progress counts only what its accessor reports, and the fix-up stores
 *     the rest again (the same values).
 */
#ifndef ALTMEM_OPS_VECTOR_H
#define ALTMEM_OPS_VECTOR_H

#include "ops/access.h"

#ifndef OPS_W
#error "src/ops/vector.h: the architecture header defines ops_vec, OPS_W and the vector accessors first"
#endif

/* ---- Copies ------------------------------------------------------------------ */

/* n in [B, 2B]: B + B, for each width B the classes use (16, 32 and W): one
   body, so the three cannot drift apart. */
#define OPS_DEFINE_COPY_HT(name, vtype, B, load, store)                                                \
    OPS_INL size_t name(const enum ops_access acc, uintptr_t d, uintptr_t s, size_t n)                 \
    {                                                                                                  \
        vtype head, tail;                                                                              \
        size_t k;                                                                                      \
        if (load(acc, &head, s, 0) || load(acc, &tail, s, n - (B)))                                    \
            return 0;                                                                                  \
        if ((k = store(acc, d, 0, head)) != OPS_OK)                                                    \
            return k;                                                                                  \
        if ((k = store(acc, d, n - (B), tail)) != OPS_OK)                                              \
            return ops_fault(ops_max((B), n - (B) + k));                                               \
        return OPS_OK;                                                                                 \
    }

#ifdef OPS_HAVE_V16
OPS_DEFINE_COPY_HT(ops_copy_ht16, ops_v16, 16, ops_ld16v, ops_st16v)
#endif
#ifdef OPS_HAVE_V32
OPS_DEFINE_COPY_HT(ops_copy_ht32, ops_v32, 32, ops_ld32v, ops_st32v)
#endif
OPS_DEFINE_COPY_HT(ops_vcopy_ht1, ops_vec, OPS_W, ops_vld, ops_vst)

/* n in [2W, 4W]: 2 x W from each end */
OPS_INL size_t ops_vcopy_ht2(const enum ops_access acc, uintptr_t d, uintptr_t s, size_t n)
{
    ops_vec a, b, y, z;
    size_t k;
#ifdef OPS_HT2_TAIL_FROM_END
    /* A memmove repeated on one overlapping buffer loads, in the next call,
       what this one stored; the load that overlaps a store only in part waits
       for it to reach the cache, the longer the younger the store.  Which store
       that is depends on the direction, so an order favours one of them; this
       one is x86 glibc's, which favours dst below src. */
    if (acc == OPS_PLAIN) {
        ops_vld(acc, &a, s, 0);
        ops_vld(acc, &b, s, OPS_W);
        ops_vld(acc, &z, s, n - OPS_W);
        ops_vld(acc, &y, s, n - 2 * OPS_W);
        ops_vst(acc, d, 0, a);
        ops_vst(acc, d, OPS_W, b);
        ops_vst(acc, d, n - OPS_W, z);
        ops_vst(acc, d, n - 2 * OPS_W, y);
        return OPS_OK;
    }
#endif
    if (ops_vld(acc, &a, s, 0) || ops_vld(acc, &b, s, OPS_W) || ops_vld(acc, &y, s, n - 2 * OPS_W) ||
        ops_vld(acc, &z, s, n - OPS_W))
        return 0;
    if ((k = ops_vst(acc, d, 0, a)) != OPS_OK)
        return k;
    OPS_STORE_OR_FAULT(k, ops_vst(acc, d, OPS_W, b), OPS_W + k);
    OPS_STORE_OR_FAULT(k, ops_vst(acc, d, n - 2 * OPS_W, y), ops_max(2 * OPS_W, n - 2 * OPS_W + k));
    OPS_STORE_OR_FAULT(k, ops_vst(acc, d, n - OPS_W, z), ops_max(2 * OPS_W, n - OPS_W + k));
    return OPS_OK;
}

/* n in [3W, 6W]: 3 x W from each end (the 64-byte variants' (256, 384]: 6
   stores where 4 from each end would write 512 bytes for 384) */
OPS_INL size_t ops_vcopy_ht3(const enum ops_access acc, uintptr_t d, uintptr_t s, size_t n)
{
    ops_vec a, b, c, x, y, z;
    const uintptr_t se = s + n, de = d + n;
    const ptrdiff_t w3 = -3 * (ptrdiff_t)OPS_W, w2 = -2 * (ptrdiff_t)OPS_W, w1 = -(ptrdiff_t)OPS_W;
    size_t k;
    if (ops_vld(acc, &a, s, 0) || ops_vld(acc, &b, s, OPS_W) || ops_vld(acc, &c, s, 2 * OPS_W) ||
        ops_vld(acc, &x, se, w3) || ops_vld(acc, &y, se, w2) || ops_vld(acc, &z, se, w1))
        return 0;
    if ((k = ops_vst(acc, d, 0, a)) != OPS_OK)
        return k;
    OPS_STORE_OR_FAULT(k, ops_vst(acc, d, OPS_W, b), OPS_W + k);
    OPS_STORE_OR_FAULT(k, ops_vst(acc, d, 2 * OPS_W, c), 2 * OPS_W + k);
    OPS_STORE_OR_FAULT(k, ops_vst(acc, de, w3, x), ops_max(3 * OPS_W, n - 3 * OPS_W + k));
    OPS_STORE_OR_FAULT(k, ops_vst(acc, de, w2, y), ops_max(3 * OPS_W, n - 2 * OPS_W + k));
    OPS_STORE_OR_FAULT(k, ops_vst(acc, de, w1, z), ops_max(3 * OPS_W, n - OPS_W + k));
    return OPS_OK;
}

/* n in [4W, 8W]: 4 x W from each end */
OPS_INL size_t ops_vcopy_ht4(const enum ops_access acc, uintptr_t d, uintptr_t s, size_t n)
{
    ops_vec a, b, c, e, w, x, y, z;
    const uintptr_t se = s + n, de = d + n; /* the last four from the end: one base each */
    const ptrdiff_t w4 = -4 * (ptrdiff_t)OPS_W, w3 = -3 * (ptrdiff_t)OPS_W;
    const ptrdiff_t w2 = -2 * (ptrdiff_t)OPS_W, w1 = -(ptrdiff_t)OPS_W;
    size_t k;
#ifdef OPS_HT4_LOADS_FROM_ENDS
    /* The first four ascending, then the last four from the end (glibc's
       order), each after the one before (stores as below).  The next call on
       the same buffers loads where this one stored; with src and dst at one
       page offset its loads meet the stores of the call before in the low 12
       address bits (the 4 KiB alias), and in the order GCC gave them they
       waited longer: avx512 memcpy at 448-512 B aligned 0.83-0.92x glibc,
       0.97-1.01x in this one (docs/perf/intel-family6-model167.md, "The (4W,
       8W] class's loads"; glibc's store order too lost dst above src). */
    if (acc == OPS_PLAIN) {
        ops_vld(acc, &a, s, 0);
        OPS_LOAD_ORDER();
        ops_vld(acc, &b, s, OPS_W);
        OPS_LOAD_ORDER();
        ops_vld(acc, &c, s, 2 * OPS_W);
        OPS_LOAD_ORDER();
        ops_vld(acc, &e, s, 3 * OPS_W);
        OPS_LOAD_ORDER();
        ops_vld(acc, &z, se, w1);
        OPS_LOAD_ORDER();
        ops_vld(acc, &y, se, w2);
        OPS_LOAD_ORDER();
        ops_vld(acc, &x, se, w3);
        OPS_LOAD_ORDER();
        ops_vld(acc, &w, se, w4);
        OPS_LOAD_ORDER();
    } else
#endif
    if (ops_vld(acc, &a, s, 0) || ops_vld(acc, &b, s, OPS_W) || ops_vld(acc, &c, s, 2 * OPS_W) ||
        ops_vld(acc, &e, s, 3 * OPS_W) || ops_vld(acc, &w, se, w4) || ops_vld(acc, &x, se, w3) ||
        ops_vld(acc, &y, se, w2) || ops_vld(acc, &z, se, w1))
        return 0;
    if ((k = ops_vst(acc, d, 0, a)) != OPS_OK)
        return k;
    OPS_STORE_OR_FAULT(k, ops_vst(acc, d, OPS_W, b), OPS_W + k);
    OPS_STORE_OR_FAULT(k, ops_vst(acc, d, 2 * OPS_W, c), 2 * OPS_W + k);
    OPS_STORE_OR_FAULT(k, ops_vst(acc, d, 3 * OPS_W, e), 3 * OPS_W + k);
    OPS_STORE_OR_FAULT(k, ops_vst(acc, de, w4, w), ops_max(4 * OPS_W, n - 4 * OPS_W + k));
    OPS_STORE_OR_FAULT(k, ops_vst(acc, de, w3, x), ops_max(4 * OPS_W, n - 3 * OPS_W + k));
    OPS_STORE_OR_FAULT(k, ops_vst(acc, de, w2, y), ops_max(4 * OPS_W, n - 2 * OPS_W + k));
    OPS_STORE_OR_FAULT(k, ops_vst(acc, de, w1, z), ops_max(4 * OPS_W, n - OPS_W + k));
    return OPS_OK;
}

/* One block of the loops: 4 vectors loaded from s, then stored to d (how: W-
   aligned, or streaming to a 64-aligned line); the progress is from d.  The
   aligned stores are kept in the order written: GCC 12 schedules a block's
   four stores in any order (seen: +1, +3, +2, +0 vectors backward), and out
   of order the avx2 backward loop ran at 0.71x glibc's at 32 KiB-16 MiB on
   Intel 6/167, 0.99x in order (docs/perf/intel-family6-model167.md). */
OPS_INL size_t ops_vcopy_block4(const enum ops_access acc, const enum ops_store how, uintptr_t d, uintptr_t s)
{
    ops_vec a, b, c, e;
    size_t k;
    if (ops_vld(acc, &a, s, 0) || ops_vld(acc, &b, s, OPS_W) || ops_vld(acc, &c, s, 2 * OPS_W) ||
        ops_vld(acc, &e, s, 3 * OPS_W))
        return 0;
    if ((k = ops_vstore(acc, how, d, 0, a)) != OPS_OK)
        return k;
    if (how == OPS_ALIGNED)
        OPS_STORE_ORDER();
    OPS_STORE_OR_FAULT(k, ops_vstore(acc, how, d, OPS_W, b), OPS_W + k);
    if (how == OPS_ALIGNED)
        OPS_STORE_ORDER();
    OPS_STORE_OR_FAULT(k, ops_vstore(acc, how, d, 2 * OPS_W, c), 2 * OPS_W + k);
    if (how == OPS_ALIGNED)
        OPS_STORE_ORDER();
    OPS_STORE_OR_FAULT(k, ops_vstore(acc, how, d, 3 * OPS_W, e), 3 * OPS_W + k);
    return OPS_OK;
}

/* ---- Sets: x is the byte in every lane ----------------------------------------- */

/* n in [B, 2B]: B + B, for each width B (as OPS_DEFINE_COPY_HT) */
#define OPS_DEFINE_SET_HT(name, vtype, B, store)                                                       \
    OPS_INL size_t name(const enum ops_access acc, uintptr_t d, vtype x, size_t n)                     \
    {                                                                                                  \
        size_t k;                                                                                      \
        if ((k = store(acc, d, 0, x)) != OPS_OK)                                                       \
            return k;                                                                                  \
        if ((k = store(acc, d, n - (B), x)) != OPS_OK)                                                 \
            return ops_fault(ops_max((B), n - (B) + k));                                               \
        return OPS_OK;                                                                                 \
    }

#ifdef OPS_HAVE_V16
OPS_DEFINE_SET_HT(ops_set_ht16, ops_v16, 16, ops_st16v)
#endif
#ifdef OPS_HAVE_V32
OPS_DEFINE_SET_HT(ops_set_ht32, ops_v32, 32, ops_st32v)
#endif
OPS_DEFINE_SET_HT(ops_vset_ht1, ops_vec, OPS_W, ops_vst)

/* n in [2W, 4W]: 2 x W from each end */
OPS_INL size_t ops_vset_ht2(const enum ops_access acc, uintptr_t d, ops_vec x, size_t n)
{
    size_t k;
    if ((k = ops_vst(acc, d, 0, x)) != OPS_OK)
        return k;
    OPS_STORE_OR_FAULT(k, ops_vst(acc, d, OPS_W, x), OPS_W + k);
    OPS_STORE_OR_FAULT(k, ops_vst(acc, d, n - 2 * OPS_W, x), ops_max(2 * OPS_W, n - 2 * OPS_W + k));
    OPS_STORE_OR_FAULT(k, ops_vst(acc, d, n - OPS_W, x), ops_max(2 * OPS_W, n - OPS_W + k));
    return OPS_OK;
}

/* One block of the loops: 4 vectors to d (how: W-aligned, or streaming to a
   64-aligned line); the progress is from d. */
OPS_INL size_t ops_vset_block4(const enum ops_access acc, const enum ops_store how, uintptr_t d, ops_vec x)
{
    size_t k;
    if ((k = ops_vstore(acc, how, d, 0, x)) != OPS_OK)
        return k;
    OPS_STORE_OR_FAULT(k, ops_vstore(acc, how, d, OPS_W, x), OPS_W + k);
    OPS_STORE_OR_FAULT(k, ops_vstore(acc, how, d, 2 * OPS_W, x), 2 * OPS_W + k);
    OPS_STORE_OR_FAULT(k, ops_vstore(acc, how, d, 3 * OPS_W, x), 3 * OPS_W + k);
    return OPS_OK;
}

/* The last 4W bytes before de = d + n, once the bytes below d + done are set
   (n - 4W <= done). */
OPS_INL size_t ops_vset_last4(const enum ops_access acc, uintptr_t de, ops_vec x, size_t n, size_t done)
{
    size_t k;
    OPS_STORE_OR_FAULT(k, ops_vst(acc, de, -(4 * OPS_W), x), ops_max(done, n - 4 * OPS_W + k));
    OPS_STORE_OR_FAULT(k, ops_vst(acc, de, -(3 * OPS_W), x), ops_max(done, n - 3 * OPS_W + k));
    OPS_STORE_OR_FAULT(k, ops_vst(acc, de, -(2 * OPS_W), x), ops_max(done, n - 2 * OPS_W + k));
    OPS_STORE_OR_FAULT(k, ops_vst(acc, de, -OPS_W, x), ops_max(done, n - OPS_W + k));
    return OPS_OK;
}

/* n in [3W, 6W]: 3 x W from each end, as ops_vcopy_ht3. */
OPS_INL size_t ops_vset_ht3(const enum ops_access acc, uintptr_t d, ops_vec x, size_t n)
{
    size_t k;
    if ((k = ops_vst(acc, d, 0, x)) != OPS_OK)
        return k;
    OPS_STORE_OR_FAULT(k, ops_vst(acc, d, OPS_W, x), OPS_W + k);
    OPS_STORE_OR_FAULT(k, ops_vst(acc, d, 2 * OPS_W, x), 2 * OPS_W + k);
    OPS_STORE_OR_FAULT(k, ops_vst(acc, d, n - 3 * OPS_W, x), ops_max(3 * OPS_W, n - 3 * OPS_W + k));
    OPS_STORE_OR_FAULT(k, ops_vst(acc, d, n - 2 * OPS_W, x), ops_max(3 * OPS_W, n - 2 * OPS_W + k));
    OPS_STORE_OR_FAULT(k, ops_vst(acc, d, n - OPS_W, x), ops_max(3 * OPS_W, n - OPS_W + k));
    return OPS_OK;
}

/* n in [4W, 8W]: 4 x W from each end (two blocks' stores, unaligned). */
OPS_INL size_t ops_vset_ht4(const enum ops_access acc, uintptr_t d, ops_vec x, size_t n)
{
    size_t k;
    if ((k = ops_vst(acc, d, 0, x)) != OPS_OK)
        return k;
    OPS_STORE_OR_FAULT(k, ops_vst(acc, d, OPS_W, x), OPS_W + k);
    OPS_STORE_OR_FAULT(k, ops_vst(acc, d, 2 * OPS_W, x), 2 * OPS_W + k);
    OPS_STORE_OR_FAULT(k, ops_vst(acc, d, 3 * OPS_W, x), 3 * OPS_W + k);
    return ops_vset_last4(acc, d + n, x, n, 4 * OPS_W);
}

/* memset (plain) of n in [(k + 1)W, (2k + 1)W] to a d that is not W-aligned: the
   first and last W bytes unaligned, the W-aligned lines between them k from each
   end (a = d's first boundary above it, z = the last at or below d + n, z - a in
   [kW, 2kW]).  Every unaligned W-byte store there crosses a line, an aligned one
   none: 2 + 2k stores, 2 across lines, against ht3's 6 or ht4's 8 (the 64-byte
   memset at 384-512 B dst+3 was 0.76-0.85x its own 32-byte variant's aligned
   loop on Intel 6/167; with these, 1.00-1.31 -> 1.31-1.54x glibc 2.41:
   docs/perf/intel-family6-model167.md, "The 64-byte memset's lines"). */
OPS_INL void ops_vset_lines(uintptr_t d, ops_vec x, size_t n, const int k)
{
    const uintptr_t a = (d + OPS_W) & ~(uintptr_t)(OPS_W - 1), z = (d + n) & ~(uintptr_t)(OPS_W - 1);
    ops_vst(OPS_PLAIN, d, 0, x);
    for (int i = 0; i < k; i++)
        ops_vstore(OPS_PLAIN, OPS_ALIGNED, a, (ptrdiff_t)i * OPS_W, x);
    for (int i = k; i > 0; i--)
        ops_vstore(OPS_PLAIN, OPS_ALIGNED, z, -(ptrdiff_t)i * OPS_W, x);
    ops_vst(OPS_PLAIN, d, (ptrdiff_t)n - OPS_W, x);
}

/* n > 8W (for memset, n > 7W is enough: its first block needs de - p > 4W
   with p less than W above d): one unaligned vector (for memset none at a
   W-aligned d), a W-aligned loop of 4W, the last 4W unaligned (stores
   ascending: memset and clear_user alike; with OPS_SET_LOOP_END_ALIGNED the
   plain one's last 4W W-aligned and one unaligned vector after them, below).
   On a fault in the loop, p goes through an empty asm so that GCC keeps no
   register per store address for the progress. */
OPS_INL size_t ops_vset_loop(const enum ops_access acc, uintptr_t d, ops_vec x, size_t n)
{
    const uintptr_t de = d + n;
    uintptr_t p;
    size_t k;
    if (acc == OPS_PLAIN) {
        /* No head vector at a W-aligned d: its W bytes would be stored again
           by the loop's first block, and the loop would end one vector past
           a 4W multiple, so that the last 4W overlap it by one vector (aligned
           memset of 768 B: 13 64-byte stores for 12 lines, glibc's 12; stores,
           not instructions, bound a memset that the L1 holds:
           docs/perf/amd-family25-model17.md, "The aligned-memset anomaly"). */
        p = (d + OPS_W - 1) & ~(uintptr_t)(OPS_W - 1);
        if (p != d)
            ops_vst(acc, d, 0, x);
        do                              /* n > 8W: at least one block; no jump into the test */
            ops_vset_block4(acc, OPS_ALIGNED, p, x);
        while (de - (p += 4 * OPS_W) > 4 * OPS_W);
        /* OPS_SET_LOOP_END_ALIGNED: the last block W-aligned too, ending at
           de's last line boundary z (z - 4W <= p: it stores [p, z) and lines
           below p again), and one unaligned vector where de is not on one: at
           a misaligned dst each of the four unaligned last vectors crossed a
           line (the 64-byte memset at 768 B-3 KiB dst+3 0.89-0.96x its 32-byte
           variant, whose loop ends aligned, on Intel 6/167; after, 1.10-1.32
           -> 1.23-1.47x glibc 2.41: docs/perf/intel-family6-model167.md, "The
           64-byte memset's lines"). */
#ifdef OPS_SET_LOOP_END_ALIGNED
        if (OPS_SET_LOOP_END_ALIGNED) {
            const uintptr_t z = de & ~(uintptr_t)(OPS_W - 1);
            ops_vset_block4(acc, OPS_ALIGNED, z - 4 * OPS_W, x);
            if (z != de)
                ops_vst(acc, de, -(ptrdiff_t)OPS_W, x);
            return OPS_OK;
        }
#endif
        return ops_vset_last4(acc, de, x, n, ops_max(p - d, OPS_W));
    }
    if ((k = ops_vst(acc, d, 0, x)) != OPS_OK)
        return k;
    p = d + (OPS_W - (d & (OPS_W - 1)));
    /* clear_user: the bound computed once (callgrind, clear_user_avx2 1 KiB:
       102 instructions per call, against 117 with the test of the plain loop;
       the caller has cut n to what lies below the top of the address space). */
    for (const uintptr_t pend = de - 4 * OPS_W; p < pend; p += 4 * OPS_W)
        if (__builtin_expect((k = ops_vset_block4(acc, OPS_ALIGNED, p, x)) != OPS_OK, 0))
            goto fault_in_loop;
    return ops_vset_last4(acc, de, x, n, ops_max(p - d, OPS_W));
fault_in_loop:
    OPS_LAUNDER(p);
    return ops_fault(ops_max(p - d + k, OPS_W));
}

#endif
