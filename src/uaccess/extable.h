/*
 * The exception table of altmem_copy_user / altmem_clear_user, as in the kernel,
 * and the fault handler's API (src/uaccess/handler.c): the accessors that make
 * the table's entries, and the entry's format, are src/ops/fault_access.h,
 * included here; what the uaccess variants use besides (the shared fix-up, the
 * end of the address space, the lazy installation of the handler) and what the
 * handler and its tests use (decoding, sorting and searching the table) are
 * below.
 */
#ifndef ALTMEM_EXTABLE_H
#define ALTMEM_EXTABLE_H

#include <stddef.h>
#include <stdint.h>

#include "ops/fault_access.h"

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

/* The fix-up every variant shares, altmem__uaccess_bytes: src/ops/fault_access.h
   (the size classes call it too; defined in src/uaccess/uaccess_bytes.c). */

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
