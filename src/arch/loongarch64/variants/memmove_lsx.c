/*
 * memmove_lsx — LoongArch64 LSX (HWCAP bit 4): 16-byte vld/vst.
 *
 * Assumptions:
 *   - As memcpy_lsx.  Up to 128 bytes every byte is loaded before any store, so
 *     overlap needs no test; above, direction by overlap (forward unless dst
 *     lies inside (src, src + n)), each block of 8 vectors loaded before it is
 *     stored, the first (last) vector loaded up front and stored last.
 * Size classes: memcpy_lsx's (la_vec.h).
 */
#define LA_W 16
#include "registry.h"
#include "la_vec.h"

void *altmem_memmove_lsx(void *dst, const void *src, size_t n)
{
    return la_memmove(dst, src, n);
}
