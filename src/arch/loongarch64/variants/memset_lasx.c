/*
 * memset_lasx — LoongArch64 LASX (HWCAP bit 5): 32-byte xvld/xvst, 16-byte vld/vst (LSX) below 32 bytes.
 *
 * Assumptions:
 *   - UAL and LASX, as memcpy_lasx; the byte splatted once
 *     (vreplgr2vr.b), stores in ascending order (the classes are clear_user_lasx's).
 * Size classes (la_vec.h's la_set_upto8w over src/ops):
 *   [0, 16) 1, 2 + 2, 4 + 4, 8 + 8 (scalar);
 *   [16, 32) 16 + 16 (LSX); [32, 64) 1 + 1 vector; [64, 128) 2 + 2; [128, 256] 4 + 4;
 *   above: the first vector unaligned, aligned blocks of 4 vectors while more
 *   than 4 remain, the last 4 vectors unaligned.
 */
#define LA_W 32
#include "registry.h"
#include "la_vec.h"

void *altmem_memset_lasx(void *dst, int c, size_t n)
{
    return la_memset(dst, c, n);
}
