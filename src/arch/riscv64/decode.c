/*
 * The pure decoder of riscv64: the RISC-V feature rules (riscv_hwprobe keys, AT_HWCAP) (decode.h).
 * No riscv64 instruction here: compiled on every host.
 */
#include "altmem.h"
#include "cpu.h"
#include "lib/text.h"
#include "decode.h"

/* RISC-V (Linux arch/riscv/include/uapi/asm/hwprobe.h; defined here because
   Debian 12's cross headers are 6.1, which has no riscv_hwprobe). */
#define RV_KEY_IMA_EXT_0 4              /* bitmask of extensions               */
#define RV_IMA_V (UINT64_C(1) << 2)     /* RISCV_HWPROBE_IMA_V                 */
#define RV_EXT_ZICBOZ (UINT64_C(1) << 6) /* RISCV_HWPROBE_EXT_ZICBOZ           */
#define RV_MISALIGNED_FAST 3            /* keys 9 and 5 (bits 0-2)             */
#define RV_HWCAP_V (1ul << ('V' - 'A')) /* AT_HWCAP: one bit per letter, bit 21 */

/* RISC-V.  UAL: only MISALIGNED_SCALAR_PERF == FAST (3) counts: EMULATED (1)
   traps into the kernel at every access (10-100x slower), SLOW (2) is slower than
   bytes, UNKNOWN (0) and UNSUPPORTED (4) promise nothing.  Kernels before 6.11
   answer through CPUPERF_0 (key 5) with the same values in bits 0-2.
   V: IMA_EXT_0 bit 2 (kernels >= 6.5 set it only when they save the vector
   state); AT_HWCAP bit 21 where hwprobe is absent or does not know key 4.
   Zicboz: IMA_EXT_0 bit 6 with the block size of key 6, a power of two from 16
   to 4096 bytes (a block inside a page: the variants zero whole aligned
   blocks and a fault is then one page's); anything else is not used. */
uint64_t altmem__decode_riscv(const struct altmem__riscv_raw *r, uint32_t *zero_block, char *notes,
                              size_t notes_len)
{
    uint64_t f = 0;
    *zero_block = 0;
    if (r->hwprobe_rc != 0) {
        altmem__cpu_note(notes, notes_len, "riscv_hwprobe failed (errno ", (unsigned long long)-r->hwprobe_rc,
             "): assuming no fast unaligned access");
        if (r->have_hwcap && (r->hwcap & RV_HWCAP_V)) {
            f |= ALTMEM_FEAT_RVV;
            altmem__cpu_note(notes, notes_len, "hwcap: V (AT_HWCAP bit 21)", 0, 0);
        }
        return f;
    }
    /* One note: "hwprobe: IMA_EXT_0 V (bit 2) ZICBOZ (bit 6), block 64 B;
       CPUPERF_0 FAST", what each feature came from. */
    char buf[160];
    struct altmem__text t = {buf, sizeof buf, 0};
    buf[0] = '\0';
    altmem__text_puts(&t, "hwprobe:");
    if (r->have_ima0) {
        if (r->ima0 & (RV_IMA_V | RV_EXT_ZICBOZ))
            altmem__text_puts(&t, " IMA_EXT_0");
        if (r->ima0 & RV_IMA_V) {
            f |= ALTMEM_FEAT_RVV;
            altmem__text_puts(&t, " V (bit 2)");
        }
        if (r->ima0 & RV_EXT_ZICBOZ) {
            altmem__text_puts(&t, " ZICBOZ (bit 6)");
            uint64_t b = r->block;
            if (!r->have_block) {
                altmem__text_puts(&t, " but no ZICBOZ_BLOCK_SIZE (key 6): Zicboz not used");
            } else if (b < 16 || b > 4096 || (b & (b - 1))) {
                altmem__text_puts(&t, ", block ");
                altmem__text_putu(&t, b);
                altmem__text_puts(&t, " B (not a power of two in 16..4096): Zicboz not used");
            } else {
                f |= ALTMEM_FEAT_ZICBOZ;
                *zero_block = (uint32_t)b;
                altmem__text_puts(&t, ", block ");
                altmem__text_putu(&t, b);
                altmem__text_puts(&t, " B");
            }
        }
    } else if (r->have_hwcap && (r->hwcap & RV_HWCAP_V)) {
        f |= ALTMEM_FEAT_RVV;
        altmem__text_puts(&t, " no IMA_EXT_0 (key 4), V from AT_HWCAP bit 21");
    }
    int from9 = r->perf9 >= 0;
    int64_t perf = from9 ? r->perf9 : r->perf5 >= 0 ? (r->perf5 & 7) : -1;
    if (t.len > sizeof "hwprobe:" - 1)
        altmem__text_puts(&t, ";");
    if (perf < 0) {
        altmem__text_puts(&t, " knows no misaligned-access key: assuming no UAL");
    } else {
        altmem__text_puts(&t, from9 ? " MISALIGNED_SCALAR_PERF" : " CPUPERF_0");
        if (perf == RV_MISALIGNED_FAST) {
            f |= ALTMEM_FEAT_UAL;
            altmem__text_puts(&t, " FAST");
        } else {
            altmem__text_puts(&t, " misaligned scalar perf = ");
            altmem__text_putu(&t, (unsigned long long)perf);
            altmem__text_puts(&t, " (3 = fast): no UAL");
        }
    }
    altmem__cpu_note(notes, notes_len, buf, 0, 0);
    return f;
}
