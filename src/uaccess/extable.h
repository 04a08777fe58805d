/*
 * The exception table of altmem_copy_user / altmem_clear_user, as in the kernel:
 * for every load and store that may fault, an entry "faulting instruction ->
 * fix-up", kept in the read-only section altmem_extable (PC-relative fields: no
 * run-time relocation).  The accessors below are the only way the uaccess
 * variants touch memory; each is one instruction in an `asm goto` whose entry
 * points at a C label of the calling function, so the fault handler
 * (src/uaccess/handler.c) resumes exactly as if the instruction had jumped there.
 *
 * UA_LDn(v, p, label)  v = *(uintN_t *)p      UA_STn(p, v, label)  *(uintN_t *)p = v
 * p may be unaligned for n > 8 only where the variant's Assumptions allow it.
 * p is an address as a uintptr_t (or a pointer): the variants compute
 * addresses as integers, never as C pointer arithmetic on the caller's
 * pointers (NULL + i, 1 - 1 and the end of the address space are undefined
 * behaviour for pointers, and UBSan says so).
 *
 * x86_64 also has vector accessors (UA_VLDn / UA_VSTn, n = 16, 32, 64 bytes,
 * unaligned) and rep movsb / rep stosb with an entry (UA_REP_MOVSB / _STOSB):
 * a string instruction faults precisely, with rdi/rsi/rcx at its progress.
 * loongarch64 has UA_VLD16 / UA_VST16 (vld/vst) and UA_VLD32 / UA_VST32
 * (xvld/xvst) in the files built with LSX / LASX.
 */
#ifndef ALTMEM_EXTABLE_H
#define ALTMEM_EXTABLE_H

#include <stddef.h>
#include <stdint.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

struct altmem__extable_entry {
    int32_t insn;     /* PC-relative: the instruction that may fault */
    int32_t fixup;    /* PC-relative: where to resume                 */
};

#define UA_EXTABLE(from, to)                                                     \
    ".pushsection altmem_extable, \"a\"\n\t.balign 4\n\t"                        \
    ".long " from " - .\n\t.long " to " - .\n\t.popsection\n"

#if defined(__x86_64__)
/* The operands are plain (not volatile) lvalues: an asm goto is volatile
   anyway (never dropped, merged or moved across another), stores clobber
   memory, and GCC folds base + index + offset only into non-volatile memory
   operands (with volatile ones it computes every address with its own lea). */
