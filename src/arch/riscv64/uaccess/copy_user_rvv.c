/*
 * copy_user_rvv — fault-tolerant RVV strip-mined copy.
 *
 * Assumptions:
 *   - RVV 1.0 (ALTMEM_FEAT_RVV), built with -march=rv64gcv; any VLEN.  Byte
 *     elements: no alignment needed, no scalar misaligned access.
 *   - src and dst do not overlap.
 *   - Steps ascend, each loaded whole before it is stored (UA_VCOPY8), and no
 *     step's store crosses a 4 KiB boundary of dst (4 KiB divides every
 *     riscv64 page size), so a store that faults lies in one inaccessible page
 *     and has written nothing, whatever the implementation does with vstart or
 *     partial stores; a load that faults has stored nothing of its step.  The
 *     progress is therefore the step's start: everything below it stored,
 *     nothing at or above; the fix-up goes on from there byte by byte
 *     (altmem__uaccess_bytes) for the exact count, after clearing vstart.
 *   - Addresses are integers (uintptr_t), as in every uaccess variant.
 * Size classes: none; one loop of min(n - i, 8 * VLENB, to dst's next 4 KiB
 * boundary)-byte steps.
 */
#include "registry.h"
#include "uaccess/extable.h"

size_t altmem_copy_user_rvv(void *dst, const void *src, size_t n)
{
    const uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;

    /* First use: install the fault handler (extable.h). */
    if (UA_NOT_INSTALLED())
        goto first_use;
    size_t vlmax;
    __asm__("csrr %0, vlenb" : "=r"(vlmax));
    vlmax *= 8; /* e8, LMUL 8 */
    size_t i = 0;
    while (i < n) {
        size_t k = n - i;
        const size_t room = 4096 - ((d + i) & 4095);
        if (k > room)
            k = room;
        if (k > vlmax)
            k = vlmax;
        UA_VCOPY8(d + i, s + i, k, fault);
        i += k;
    }
    return 0;
fault:
    UA_VSTART_CLEAR();
    return altmem__uaccess_bytes(d, s, n, i, 0);
first_use:
    return altmem__copy_user_first(dst, src, n, altmem_copy_user_rvv);
}
