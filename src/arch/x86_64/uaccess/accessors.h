/*
 * The exception-table accessors of x86_64: scalar, vector (16, 32, 64 bytes)
 * and rep movsb / rep stosb with their progress.
 * Included by src/uaccess/extable.h (as <uaccess/accessors.h>, from the include
 * directory src/arch/x86_64), which defines UA_EXTABLE and the unaligned types
 * these use; the contract of every accessor is described there.
 */
#ifndef ALTMEM_X86_64_ACCESSORS_H
#define ALTMEM_X86_64_ACCESSORS_H

#include <immintrin.h>

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
#endif
#if defined(__AVX__)
/* Non-temporal 32-byte store to a 32-aligned address (the avx2 files, and the
   evex ones, built with the AVX-512 flags: any of registers 0-31 there). */
#define UA_VST32NT(p, v, L)                                                      \
    __asm__ goto("1:\tvmovntdq %[val], %[mem]\n\t" UA_EXTABLE("1b", "%l[" #L "]") \
                 : : [mem] "m"(*(__m256i *)(p)), [val] UA_VREG(v) : "memory" : L)
#endif

/* The low 8 / 4 bytes of an xmm register (memset's classes below 16 bytes):
   vmovq / vmovd in the AVX files, movq / movd in the SSE2 ones. */
#if defined(__AVX__)
#define UA_VSTQ_INSN "vmovq"
#define UA_VSTD_INSN "vmovd"
#else
#define UA_VSTQ_INSN "movq"
#define UA_VSTD_INSN "movd"
#endif
#define UA_VSTLOW(insn, T, p, x, L)                                              \
    __asm__ goto("1:\t" insn " %[val], %[mem]\n\t" UA_EXTABLE("1b", "%l[" #L "]") \
                 : : [mem] "m"(*(T *)(p)), [val] UA_VREG(x) : "memory" : L)
#define UA_VSTQ(p, x, L) UA_VSTLOW(UA_VSTQ_INSN, u64_una, p, x, L)
#define UA_VSTD(p, x, L) UA_VSTLOW(UA_VSTD_INSN, u32_una, p, x, L)

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

/* The 16-byte block of src/ops/block16.h where faults are caught
   (copy_user_ual, clear_user_ual): one SSE2 register, one access (a store
   that faults reports 0 bytes known stored).  UA_B16_SPLAT(x, v): the 64-bit
   v twice in x, made opaque so that GCC keeps it in one register instead of
   materialising it again inside a loop. */
typedef __m128i ua_b16;
#define UA_B16_LD(v, p, L) UA_VLD16(v, p, L)
#define UA_B16_ST(p, v, L) UA_VST16(p, v, L)
#define UA_B16_SPLAT(x, v)                                                       \
    do {                                                                         \
        (x) = _mm_set1_epi64x((long long)(v));                                   \
        __asm__("" : "+x"(x));                                                   \
    } while (0)
/* A variant's return value 0 goes to %rax on entry (an empty asm pins it
   there), so that each size class can end in its own ret rather than jump to
   a shared "xor; ret". */
#define UA_ZERO_IN_RET(v) __asm__("" : "+a"(v))

#endif
