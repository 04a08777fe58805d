/*
 * memset_lsx — LoongArch64 LSX (HWCAP bit 4): 16-byte vld/vst.
 *
 * Assumptions:
 *   - UAL and LSX, as memcpy_lsx; the byte splatted once
 *     (vreplgr2vr.b), stores in ascending order (up to 128 bytes the classes
 *     are clear_user_lsx's; its loop keeps 4-vector blocks).
 * Size classes (la_vec.h's la_set_upto8w over src/ops):
 *   [0, 16)     1, 2 + 2, 4 + 4, 8 + 8 (scalar)
 *   [16, 32)    1 + 1 vector
 *   [32, 64)    2 + 2 vectors
 *   [64, 128]   4 + 4 vectors
 *   above 128   first vector, aligned 16-vector blocks, 8 aligned if > 8 left, last 8 unaligned
 */
#define LA_W 16
#include "registry.h"
#include "la_vec.h"

void *altmem_memset_lsx(void *dst, int c, size_t n)
{
    return la_memset(dst, c, n);
}
