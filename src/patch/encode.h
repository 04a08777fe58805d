/* Branch encoders/decoders for each architecture's patch site (encode.c). */
#ifndef ALTMEM_ENCODE_H
#define ALTMEM_ENCODE_H

#include <stdint.h>

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
