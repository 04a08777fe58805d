/*
 * memset_rvv — RVV strip-mined set; zero through cbo.zero over whole blocks.
 *
 * Assumptions:
 *   - RVV 1.0 (ALTMEM_FEAT_RVV), built with -march=rv64gcv; any VLEN.
 *   - Byte elements: no alignment needed, no scalar misaligned access.
 *   - altmem__zero_block (the policy's copy of the Zicboz block size, 0 when
 *     the CPU has no Zicboz or it is masked) is a power of two in 16..4096:
 *     cbo.zero then zeroes exactly the aligned block holding its address.
 * Size classes:
 *   - c == 0, a block size, n >= max(4 blocks, 256 B): vector head up to the
 *     first block boundary, cbo.zero over the whole blocks, vector tail.
 *   - anything else: the one loop of min(n, 8 * VLENB)-byte steps (rvv.h).
 */
#include "registry.h"
#include "rvv.h"

void *altmem_memset_rvv(void *dst, int c, size_t n)
{
    const uintptr_t d = (uintptr_t)dst;
    const size_t zb = rv_zero_block();
    if ((unsigned char)c == 0 && zb && n >= rv_zero_from(zb)) {
        const size_t head = (size_t)-d & (zb - 1), blocks = (n - head) / zb;
        rvv_set(d, 0, head);
        rv_cbo_zero(d + head, blocks, zb);
        rvv_set(d + head + blocks * zb, 0, n - head - blocks * zb);
        return dst;
    }
    rvv_set(d, c, n);
    return dst;
}
