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
 * Each architecture's accessors are in its own folder
 * (src/arch/<arch>/uaccess/accessors.h): the scalar ones above on every one, and
 * what its variants use besides (x86_64: vectors of 16, 32 and 64 bytes and rep
 * movsb / rep stosb, which fault precisely with rdi/rsi/rcx at their progress;
 * aarch64: q-register blocks, SVE, FEAT_MOPS; riscv64: RVV and Zicboz;
 * loongarch64: LSX / LASX vectors).
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

/* The address a field of an entry (insn or fixup) stands for. */
#define ALTMEM__EXTABLE_ADDR(e, field) ((uintptr_t)&(e)->field + (intptr_t)(e)->field)

/* An entry with its two addresses decoded: what the handler's sorted copy
   holds. */
struct altmem__extable_pair {
    uintptr_t insn, fixup;
};

/* The table's sort and search (src/uaccess/handler.c), as the kernel's
   sort_extable / search_extable:
   altmem__extable_decode the pairs of the entries [begin, end), to dst
                          (end - begin pairs);
   altmem__extable_sort   sorts pairs in place by instruction address (then
                          fix-up address);
   altmem__extable_search binary search of sorted pairs: the fix-up of the
                          entry for pc (the lowest one if there are several),
                          or 0;
   altmem__extable_fixup  what the fault handler asks: pc's fix-up in this
                          module's table, or 0;
   altmem__extable_sorted how many entries it searches by bisection (the
                          table is sorted: altmem_uaccess_install), or -1 (not
                          yet, or too large: it searches the section). */
__attribute__((visibility("hidden"))) void altmem__extable_decode(struct altmem__extable_pair *dst,
                                                                  const struct altmem__extable_entry *begin,
                                                                  const struct altmem__extable_entry *end);
__attribute__((visibility("hidden"))) void altmem__extable_sort(struct altmem__extable_pair *begin,
                                                                struct altmem__extable_pair *end);
__attribute__((visibility("hidden"))) uintptr_t altmem__extable_search(const struct altmem__extable_pair *begin,
                                                                       const struct altmem__extable_pair *end,
                                                                       uintptr_t pc);
__attribute__((visibility("hidden"))) uintptr_t altmem__extable_fixup(uintptr_t pc);
__attribute__((visibility("hidden"))) long altmem__extable_sorted(void);

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
