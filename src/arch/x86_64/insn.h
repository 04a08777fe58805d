/*
 * x86-64 instruction lengths, for copying a variant's code into its entry stub
 * (src/arch/x86_64/copy.c): how long an instruction is, where its PC-relative
 * field lies, how control leaves it, and whether it may write %rsp.
 *
 * Assumptions: 64-bit mode; legacy, VEX and EVEX encodings of the one-byte,
 * 0F, 0F38 and 0F3A maps, which is what GCC and clang emit for the variants.
 * Anything else (3DNow!, XOP, REX2, EVEX maps 4-7, 16-bit branches, EIP-relative
 * operands) is unknown: the decoder need not know every instruction, only never
 * misjudge one it accepts (tests/x86_insn_check.c holds it against objdump over
 * the library and the C library).  Pure: compiled on every host for the tests.
 */
#ifndef ALTMEM_X86_INSN_H
#define ALTMEM_X86_INSN_H

#include <stddef.h>
#include <stdint.h>

enum altmem__x86_flow {
    ALTMEM_X86_NEXT,        /* falls through (an indirect call too)              */
    ALTMEM_X86_JCC,         /* branches to its target or falls through           */
    ALTMEM_X86_JMP,         /* branches to its target                            */
    ALTMEM_X86_CALL,        /* calls its target, then falls through              */
    ALTMEM_X86_END,         /* ret, an indirect jmp, ud2, int3, hlt: no next     */
};

struct altmem__x86_insn {
    unsigned char len;
    unsigned char flow;     /* enum altmem__x86_flow                              */
    unsigned char rel_at;   /* the branch displacement's offset, 0 if none       */
    unsigned char rel_size; /* ... its width: 1 or 4                             */
    unsigned char rip_at;   /* a RIP-relative disp32's offset, 0 if none         */
    unsigned char stack;    /* may write %rsp (push, pop, leave, or names it)    */
};

/* Decodes the instruction at p, reading at most avail bytes and never more
   than the instruction has.  Returns its length, or 0 if it is unknown. */
size_t altmem__x86_insn_decode(const unsigned char *p, size_t avail, struct altmem__x86_insn *out);

/* The branch's target as an offset from p, given the decoded instruction. */
int64_t altmem__x86_insn_target(const unsigned char *p, const struct altmem__x86_insn *in);

#endif
