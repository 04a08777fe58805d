/*
 * memcpy_lsx — LoongArch64 LSX (HWCAP bit 4): 16-byte vld/vst.
 *
 * Assumptions:
 *   - UAL and LSX: unaligned vector and scalar accesses are single
 *     instructions (la_vec.h); this file alone is built with the lsx flag set.
 *   - Every byte of a size class is loaded before any is stored; above 128
 *     bytes, a 128-byte loop (8 vectors, pointer-compare loop control) whose
 *     stores are 16-aligned, the first vector stored last.
 * Size classes (la_vec.h's la_copy_upto8w over src/ops, one line each there):
 *   [0, 8)      4 + 4, 2 + 2, 1 (scalar)
 *   [8, 16)     8 + 8 (scalar)
 *   [16, 32)    1 + 1 vector
 *   [32, 64)    2 + 2 vectors
 *   [64, 128]   4 + 4 vectors
 *   above 128   head vector kept, aligned 8-vector blocks, last 1..8 by the above, head stored
 */
#define LA_W 16
#include "registry.h"
#include "la_vec.h"

void *altmem_memcpy_lsx(void *__restrict dst, const void *__restrict src, size_t n)
{
    return la_memcpy(dst, src, n);
}
