/*
 * Planning a variant's copy into its entry stub (copy.h): at build time, by
 * copy_plans_tool.c over the compiled objects, and by the tests.
 *
 * Assumptions: the variants are compiled as one contiguous function each, laid
 * out in source order (-fno-reorder-blocks, src/CMakeLists.txt) with their cold
 * parts elsewhere, and every byte between the entry and the last instruction
 * a path from it reaches is code (GCC pads with nops).
 */
#include "copy.h"
#include "patch/encode.h"

#include "insn.h"

/* Branches and fields one plan may track (each instruction has at most one). */
#define REFS_MAX 160

static int64_t field32(const unsigned char *p)
{
    return (int32_t)altmem__get32(p);
}

static int fits(int64_t v)
{
    return v > -ALTMEM_X86_COPY_REACH && v < ALTMEM_X86_COPY_REACH;
}

enum { REF_REL8, REF_REL32, REF_RIP };

struct ref {
    uint16_t at;      /* the field's offset                          */
    int16_t target;   /* a branch's target; -1 before the copy, 0x7fff past the room */
    uint8_t kind;
};

static int is_relocated(const uint16_t *relocated, size_t n, size_t at)
{
    for (size_t i = 0; i < n && relocated[i] <= at; i++)
        if (relocated[i] == at)
            return 1;
    return 0;
}

size_t altmem__x86_copy_plan(uintptr_t at, const unsigned char *src, size_t avail, size_t room,
                             const uint16_t *relocated, size_t nrelocated, struct altmem__copy_plan *plan)
{
    unsigned char start[ALTMEM_X86_COPY_ROOM_MAX / 8];
    struct ref refs[REFS_MAX];
    int64_t delta = (int64_t)((uintptr_t)src - at);
    plan->len = 0;
    plan->tail = 0;
    plan->nfix = 0;
    if (room < 16 || room > ALTMEM_X86_COPY_ROOM_MAX || !fits(delta))
        return 0;
    for (size_t i = 0; i < sizeof start; i++)
        start[i] = 0;
    size_t limit = room - 5;             /* the jmp back                         */
    size_t pos = 0, best = 0, nref = 0, best_nref = 0;
    int64_t reach = 1;                   /* code below this offset may run       */
    int64_t need8 = 0;                   /* the farthest 8-bit branch target     */
    unsigned fixes = 0;                  /* fields that may move, at most        */
    int falls = 1, ended = 0;
    while (pos < limit) {
        if (!falls && (int64_t)pos >= reach) {
            ended = 1;                   /* no path goes on: the whole function  */
            break;
        }
        if (pos >= avail)
            break;                       /* the function's end, still reached    */
        struct altmem__x86_insn in;
        size_t n = altmem__x86_insn_decode(src + pos, avail - pos < 15 ? avail - pos : 15, &in);
        if (n == 0 || in.stack || pos + n > limit || nref + 1 > REFS_MAX)
            break;
        if (in.rel_size) {
            int linked = is_relocated(relocated, nrelocated, pos + in.rel_at);
            int64_t t = linked ? INT64_MAX : (int64_t)pos + altmem__x86_insn_target(src + pos, &in);
            if (in.rel_size == 1 && (t < 0 || linked))
                break;                   /* leaves the copy backwards            */
            if (in.rel_size == 4 && !linked && !fits(field32(src + pos + in.rel_at)))
                break;
            if (in.rel_size == 4 && fixes + 1 > ALTMEM_COPY_FIXUPS)
                break;
            if (in.rel_size == 1 && t > need8)
                need8 = t;
            if (t >= (int64_t)pos && t < (int64_t)limit && t + 1 > reach)
                reach = t + 1;           /* (a target past the room is not copied) */
            refs[nref].at = (uint16_t)(pos + in.rel_at);
            refs[nref].target = t < 0 ? -1 : t >= (int64_t)limit ? 0x7fff : (int16_t)t;
            refs[nref].kind = in.rel_size == 1 ? REF_REL8 : REF_REL32;
            nref++;
            fixes += in.rel_size == 4;
        } else if (in.rip_at) {
            int linked = is_relocated(relocated, nrelocated, pos + in.rip_at);
            if ((!linked && !fits(field32(src + pos + in.rip_at))) || fixes + 1 > ALTMEM_COPY_FIXUPS)
                break;
            refs[nref].at = (uint16_t)(pos + in.rip_at);
            refs[nref].target = 0;
            refs[nref].kind = REF_RIP;
            nref++;
            fixes++;
        }
        start[pos >> 3] |= (unsigned char)(1u << (pos & 7));
        pos += n;
        falls = in.flow == ALTMEM_X86_NEXT || in.flow == ALTMEM_X86_JCC || in.flow == ALTMEM_X86_CALL;
        if (falls && (int64_t)pos + 1 > reach)
            reach = (int64_t)pos + 1;
        if (need8 <= (int64_t)pos) {
            best = pos;
            best_nref = nref;
        }
    }
    /* The whole function only if no 8-bit branch leaves it (one that reaches
       past the room did not extend `reach`). */
    ended = ended && need8 <= (int64_t)pos;
    size_t len = ended ? pos : best;
    nref = ended ? nref : best_nref;
    if (len == 0)
        return 0;
    /* Every branch that stays inside lands on an instruction; the others, and
       every RIP-relative operand, move with the copy. */
    unsigned nfix = 0;
    for (size_t i = 0; i < nref; i++) {
        int64_t t = refs[i].target;
        int inside = refs[i].kind != REF_RIP && t >= 0 && t < (int64_t)len;
        if (inside && !(start[t >> 3] & (1u << (t & 7))))
            return 0;
        if (!inside)
            plan->fix[nfix++] = refs[i].at;
    }
    plan->len = (uint16_t)len;
    plan->tail = !ended;
    plan->nfix = (uint8_t)nfix;
    return len;
}

