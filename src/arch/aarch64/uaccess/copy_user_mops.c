/*
 * copy_user_mops — fault-tolerant copy with FEAT_MOPS cpyfp/cpyfm/cpyfe.
 *
 * No src/ops/ classes: every size is one prologue/main/epilogue sequence.
 *
 * Assumptions:
 *   - FEAT_MOPS (AT_HWCAP2 bit 43); the sequence is extable.h's UA_MOPS_CPYF
 *     (.inst words, every instruction with an entry to a stub that saves
 *     x0-x2 before the fault label).
 *   - src and dst do not overlap (CPYF* copies forward only).
 *   - A fault leaves x0-x2 at the sequence's progress in the input/option B
 *     or the option A format; altmem__ua_mops_done tells them apart from the
 *     registers alone, so the variant is right under either option.  Every
 *     byte below that progress is stored; the faulting instruction may have
 *     stored bytes above it, which the fix-up (altmem__uaccess_bytes) stores
 *     again byte by byte, returning the exact count: nothing relies on an
 *     instruction's stores being all-or-nothing or ascending.
 *   - Addresses are integers; the instructions compute modulo 2^64.
 * Size classes:
 *   [0, UA_MOPS_MAX]  one cpyfp/cpyfm/cpyfe sequence of n bytes
 *   above             the first UA_MOPS_MAX bytes so, the rest by the byte
 *                     fix-up (no user mapping is that long: the first part faults)
 */
#include "registry.h"
#include "uaccess/extable.h"

size_t altmem_copy_user_mops(void *dst, const void *src, size_t n)
{
    const uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;
    /* First use: install the fault handler (extable.h). */
    if (UA_NOT_INSTALLED())
        goto first_use;
    const size_t k = n < UA_MOPS_MAX ? n : UA_MOPS_MAX;
    struct altmem__ua_mops_regs r;
    UA_MOPS_CPYF(d, s, k, &r, fault);
    if (__builtin_expect(k < n, 0))
        return altmem__uaccess_bytes(d, s, n, k, 0);
    return 0;
fault:
    return altmem__uaccess_bytes(d, s, n, altmem__ua_mops_done(&r, d, s, k, 1), 0);
first_use:
    return altmem__copy_user_first(dst, src, n, altmem_copy_user_mops);
}
