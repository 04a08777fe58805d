/*
 * Branch encoders and decoders for every architecture's patch site, as pure
 * functions compiled on every host, so tests/test_encode.c can check each one
 * against that architecture's assembler wherever the tests run.  The
 * per-architecture files (src/arch/<arch>/patch_<arch>.c) pick theirs.
 * Instruction words are little-endian on all four targets.
 */
#include "encode.h"

static uint32_t get32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* Sign-extends the low `bits` bits of v. */
static int64_t sext(uint64_t v, unsigned bits)
{
    uint64_t m = UINT64_C(1) << (bits - 1);
    v &= (m << 1) - 1;
    return (int64_t)(v ^ m) - (int64_t)m;
}

/* x86_64: jmp rel32 (E9), displacement from the end of the 5-byte instruction. */
int altmem__branch_encode_x86_64(uintptr_t site, uintptr_t target, unsigned char *out)
{
    int64_t rel = (int64_t)(target - (site + 5));
    if (rel != (int32_t)rel)
        return -1;
    out[0] = 0xe9;
    put32(out + 1, (uint32_t)(int32_t)rel);
    return 0;
}

uintptr_t altmem__branch_decode_x86_64(uintptr_t site, const unsigned char *code)
{
    if (code[0] != 0xe9)
        return 0;
    return site + 5 + (uintptr_t)sext(get32(code + 1), 32);
}

/* aarch64: B imm26, word offset from the instruction, +-128 MiB. */
int altmem__branch_encode_aarch64(uintptr_t site, uintptr_t target, unsigned char *out)
{
    int64_t off = (int64_t)(target - site);
    if ((off & 3) || off < -(INT64_C(1) << 27) || off >= (INT64_C(1) << 27))
        return -1;
    put32(out, 0x14000000u | ((uint32_t)(off >> 2) & 0x03ffffffu));
    return 0;
}

uintptr_t altmem__branch_decode_aarch64(uintptr_t site, const unsigned char *code)
{
    uint32_t w = get32(code);
    if ((w & 0xfc000000u) != 0x14000000u)
        return 0;
    return site + (uintptr_t)(sext(w, 26) * 4);
}

/* loongarch64: B offs26, word offset split as offs[15:0] in bits 25..10 and
   offs[25:16] in bits 9..0, +-128 MiB. */
int altmem__branch_encode_loongarch64(uintptr_t site, uintptr_t target, unsigned char *out)
{
    int64_t off = (int64_t)(target - site);
    if ((off & 3) || off < -(INT64_C(1) << 27) || off >= (INT64_C(1) << 27))
        return -1;
    uint32_t imm = (uint32_t)(off >> 2) & 0x03ffffffu;
    put32(out, 0x50000000u | (imm & 0xffffu) << 10 | imm >> 16);
    return 0;
}

uintptr_t altmem__branch_decode_loongarch64(uintptr_t site, const unsigned char *code)
{
    uint32_t w = get32(code);
    if ((w & 0xfc000000u) != 0x50000000u)
        return 0;
    uint32_t imm = ((w >> 10) & 0xffffu) | (w & 0x3ffu) << 16;
    return site + (uintptr_t)(sext(imm, 26) * 4);
}

/* riscv64: auipc t1, hi20 ; jalr zero, lo12(t1) — +-2 GiB from the auipc.
   lo12 is sign-extended by jalr, so hi20 is rounded to compensate. */
#define RV_AUIPC_T1 0x00000317u        /* opcode AUIPC, rd = x6 (t1)            */
#define RV_JALR_X0_T1 0x00030067u      /* opcode JALR, rd = x0, funct3 0, rs1 = x6 */

int altmem__branch_encode_riscv64(uintptr_t site, uintptr_t target, unsigned char *out)
{
    int64_t off = (int64_t)(target - site);
    /* The reach first, so that the rounding below cannot overflow: hi20 in
       [-2^19, 2^19) and lo12 in [-2048, 2047] reach [-2^31 - 2048, 2^31 - 2049]. */
    if ((off & 1) || off < -(INT64_C(1) << 31) - 2048 || off > (INT64_C(1) << 31) - 2049)
        return -1;
    int64_t hi = (off + 0x800) >> 12;
    int64_t lo = off - hi * 4096;
    put32(out, RV_AUIPC_T1 | ((uint32_t)hi & 0xfffffu) << 12);
    put32(out + 4, RV_JALR_X0_T1 | ((uint32_t)lo & 0xfffu) << 20);
    return 0;
}

uintptr_t altmem__branch_decode_riscv64(uintptr_t site, const unsigned char *code)
{
    uint32_t a = get32(code), j = get32(code + 4);
    if ((a & 0xfffu) != RV_AUIPC_T1 || (j & 0xfffffu) != RV_JALR_X0_T1)
        return 0;
    int64_t hi = sext(a >> 12, 20), lo = sext(j >> 20, 12);
    /* jalr clears bit 0 of the address it computes: that is where it goes. */
    return (site + (uintptr_t)(hi * 4096 + lo)) & ~(uintptr_t)1;
}