#define UA_LD(insn, v, p, L)                                                     \
    __asm__ goto("1:\t" insn " %[mem], %[val]\n\t" UA_EXTABLE("1b", "%l[" #L "]") \
                 : [val] "=r"(v) : [mem] "m"(*(p)) : : L)
#define UA_ST(insn, p, v, L)                                                     \
    __asm__ goto("1:\t" insn " %[val], %[mem]\n\t" UA_EXTABLE("1b", "%l[" #L "]") \
                 : : [mem] "m"(*(p)), [val] "r"(v) : "memory" : L)
#define UA_LD8(v, p, L) UA_LD("movb", v, (const uint8_t *)(p), L)
#define UA_LD16(v, p, L) UA_LD("movw", v, (const u16_una *)(p), L)
#define UA_LD32(v, p, L) UA_LD("movl", v, (const u32_una *)(p), L)
#define UA_LD64(v, p, L) UA_LD("movq", v, (const u64_una *)(p), L)
#define UA_ST8(p, v, L) UA_ST("movb", (uint8_t *)(p), v, L)
#define UA_ST16(p, v, L) UA_ST("movw", (u16_una *)(p), v, L)
#define UA_ST32(p, v, L) UA_ST("movl", (u32_una *)(p), v, L)
#define UA_ST64(p, v, L) UA_ST("movq", (u64_una *)(p), v, L)


/* Vector accessors.  UA_VMOV / UA_VREG: the instruction and register class;
   an AVX-512 file (GCC keeps it to xmm/ymm/zmm16-31, which only EVEX encodes)
   uses vmovdqu64 and "v", the others vmovdqu and "x" (SSE2 files: movdqu). */
#if defined(__AVX512F__) && defined(__AVX512VL__)
#define UA_VMOV "vmovdqu64"
#define UA_VREG "v"
#elif defined(__AVX__)
#define UA_VMOV "vmovdqu"
#define UA_VREG "x"
#else
#define UA_VMOV "movdqu"
#define UA_VREG "x"
#endif
#define UA_VLD(T, v, p, L)                                                       \
    __asm__ goto("1:\t" UA_VMOV " %[mem], %[val]\n\t" UA_EXTABLE("1b", "%l[" #L "]") \
                 : [val] "=" UA_VREG(v) : [mem] "m"(*(const T *)(p)) : : L)
#define UA_VST(T, p, v, L)                                                       \
    __asm__ goto("1:\t" UA_VMOV " %[val], %[mem]\n\t" UA_EXTABLE("1b", "%l[" #L "]") \
                 : : [mem] "m"(*(T *)(p)), [val] UA_VREG(v) : "memory" : L)
#define UA_VLD16(v, p, L) UA_VLD(__m128i_u, v, p, L)
#define UA_VST16(p, v, L) UA_VST(__m128i_u, p, v, L)
#if defined(__AVX__)
#define UA_VLD32(v, p, L) UA_VLD(__m256i_u, v, p, L)
#define UA_VST32(p, v, L) UA_VST(__m256i_u, p, v, L)
#endif
#if defined(__AVX512F__)
#define UA_VLD64(v, p, L) UA_VLD(__m512i_u, v, p, L)
#define UA_VST64(p, v, L) UA_VST(__m512i_u, p, v, L)
/* Non-temporal 64-byte store to a 64-aligned address. */
#define UA_VST64NT(p, v, L)                                                      \
    __asm__ goto("1:\tvmovntdq %[val], %[mem]\n\t" UA_EXTABLE("1b", "%l[" #L "]") \
                 : : [mem] "m"(*(__m512i *)(p)), [val] "v"(v) : "memory" : L)
#elif defined(__AVX__)
#define UA_VST32NT(p, v, L)                                                      \
    __asm__ goto("1:\tvmovntdq %[val], %[mem]\n\t" UA_EXTABLE("1b", "%l[" #L "]") \
                 : : [mem] "m"(*(__m256i *)(p)), [val] "x"(v) : "memory" : L)
#endif

/* rep movsb / rep stosb of n bytes.  On a fault the entry leads to a stub that
   stores rcx (the bytes not done: everything below rdi is stored, nothing at
   or above it) to *leftp and jumps to L.  The operands are copied into
   rdi/rsi/rcx inside the asm, which clobbers them (an asm goto here has no
   outputs). */
#define UA_REP_MOVSB(d, s, n, leftp, L)                                          \
    __asm__ goto("mov %[dd], %%rdi\n\tmov %[ss], %%rsi\n\tmov %[nn], %%rcx\n"    \
                 "1:\trep movsb\n\t"                                             \
                 ".pushsection .text.unlikely, \"ax\", @progbits\n"              \
                 "2:\tmov %%rcx, (%[lp])\n\tjmp %l[" #L "]\n\t.popsection\n\t"     \
                 UA_EXTABLE("1b", "2b")                                          \
                 : : [dd] "r"(d), [ss] "r"(s), [nn] "r"(n), [lp] "r"(leftp)       \
                 : "rdi", "rsi", "rcx", "memory" : L)
#define UA_REP_STOSB(d, n, leftp, L)                                             \
    __asm__ goto("mov %[dd], %%rdi\n\tmov %[nn], %%rcx\n\txor %%eax, %%eax\n"   \
                 "1:\trep stosb\n\t"                                             \
                 ".pushsection .text.unlikely, \"ax\", @progbits\n"              \
                 "2:\tmov %%rcx, (%[lp])\n\tjmp %l[" #L "]\n\t.popsection\n\t"     \
                 UA_EXTABLE("1b", "2b")                                          \
                 : : [dd] "r"(d), [nn] "r"(n), [lp] "r"(leftp)                    \
                 : "rdi", "rcx", "rax", "memory" : L)

#elif defined(__aarch64__)
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

#elif defined(__riscv) || defined(__loongarch__)
/* Register-indirect with no offset: one spelling that both assemblers accept. */
#if defined(__riscv)
#define UA_ADDR "0(%[addr])"
#define UA_L8 "lbu"
#define UA_L16 "lhu"
#define UA_L32 "lwu"
#define UA_L64 "ld"
#define UA_S8 "sb"
#define UA_S16 "sh"
#define UA_S32 "sw"
#define UA_S64 "sd"
#else
#define UA_ADDR "%[addr], 0"
#define UA_L8 "ld.bu"
#define UA_L16 "ld.hu"
#define UA_L32 "ld.wu"
#define UA_L64 "ld.d"
#define UA_S8 "st.b"
#define UA_S16 "st.h"
#define UA_S32 "st.w"
#define UA_S64 "st.d"
#endif
#define UA_LD(insn, v, p, L)                                                     \
    __asm__ goto("1:\t" insn " %[val], " UA_ADDR "\n\t" UA_EXTABLE("1b", "%l[" #L "]") \
                 : [val] "=r"(v) : [addr] "r"(p) : "memory" : L)
#define UA_ST(insn, p, v, L)                                                     \
    __asm__ goto("1:\t" insn " %z[val], " UA_ADDR "\n\t" UA_EXTABLE("1b", "%l[" #L "]") \
                 : : [addr] "r"(p), [val] "rJ"(v) : "memory" : L)
#define UA_LD8(v, p, L) UA_LD(UA_L8, v, p, L)
#define UA_LD16(v, p, L) UA_LD(UA_L16, v, p, L)
#define UA_LD32(v, p, L) UA_LD(UA_L32, v, p, L)
#define UA_LD64(v, p, L) UA_LD(UA_L64, v, p, L)
#define UA_ST8(p, v, L) UA_ST(UA_S8, p, v, L)
#define UA_ST16(p, v, L) UA_ST(UA_S16, p, v, L)
#define UA_ST32(p, v, L) UA_ST(UA_S32, p, v, L)
#define UA_ST64(p, v, L) UA_ST(UA_S64, p, v, L)
#if defined(__loongarch__) && defined(__loongarch_sx)
/* Vector accessors of the lsx / lasx files (built -mlsx / -mlasx, which
   define __loongarch_sx / __loongarch_asx): vld/vst (16 bytes, operand
   modifier w: $vrN) and xvld/xvst (32 bytes, u: $xrN), unaligned.  A vector
   store that faults may have written part of its bytes: the variants never
   rely on it being all-or-nothing (src/uaccess/ua_la_vec.h). */
#include <lsxintrin.h>
/* "m" operands (base register + 12-bit offset, vld's and xvld's form): clang
   then folds a constant offset into the instruction, as on x86_64. */
#define UA_VLDX(insn, mod, T, v, p, L)                                           \
    __asm__ goto("1:\t" insn " %" mod "[val], %[mem]\n\t" UA_EXTABLE("1b", "%l[" #L "]") \
                 : [val] "=f"(v) : [mem] "m"(*(const T *)(p)) : "memory" : L)
#define UA_VSTX(insn, mod, T, p, v, L)                                           \
    __asm__ goto("1:\t" insn " %" mod "[val], %[mem]\n\t" UA_EXTABLE("1b", "%l[" #L "]") \
                 : : [mem] "m"(*(T *)(p)), [val] "f"(v) : "memory" : L)
typedef __m128i __attribute__((aligned(1), may_alias)) ua_v16u;
#define UA_VLD16(v, p, L) UA_VLDX("vld", "w", ua_v16u, v, p, L)
#define UA_VST16(p, v, L) UA_VSTX("vst", "w", ua_v16u, p, v, L)
#if defined(__loongarch_asx)
#include <lasxintrin.h>
typedef __m256i __attribute__((aligned(1), may_alias)) ua_v32u;
#define UA_VLD32(v, p, L) UA_VLDX("xvld", "u", ua_v32u, v, p, L)
#define UA_VST32(p, v, L) UA_VSTX("xvst", "u", ua_v32u, p, v, L)
#endif
#endif

#if defined(__riscv)
/* RVV (files built with the rvv flag set) and Zicboz.  C cannot hold an RVV
   value here (GCC 12 has no vector types or intrinsics), so a vector load and
   its store are one asm statement, through the register group v8-v15 (e8,
   LMUL 8), each instruction with its own entry to L:
     UA_VCOPY8(d, s, k, L)  copies k bytes, k <= VLMAX (8 * VLENB): vsetvli
                            sets vl = k exactly, vle8.v, vse8.v
     UA_VZERO8(d, k, L)     zeroes k bytes the same way (vmv.v.i, vse8.v)
     UA_CBO_ZERO(p, L)      cbo.zero of the block holding p (.insn: Debian 12's
                            GCC 12 + binutils 2.40 reject the mnemonic even
                            under -march=..._zicboz)
   The fix-up learns nothing from the instruction (not vstart, not whether a
   vector store wrote part of its bytes): the caller's progress is the start
   of the access, and it keeps every vector store inside one 4 KiB page, so a
   store that faults has written nothing.  vstart is left as the fault left it
   until the next vector instruction; UA_VSTART_CLEAR resets it on the fix-up
   path so that code after us finds the state the ABI promises. */
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 13)
#define UA_RVV_CLOBBERS , "v8", "v9", "v10", "v11", "v12", "v13", "v14", "v15"
#else
#define UA_RVV_CLOBBERS /* GCC 12 knows no vector registers and allocates none */
#endif
#define UA_VCOPY8(d, s, k, L)                                                    \
    __asm__ goto("vsetvli zero, %[kk], e8, m8, ta, ma\n"                          \
                 "1:\tvle8.v v8, (%[ss])\n"                                      \
                 "2:\tvse8.v v8, (%[dd])\n\t"                                    \
                 UA_EXTABLE("1b", "%l[" #L "]") UA_EXTABLE("2b", "%l[" #L "]")   \
                 : : [dd] "r"(d), [ss] "r"(s), [kk] "r"(k) : "memory" UA_RVV_CLOBBERS : L)
#define UA_VZERO8(d, k, L)                                                       \
    __asm__ goto("vsetvli zero, %[kk], e8, m8, ta, ma\n\tvmv.v.i v8, 0\n"        \
                 "1:\tvse8.v v8, (%[dd])\n\t" UA_EXTABLE("1b", "%l[" #L "]")      \
                 : : [dd] "r"(d), [kk] "r"(k) : "memory" UA_RVV_CLOBBERS : L)
#define UA_CBO_ZERO(p, L)                                                        \
    __asm__ goto("1:\t.insn i 0x0f, 2, x0, 4(%[addr])\n\t" UA_EXTABLE("1b", "%l[" #L "]") \
                 : : [addr] "r"(p) : "memory" : L)
#define UA_VSTART_CLEAR() __asm__ volatile("csrw 0x008, zero  # vstart")
#endif
#else
#error "uaccess: no fault-tolerant accessors for this architecture"
#endif

typedef uint64_t __attribute__((aligned(1), may_alias)) u64_una;
typedef uint32_t __attribute__((aligned(1), may_alias)) u32_una;
typedef uint16_t __attribute__((aligned(1), may_alias)) u16_una;

/* What the stub of a FEAT_MOPS sequence saves at a fault (aarch64: UA_MOPS_CPYF,
   UA_MOPS_ZERO): x0, x1, x2 as the interrupted instruction left them. */
struct altmem__ua_mops_regs {
    uint64_t xd, xs, xn;
};

/* The bytes an interrupted UA_MOPS_CPYF (copy nonzero) or UA_MOPS_ZERO of n bytes
   from d (and s) had done, from the registers the stub saved: every byte of dst
   below the result is stored.  Two formats (Arm ARM DDI 0487, "Memory Copy and
   Memory Set", the CPY* and SET* descriptions; the Linux kernel's
   arm64_mops_reset_regs converts between them by the same rules):
     input / option B   Xd, Xs the next byte to do, Xn the bytes left (the
                        prologue's input, which a prologue that faults leaves
                        updated to its progress; every instruction under
                        option B)
     option A           after the prologue: Xd, Xs one past the end, Xn minus
                        the bytes left
   The option is read from the registers themselves, not from PSTATE.C (which
   the prologue sets to 1 under option B, 0 under option A, but which a
   prologue that faults has not set yet): with o = Xd - d, the input / option B
   format has o + Xn = n, option A has o = n and -Xn <= n; both hold only when
   Xn = 0, and then both say n.  Xs must agree for a copy.  Registers that fit
   neither (never seen) give 0, which is always a true progress: the byte
   fix-up then redoes the bytes from the start.  Arithmetic is modulo 2^64: a
   region that wraps the address space decodes the same.  Plain C, outside
   the aarch64 part so that tests/test_uaccess_mops.c runs it on any host. */
static inline size_t altmem__ua_mops_done(const struct altmem__ua_mops_regs *r, uintptr_t d, uintptr_t s,
                                          size_t n, int copy)
{
    const uint64_t o = r->xd - d;
    if (o <= n && o + r->xn == n && (!copy || r->xs - s == o))
        return o;
    if (o == n && -r->xn <= n && (!copy || r->xs - s == n))
        return n + r->xn;
    return 0;
}

/* The fix-up every variant shares: copy (or, with clear set, zero) bytes
   [done, n) one at a time, each access guarded, and return how many were NOT
   done — exact to the byte.  `done` is the fast path's progress when it
   faulted: every byte below it was stored, nothing at or above it was (the
   variants store in ascending order and track it per store), so the fix-up
   resumes there instead of redoing the copy: bytes already written are never
   re-read, and a source that shrinks meanwhile (another thread mprotects a
   page below `done`) cannot make the count smaller than what was written.
   (clear is a flag, not src == 0: copying from NULL must fault like any other
   inaccessible source.)  Addresses are integers: the variants never do C
   pointer arithmetic on the caller's pointers, which may be NULL, wild or at
   the end of the address space. */
size_t altmem__uaccess_bytes(uintptr_t dst, uintptr_t src, size_t n, size_t done, int clear);

/* The larger of the two: a fault label's progress when an unaligned head block
   of h bytes was stored before a loop that starts at i <= h. */
static inline size_t altmem__ua_max(size_t a, size_t b) { return a > b ? a : b; }

/* How many of the n bytes from address a lie past the last byte of the address
   space that can be touched: 0 for every region that fits below UINTPTR_MAX.
   The top of the address space is never accessible from user space on any
   supported architecture (the kernel's half; on x86_64 also non-canonical), so
   a variant may treat address UINTPTR_MAX as the first inaccessible byte: do
   the first n - past bytes and count `past` as not done.  The count stays exact
   and no end address computed from n wraps around 2^64 (a loop bound d + n - k
   that wraps ends a loop before it starts and aims its tail at addresses below
   d).  Used where a variant computes end addresses: its loops, n > 8W on
   x86_64; a smaller class that wraps starts inside the top 512 bytes, where its
   first access faults with nothing stored. */
static inline size_t altmem__ua_past_end(uintptr_t a, size_t n)
{
    const size_t room = UINTPTR_MAX - a;
    return n > room ? n - room : 0;
}

/* Lazy installation of the fault handler (src/uaccess/handler.c).  The public
   altmem_copy_user / altmem_clear_user are the patched-branch stubs themselves
   (src/arch/stubs.inc), so the first-use check lives here, at the top of every
   variant: one load of a hidden flag and a branch predicted not taken,

       if (UA_NOT_INSTALLED())
           goto first_use;          // the label at the end of the function:
       ...                          // GCC's source-order layout of the avx512
   first_use:                       // files keeps the fast path falling through
       return altmem__copy_user_first(dst, src, n, self);

   The out-of-line (cold) first-use function installs the handler and calls
   the variant (self) again, which then finds the flag set.  A tail call, not a
   call that returns into the variant: the arguments would have to survive the
   call, in callee-saved registers pushed on every call (GCC 12 does not
   shrink-wrap them separately on x86_64).  If installing fails (sigaction
   refused) it copies with altmem__uaccess_bytes instead of recursing; the next
   call tries again, as before. */
extern int altmem__uaccess_installed __attribute__((visibility("hidden")));
#define UA_NOT_INSTALLED() __builtin_expect(!__atomic_load_n(&altmem__uaccess_installed, __ATOMIC_ACQUIRE), 0)
__attribute__((cold, visibility("hidden"))) size_t
altmem__copy_user_first(void *dst, const void *src, size_t n, size_t (*self)(void *, const void *, size_t));
__attribute__((cold, visibility("hidden"))) size_t altmem__clear_user_first(void *dst, size_t n,
                                                                            size_t (*self)(void *, size_t));

#endif
