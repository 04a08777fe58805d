/*
 * The fault-tolerant accessors, as src/ops/access.h needs them for OPS_FAULT:
 * for every load and store that may fault, an entry "faulting instruction ->
 * fix-up" in the read-only section altmem_extable (PC-relative fields: no
 * run-time relocation), as in the kernel.  Each accessor is one instruction in
 * an `asm goto` whose entry points at a C label of the calling function, so the
 * fault handler (src/uaccess/handler.c, whose API is src/uaccess/extable.h)
 * resumes exactly as if the instruction had jumped there.  Only the accessors
 * and the entry's format are here: a memcpy translation unit includes this,
 * not the handler's API.
 *
 * UA_LDn(v, p, label)  v = *(uintN_t *)p      UA_STn(p, v, label)  *(uintN_t *)p = v
 * p may be unaligned for n > 8 only where the variant's Assumptions allow it.
 * p is an address as a uintptr_t (or a pointer): the variants compute
 * addresses as integers, never as C pointer arithmetic on the caller's
 * pointers (NULL + i, 1 - 1 and the end of the address space are undefined
 * behaviour for pointers, and UBSan says so).
 *
 * Each architecture's accessors are in its own folder
 * (src/arch/<arch>/uaccess/accessors.h): the scalar ones above on every one, and
 * what its variants use besides (x86_64: vectors of 16, 32 and 64 bytes and rep
 * movsb / rep stosb, which fault precisely with rdi/rsi/rcx at their progress;
 * aarch64: q-register blocks, SVE, FEAT_MOPS; riscv64: RVV and Zicboz;
 * loongarch64: LSX / LASX vectors).
 */
#ifndef ALTMEM_OPS_FAULT_ACCESS_H
#define ALTMEM_OPS_FAULT_ACCESS_H

#include <stddef.h>
#include <stdint.h>

struct altmem__extable_entry {
    int32_t insn;     /* PC-relative: the instruction that may fault */
    int32_t fixup;    /* PC-relative: where to resume                 */
};

#define UA_EXTABLE(from, to)                                                     \
    ".pushsection altmem_extable, \"a\"\n\t.balign 4\n\t"                        \
    ".long " from " - .\n\t.long " to " - .\n\t.popsection\n"

/* The address a field of an entry (insn or fixup) stands for. */
#define ALTMEM__EXTABLE_ADDR(e, field) ((uintptr_t)&(e)->field + (intptr_t)(e)->field)

typedef uint64_t __attribute__((aligned(1), may_alias)) u64_una;
typedef uint32_t __attribute__((aligned(1), may_alias)) u32_una;
typedef uint16_t __attribute__((aligned(1), may_alias)) u16_una;


/* The accessors of the architecture built (src/arch/<arch>/uaccess/accessors.h,
   through the include directory src/arch/<arch>): UA_LD8..UA_ST64 on every
   one, and what its own variants use. */
#include <uaccess/accessors.h>

/* A variant's return value 0 pinned in its return register on entry, so that
   each size class can end in its own return (x86_64's accessors.h: %rax);
   nothing elsewhere. */
#ifndef UA_ZERO_IN_RET
#define UA_ZERO_IN_RET(v) ((void)0)
#endif

/* The scalar accessors of the architectures whose loads and stores take a base
   register (riscv64, loongarch64): their accessors.h defines UA_ADDR (the
   address operand with no offset, in its assembler's spelling) and the
   mnemonics UA_L8..UA_L64, UA_S8..UA_S64; the asm is written once here. */
#if defined(UA_ADDR)
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
#endif

/* The fix-up every variant shares (defined in src/uaccess/uaccess_bytes.c):
   copy (or, with clear set, zero) bytes [done, n) one at a time, each access
   guarded, and return how many were NOT done — exact to the byte.  `done` is the fast path's progress when it
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

#endif
