/*
 * The exception-table accessors of aarch64: scalar, q-register blocks, SVE
 * and FEAT_MOPS sequences.
 * Included by src/uaccess/extable.h (as <uaccess/accessors.h>, from the include
 * directory src/arch/aarch64), which defines UA_EXTABLE and the unaligned types
 * these use; the contract of every accessor is described there.
 */
#ifndef ALTMEM_AARCH64_ACCESSORS_H
#define ALTMEM_AARCH64_ACCESSORS_H

#include "mops_progress.h"

/* Plain "m" operands (not volatile, not "Q"): GCC then folds base + offset (or
   base + register) into the instruction, as on x86_64, instead of one add per
   access.  The assembler turns an ldr/str whose offset the scaled form cannot
   encode (negative, unaligned) into ldur/stur: still one instruction. */
#define UA_LD(insn, w, v, p, L)                                                  \
    __asm__ goto("1:\t" insn " %" w "[val], %[mem]\n\t" UA_EXTABLE("1b", "%l[" #L "]") \
                 : [val] "=r"(v) : [mem] "m"(*(p)) : : L)
#define UA_ST(insn, w, p, v, L)                                                  \
    __asm__ goto("1:\t" insn " %" w "[val], %[mem]\n\t" UA_EXTABLE("1b", "%l[" #L "]") \
                 : : [mem] "m"(*(p)), [val] "r"(v) : "memory" : L)
#define UA_LD8(v, p, L) UA_LD("ldrb", "w", v, (const uint8_t *)(p), L)
#define UA_LD16(v, p, L) UA_LD("ldrh", "w", v, (const u16_una *)(p), L)
#define UA_LD32(v, p, L) UA_LD("ldr", "w", v, (const u32_una *)(p), L)
#define UA_LD64(v, p, L) UA_LD("ldr", "x", v, (const u64_una *)(p), L)
#define UA_ST8(p, v, L) UA_ST("strb", "w", (uint8_t *)(p), v, L)
#define UA_ST16(p, v, L) UA_ST("strh", "w", (u16_una *)(p), v, L)
#define UA_ST32(p, v, L) UA_ST("str", "w", (u32_una *)(p), v, L)
#define UA_ST64(p, v, L) UA_ST("str", "x", (u64_una *)(p), v, L)

/* One q register (Advanced SIMD; unaligned: normal memory): the accessors of
   a64_simd.h's vector for src/ops/vector.h's classes.  v is a uint8x16_t
   variable (a local: an asm goto never writes a member of an aggregate). */
typedef __uint128_t __attribute__((aligned(1), may_alias)) ua_q_una;
#define UA_LDQ(v, p, L)                                                          \
    __asm__ goto("1:\tldr %q[val], %[mem]\n\t" UA_EXTABLE("1b", "%l[" #L "]")     \
                 : [val] "=w"(v) : [mem] "m"(*(const ua_q_una *)(p)) : : L)
#define UA_STQ(p, v, L)                                                          \
    __asm__ goto("1:\tstr %q[val], %[mem]\n\t" UA_EXTABLE("1b", "%l[" #L "]")     \
                 : : [mem] "m"(*(ua_q_una *)(p)), [val] "w"(v) : "memory" : L)

/* q-register blocks (Advanced SIMD; unaligned: normal memory).  Each copies
   or zeroes a whole block, every load before the first store; a fault in the
   loads or in the first (or only) store resumes at L0 (nothing of the block
   known stored), in the second pair's store at L32 (its first 32 bytes
   stored).  A faulting q store may have written part of its bytes: the
   fix-up stores them again from the progress, so nothing relies on a vector
   store being all-or-nothing.  v28-v31 are scratch (caller-saved). */
#define UA_Q16_COPY(d, s, L0)                                                    \
    __asm__ goto("1:\tldr q31, [%[ss]]\n2:\tstr q31, [%[dd]]\n\t"              \
                 UA_EXTABLE("1b", "%l[" #L0 "]") UA_EXTABLE("2b", "%l[" #L0 "]")   \
                 : : [dd] "r"(d), [ss] "r"(s) : "v31", "memory" : L0)
#define UA_Q64_COPY(d, s, L0, L32)                                               \
    __asm__ goto("1:\tldp q28, q29, [%[ss]]\n2:\tldp q30, q31, [%[ss], #32]\n"  \
                 "3:\tstp q28, q29, [%[dd]]\n4:\tstp q30, q31, [%[dd], #32]\n\t"  \
                 UA_EXTABLE("1b", "%l[" #L0 "]") UA_EXTABLE("2b", "%l[" #L0 "]")   \
                 UA_EXTABLE("3b", "%l[" #L0 "]") UA_EXTABLE("4b", "%l[" #L32 "]")  \
                 : : [dd] "r"(d), [ss] "r"(s) : "v28", "v29", "v30", "v31", "memory" : L0, L32)
#define UA_Q16_ZERO(d, L0)                                                       \
    __asm__ goto("1:\tstr xzr, [%[dd]]\n2:\tstr xzr, [%[dd], #8]\n\t"          \
                 UA_EXTABLE("1b", "%l[" #L0 "]") UA_EXTABLE("2b", "%l[" #L0 "]")   \
                 : : [dd] "r"(d) : "memory" : L0)
#define UA_Q64_ZERO(d, z, L0, L32)                                               \
    __asm__ goto("1:\tstp %q[zz], %q[zz], [%[dd]]\n2:\tstp %q[zz], %q[zz], [%[dd], #32]\n\t" \
                 UA_EXTABLE("1b", "%l[" #L0 "]") UA_EXTABLE("2b", "%l[" #L32 "]")  \
                 : : [dd] "r"(d), [zz] "w"(z) : "memory" : L0, L32)

/* SVE, in files built with SVE enabled: one predicated vector copied (ld1b
   then st1b under the same governing predicate) or zeroed.  A fault in either
   resumes at L (the vector's start is the progress: st1b may have stored some
   of its active bytes, which the fix-up stores again).  An inactive element is
   never accessed, so a predicate that ends at n touches nothing past it. */
#if defined(__ARM_FEATURE_SVE)
#define UA_SVE_COPY(d, s, pg, L)                                                 \
    __asm__ goto("1:\tld1b {z31.b}, %[p]/z, [%[ss]]\n2:\tst1b {z31.b}, %[p], [%[dd]]\n\t" \
                 UA_EXTABLE("1b", "%l[" #L "]") UA_EXTABLE("2b", "%l[" #L "]")     \
                 : : [dd] "r"(d), [ss] "r"(s), [p] "Upl"(pg) : "z31", "memory" : L)
#define UA_SVE_ZERO(d, z, pg, L)                                                 \
    __asm__ goto("1:\tst1b {%[zz].b}, %[p], [%[dd]]\n\t" UA_EXTABLE("1b", "%l[" #L "]") \
                 : : [dd] "r"(d), [zz] "w"(z), [p] "Upl"(pg) : "memory" : L)
#endif

/* FEAT_MOPS sequences (the variants of the mops flag set: no assembler
   support needed, the .inst words are binutils 2.40's for the mnemonics in the
   comments).  UA_MOPS_CPYF copies n bytes forward with cpyfp/cpyfm/cpyfe,
   UA_MOPS_ZERO zeroes n bytes with setp/setm/sete and xzr as the value; both
   run on x0 (dst), x1 (src; not set for a zeroing), x2 (count), set inside the
   asm, which clobbers them and NZCV.  The three instructions stay back to back
   on the same registers, as the architecture requires (the kernel restarts a
   sequence at its prologue when the task moves to a CPU of the other option,
   arch/arm64/kernel/traps.c, arm64_mops_reset_regs).  They are
   restartable: a fault leaves x0-x2 at the sequence's progress, in a format
   that depends on the instruction and the implementation's option
   (altmem__ua_mops_done).  C cannot read registers at a fault label, so every
   instruction's entry leads to a stub that stores x0, x1, x2 to *rp (a struct
   altmem__ua_mops_regs) before it jumps to L, as the x86_64 rep movsb stub
   stores rcx.  n must be at most UA_MOPS_MAX: below every size the prologues
   saturate to (qemu 10: INT64_MAX for cpyfp and setp, 2^55 - 1 for cpyp), so
   the registers always describe our n. */
#define UA_MOPS_MAX ((UINT64_C(1) << 55) - 1)
#define UA_MOPS_STUB(rp, L)                                                      \
    ".pushsection .text.unlikely, \"ax\", %%progbits\n"                        \
    "4:\tstp x0, x1, [%[" #rp "]]\n\tstr x2, [%[" #rp "], #16]\n\tb %l[" #L "]\n\t.popsection\n\t" \
    UA_EXTABLE("1b", "4b") UA_EXTABLE("2b", "4b") UA_EXTABLE("3b", "4b")
#define UA_MOPS_CPYF(d, s, n, regs, L)                                           \
    __asm__ goto("mov x0, %[dd]\n\tmov x1, %[ss]\n\tmov x2, %[nn]\n"             \
                 "1:\t.inst 0x19010440\n"   /* cpyfp [x0]!, [x1]!, x2! */        \
                 "2:\t.inst 0x19410440\n"   /* cpyfm [x0]!, [x1]!, x2! */        \
                 "3:\t.inst 0x19810440\n\t" /* cpyfe [x0]!, [x1]!, x2! */        \
                 UA_MOPS_STUB(rp, L)                                             \
                 : : [dd] "r"(d), [ss] "r"(s), [nn] "r"(n), [rp] "r"(regs)       \
                 : "x0", "x1", "x2", "cc", "memory" : L)
#define UA_MOPS_ZERO(d, n, regs, L)                                              \
    __asm__ goto("mov x0, %[dd]\n\tmov x2, %[nn]\n"                              \
                 "1:\t.inst 0x19df0440\n"   /* setp [x0]!, x2!, xzr */           \
                 "2:\t.inst 0x19df4440\n"   /* setm [x0]!, x2!, xzr */           \
                 "3:\t.inst 0x19df8440\n\t" /* sete [x0]!, x2!, xzr */           \
                 UA_MOPS_STUB(rp, L)                                             \
                 : : [dd] "r"(d), [nn] "r"(n), [rp] "r"(regs)                    \
                 : "x0", "x2", "cc", "memory" : L)

#endif
