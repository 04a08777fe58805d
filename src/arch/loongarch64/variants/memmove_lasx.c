/*
 * memmove_lasx — LoongArch64 LASX (HWCAP bit 5): 32-byte xvld/xvst, 16-byte vld/vst (LSX) below 32 bytes.
 *
 * Assumptions:
 *   - As memcpy_lasx.  Up to 256 bytes every byte is loaded before any store, so
 *     overlap needs no test; above, direction by overlap (forward unless dst
 *     lies inside (src, src + n)), each block of 4 vectors loaded before it is
 *     stored, the first (last) vector loaded up front and stored last.
 * Size classes: memcpy_lasx's (la_vec.h).
 */
#define LA_W 32
#include "registry.h"
#include "la_vec.h"

void *altmem_memmove_lasx(void *dst, const void *src, size_t n)
{
    return la_memmove(dst, src, n);
}
