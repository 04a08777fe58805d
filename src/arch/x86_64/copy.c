/*
 * Copying a variant into its entry stub (copy.h).
 *
 * Assumptions: the variants are compiled as one contiguous function each, laid
 * out in source order (-fno-reorder-blocks, src/CMakeLists.txt) with their cold
 * parts elsewhere, and every byte between the entry and the last instruction
 * a path from it reaches is code (GCC pads with nops); calls none (runs while
 * the stub page is not executable, and memcpy is what it copies).
 */
#include "copy.h"

#include "insn.h"

/* Displacements adjusted by the distance between the copy and the original
   stay within +-2 GiB: both halves below 2^30. */
#define REACH ((int64_t)1 << 30)

static int64_t field32(const unsigned char *p)
{
    return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
}

static int fits(int64_t v)
{
    return v > -REACH && v < REACH;
}

size_t altmem__x86_copy_plan(uintptr_t at, const unsigned char *src, size_t room, int *tail)
{
    unsigned char start[ALTMEM_X86_COPY_ROOM_MAX / 8];
    int64_t delta = (int64_t)((uintptr_t)src - at);
    *tail = 0;
    if (room < 16 || room > ALTMEM_X86_COPY_ROOM_MAX || !fits(delta))
        return 0;
    for (size_t i = 0; i < sizeof start; i++)
        start[i] = 0;
    size_t limit = room - 5;             /* the jmp back                         */
    size_t pos = 0, best = 0;
    int64_t reach = 1;                   /* code below this offset may run       */
    int64_t need8 = 0;                   /* the farthest 8-bit branch target     */
    int falls = 1, ended = 0;
    while (pos < limit) {
        if (!falls && (int64_t)pos >= reach) {
            ended = 1;                   /* no path goes on: the whole function  */
            break;
        }
        struct altmem__x86_insn in;
        size_t n = altmem__x86_insn_decode(src + pos, 15, &in);
        if (n == 0 || in.stack || pos + n > limit)
            break;
        if (in.rel_size) {
            int64_t t = (int64_t)pos + altmem__x86_insn_target(src + pos, &in);
            if (in.rel_size == 1 && t < 0)
                break;                   /* leaves the copy backwards            */
            if (in.rel_size == 1 && t > need8)
                need8 = t;
            if (in.rel_size == 4 && !fits(field32(src + pos + in.rel_at)))
                break;
            if (t >= (int64_t)pos && t < (int64_t)limit && t + 1 > reach)
                reach = t + 1;           /* (a target past the room is not copied) */
        }
        if (in.rip_at && !fits(field32(src + pos + in.rip_at)))
            break;
        start[pos >> 3] |= (unsigned char)(1u << (pos & 7));
        pos += n;
        falls = in.flow == ALTMEM_X86_NEXT || in.flow == ALTMEM_X86_JCC || in.flow == ALTMEM_X86_CALL;
        if (falls && (int64_t)pos + 1 > reach)
            reach = (int64_t)pos + 1;
        if (need8 <= (int64_t)pos)
            best = pos;
    }
    /* The whole function only if no 8-bit branch leaves it (one that reaches
       past the room did not extend `reach`). */
    ended = ended && need8 <= (int64_t)pos;
    size_t len = ended ? pos : best;
    if (len == 0)
        return 0;
    /* Every branch that stays inside must land on an instruction. */
    for (size_t p = 0; p < len;) {
        struct altmem__x86_insn in;
        size_t n = altmem__x86_insn_decode(src + p, 15, &in);
        if (in.rel_size) {
            int64_t t = (int64_t)p + altmem__x86_insn_target(src + p, &in);
            if (t >= 0 && t < (int64_t)len && !(start[t >> 3] & (1u << (t & 7))))
                return 0;
        }
        p += n;
    }
    *tail = !ended;
    return len;
}

static int put(volatile unsigned char *out, size_t i, unsigned char b, int check)
{
    if (check)
        return out[i] == b;
    out[i] = b;
    return 1;
}

static int put32(volatile unsigned char *out, size_t i, int64_t v, int check)
{
    int ok = 1;
    for (int k = 0; k < 4; k++)
        ok &= put(out, i + (size_t)k, (unsigned char)((uint64_t)v >> (8 * k)), check);
    return ok;
}

int altmem__x86_copy_apply(volatile unsigned char *out, uintptr_t at, const unsigned char *src, size_t len,
                           int tail, int check)
{
    int64_t delta = (int64_t)((uintptr_t)src - at);
    int ok = 1;
    for (size_t p = 0; p < len;) {
        struct altmem__x86_insn in;
        size_t n = altmem__x86_insn_decode(src + p, 15, &in);
        if (n == 0)
            return 0;
        size_t moved = 0;                /* the field pointed back at the original */
        if (in.rel_size == 4) {
            int64_t t = (int64_t)p + altmem__x86_insn_target(src + p, &in);
            if (t < 0 || t >= (int64_t)len)
                moved = in.rel_at;
        }
        for (size_t b = 0; b < n; b++) {
            if ((moved && b == moved) || (in.rip_at && b == in.rip_at)) {
                ok &= put32(out, p + b, field32(src + p + b) + delta, check);
                b += 3;
            } else {
                ok &= put(out, p + b, src[p + b], check);
            }
        }
        p += n;
    }
    if (tail) {
        ok &= put(out, len, 0xe9, check);
        ok &= put32(out, len + 1, delta - 5, check);   /* src + len - (at + len + 5) */
    }
    return ok;
}
