/* Branch encoders/decoders for each architecture's patch site
   (src/arch/<arch>/encode.c, compiled on every host for tests/test_encode.c). */
#ifndef ALTMEM_ENCODE_H
#define ALTMEM_ENCODE_H

#include <stdint.h>

/* Instruction words are little-endian on all four targets. */
static inline uint32_t altmem__get32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void altmem__put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* Sign-extends the low `bits` bits of v. */
static inline int64_t altmem__sext(uint64_t v, unsigned bits)
{
    uint64_t m = UINT64_C(1) << (bits - 1);
    v &= (m << 1) - 1;
    return (int64_t)(v ^ m) - (int64_t)m;
}

/* encode: writes the site's bytes (5, 4, 4 or 8), returns 0 or -1 if target is
   out of reach; decode: the branch's target, or 0 if the bytes are not one. */
int altmem__branch_encode_x86_64(uintptr_t site, uintptr_t target, unsigned char *out);
uintptr_t altmem__branch_decode_x86_64(uintptr_t site, const unsigned char *code);
int altmem__branch_encode_aarch64(uintptr_t site, uintptr_t target, unsigned char *out);
uintptr_t altmem__branch_decode_aarch64(uintptr_t site, const unsigned char *code);
int altmem__branch_encode_loongarch64(uintptr_t site, uintptr_t target, unsigned char *out);
uintptr_t altmem__branch_decode_loongarch64(uintptr_t site, const unsigned char *code);
int altmem__branch_encode_riscv64(uintptr_t site, uintptr_t target, unsigned char *out);
uintptr_t altmem__branch_decode_riscv64(uintptr_t site, const unsigned char *code);

#endif
