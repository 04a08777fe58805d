/*
 * clear_user_mops — fault-tolerant zeroing with FEAT_MOPS setp/setm/sete.
 *
 * No src/ops/ classes: every size is one prologue/main/epilogue sequence.
 *
 * Assumptions:
 *   - FEAT_MOPS (AT_HWCAP2 bit 43); the sequence is extable.h's UA_MOPS_ZERO
 *     (.inst words, xzr as the value, every instruction with an entry to a
 *     stub that saves x0-x2 before the fault label).
 *   - A fault leaves x0 and x2 at the sequence's progress in the input/option
 *     B or the option A format; altmem__ua_mops_done tells them apart from the
 *     registers alone.  Every byte below that progress is zeroed; the faulting
 *     instruction may have zeroed bytes above it, which the fix-up
 *     (altmem__uaccess_bytes) zeroes again byte by byte, returning the exact
 *     count: nothing relies on an instruction's stores being all-or-nothing.
 *   - Addresses are integers; the instructions compute modulo 2^64.
 * Size classes:
 *   [0, UA_MOPS_MAX]  one setp/setm/sete sequence of n bytes
 *   above             the first UA_MOPS_MAX bytes so, the rest by the byte
 *                     fix-up (no user mapping is that long: the first part faults)
 */
#include "registry.h"
#include "uaccess/extable.h"

size_t altmem_clear_user_mops(void *dst, size_t n)
{
    const uintptr_t d = (uintptr_t)dst;
    /* First use: install the fault handler (extable.h). */
    if (UA_NOT_INSTALLED())
        goto first_use;
    const size_t k = n < UA_MOPS_MAX ? n : UA_MOPS_MAX;
    struct altmem__ua_mops_regs r;
    UA_MOPS_ZERO(d, k, &r, fault);
    if (__builtin_expect(k < n, 0))
        return altmem__uaccess_bytes(d, 0, n, k, 1);
    return 0;
fault:
    return altmem__uaccess_bytes(d, 0, n, altmem__ua_mops_done(&r, d, 0, k, 0), 1);
first_use:
    return altmem__clear_user_first(dst, n, altmem_clear_user_mops);
}
