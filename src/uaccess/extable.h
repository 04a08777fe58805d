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
 */
#ifndef ALTMEM_EXTABLE_H
#define ALTMEM_EXTABLE_H

#include <stddef.h>
#include <stdint.h>

struct altmem__extable_entry {
    int32_t insn;     /* PC-relative: the instruction that may fault */
    int32_t fixup;    /* PC-relative: where to resume                 */
};

#define UA_EXTABLE(from, to)                                                     \
    ".pushsection altmem_extable, \"a\"\n\t.balign 4\n\t"                        \
    ".long " from " - .\n\t.long " to " - .\n\t.popsection\n"

#if defined(__x86_64__)
#define UA_LD(insn, v, p, L)                                                     \
    __asm__ goto("1:\t" insn " %[mem], %[val]\n\t" UA_EXTABLE("1b", "%l[" #L "]") \
                 : [val] "=r"(v) : [mem] "m"(*(p)) : : L)
#define UA_ST(insn, p, v, L)                                                     \
    __asm__ goto("1:\t" insn " %[val], %[mem]\n\t" UA_EXTABLE("1b", "%l[" #L "]") \
                 : : [mem] "m"(*(p)), [val] "r"(v) : "memory" : L)
#define UA_LD8(v, p, L) UA_LD("movb", v, (const volatile uint8_t *)(p), L)
#define UA_LD16(v, p, L) UA_LD("movw", v, (const volatile u16_una *)(p), L)
#define UA_LD32(v, p, L) UA_LD("movl", v, (const volatile u32_una *)(p), L)
#define UA_LD64(v, p, L) UA_LD("movq", v, (const volatile u64_una *)(p), L)
#define UA_ST8(p, v, L) UA_ST("movb", (volatile uint8_t *)(p), v, L)
#define UA_ST16(p, v, L) UA_ST("movw", (volatile u16_una *)(p), v, L)
#define UA_ST32(p, v, L) UA_ST("movl", (volatile u32_una *)(p), v, L)
#define UA_ST64(p, v, L) UA_ST("movq", (volatile u64_una *)(p), v, L)

#elif defined(__aarch64__)
#define UA_LD(insn, w, v, p, L)                                                  \
    __asm__ goto("1:\t" insn " %" w "[val], %[mem]\n\t" UA_EXTABLE("1b", "%l[" #L "]") \
                 : [val] "=r"(v) : [mem] "Q"(*(p)) : : L)
#define UA_ST(insn, w, p, v, L)                                                  \
    __asm__ goto("1:\t" insn " %" w "[val], %[mem]\n\t" UA_EXTABLE("1b", "%l[" #L "]") \
                 : : [mem] "Q"(*(p)), [val] "r"(v) : "memory" : L)
#define UA_LD8(v, p, L) UA_LD("ldrb", "w", v, (const volatile uint8_t *)(p), L)
#define UA_LD16(v, p, L) UA_LD("ldrh", "w", v, (const volatile u16_una *)(p), L)
#define UA_LD32(v, p, L) UA_LD("ldr", "w", v, (const volatile u32_una *)(p), L)
#define UA_LD64(v, p, L) UA_LD("ldr", "x", v, (const volatile u64_una *)(p), L)
#define UA_ST8(p, v, L) UA_ST("strb", "w", (volatile uint8_t *)(p), v, L)
#define UA_ST16(p, v, L) UA_ST("strh", "w", (volatile u16_una *)(p), v, L)
#define UA_ST32(p, v, L) UA_ST("str", "w", (volatile u32_una *)(p), v, L)
#define UA_ST64(p, v, L) UA_ST("str", "x", (volatile u64_una *)(p), v, L)

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
#else
#error "uaccess: no fault-tolerant accessors for this architecture"
#endif

typedef uint64_t __attribute__((aligned(1), may_alias)) u64_una;
typedef uint32_t __attribute__((aligned(1), may_alias)) u32_una;
typedef uint16_t __attribute__((aligned(1), may_alias)) u16_una;

/* The fix-up every variant shares: copy (or, with clear set, zero) bytes
   [0, n) one at a time, each access guarded, and return how many were NOT
   done — exact to the byte.  (clear is a flag, not src == NULL: copying from
   NULL must fault like any other inaccessible source.)  Redoing the bytes the fast path already did is
   safe because src and dst do not overlap, and the fast path never writes a
   byte at or past the first inaccessible one (see the variants' notes). */
size_t altmem__uaccess_bytes(unsigned char *dst, const unsigned char *src, size_t n, int clear);

#endif
