/*
 * The fix-up of every uaccess variant: go on from the fast path's progress a
 * byte at a time, each byte guarded, and stop at the first inaccessible one.
 * That makes the count exact to the byte whatever the fast path's granularity
 * was (the kernel's fast paths promise 8 bytes and needed a byte-retry fix-up
 * added later).
 *
 * Assumptions: any ISA; byte accesses only; every byte of dst below `done` was
 * stored by the fast path (extable.h), so bytes already copied are neither
 * re-read nor rewritten; addresses are integers (the caller's pointers may be
 * NULL or wild: no C pointer arithmetic on them).
 *
 * The faulting store itself may have stored part of its bytes: qemu splits a
 * q-register or vector store into 8-byte host stores, an RVV or SVE store
 * writes element by element, and Arm allows a multi-register store that aborts
 * to have written its other locations.  That matters only when write access to
 * the page was revoked *during* the instruction (another thread's mprotect):
 * the byte retry then fails at once at `done`, while bytes up to the fault
 * address were written.  So when the retry's store fails below the fast path's
 * fault address, in the same 4 KiB block, the count goes on over the bytes up
 * to that address that hold the values being stored: dst's prefix then holds
 * the source (or zeros) and nothing past it was written (uaccess.shrink_race).
 */
#include "os/os.h"
#include "extable.h"

size_t altmem__uaccess_bytes(uintptr_t dst, uintptr_t src, size_t n, size_t done, int clear)
{
    /* The fast path's fault address, read before a fault of ours replaces it. */
    const uintptr_t fast_fault = altmem__os_fault_kept();
    size_t i = done;
    for (; i < n; i++) {
        uint8_t b = 0;
        if (!clear)
            UA_LD8(b, src + i, fault);
        UA_ST8(dst + i, b, store_fault);
    }
    return 0;
store_fault:
    if (fast_fault > dst + i && (fast_fault >> 12) == ((dst + i) >> 12))
        for (; i < n && dst + i < fast_fault; i++) {
            uint8_t want = 0, have;
            if (!clear)
                UA_LD8(want, src + i, fault);
            UA_LD8(have, dst + i, fault);
            if (have != want)
                break;
        }
fault:
    return n - i;
}
