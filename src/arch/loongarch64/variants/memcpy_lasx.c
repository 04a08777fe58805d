/*
 * memcpy_lasx — LoongArch64 LASX (HWCAP bit 5): 32-byte xvld/xvst, 16-byte vld/vst (LSX) below 32 bytes.
 *
 * Assumptions:
 *   - UAL and LASX: unaligned vector and scalar accesses are single
 *     instructions (la_vec.h); this file alone is built with the lasx flag set.
 *   - Every byte of a size class is loaded before any is stored; above 256
 *     bytes, a 32-aligned 128-byte loop whose stores are aligned, the first vector stored last.
 * Size classes (la_vec.h's la_copy_upto8w over src/ops, one line each there):
 *   [0, 8) 4 + 4, 2 + 2, 1; [8, 16) 8 + 8;
 *   [16, 32) 16 + 16 (LSX); [32, 64) 1 + 1 vector; [64, 128) 2 + 2; [128, 256] 4 + 4;
 *   above: first vector up front, aligned blocks of 4 vectors, the last 1..4
 *   vectors by the classes above, then the first vector stored.
 */
#define LA_W 32
#include "registry.h"
#include "la_vec.h"

void *altmem_memcpy_lasx(void *__restrict dst, const void *__restrict src, size_t n)
{
    return la_memcpy(dst, src, n);
}
