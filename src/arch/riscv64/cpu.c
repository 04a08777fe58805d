/* riscv64 detection: riscv_hwprobe(2) (misaligned-access performance, V,
   Zicboz and its block size), AT_HWCAP where hwprobe is absent, and VLENB. */
#if defined(__riscv) && __riscv_xlen == 64
#include "altmem.h"
#include "cpu.h"
#include "decode.h"
#include "os/os.h"

struct hwprobe_pair {
    int64_t key;
    uint64_t value;
};

/* Keys (Linux arch/riscv/include/uapi/asm/hwprobe.h). */
#define KEY_IMA_EXT_0 4
#define KEY_CPUPERF_0 5
#define KEY_ZICBOZ_BLOCK_SIZE 6
#define KEY_MISALIGNED_SCALAR_PERF 9
#define AT_HWCAP_ 16

void altmem__cpu_detect_id(struct altmem__cpu *out)
{
    out->caches_late = 0;
    struct hwprobe_pair q[4] = {
        {KEY_MISALIGNED_SCALAR_PERF, 0}, {KEY_CPUPERF_0, 0}, {KEY_IMA_EXT_0, 0}, {KEY_ZICBOZ_BLOCK_SIZE, 0}};
    struct altmem__riscv_raw raw;
    raw.hwprobe_rc = altmem__os_riscv_hwprobe(q, 4);
    out->arch = "riscv64";
    out->l1d_bytes = out->l2_bytes = out->l3_bytes = 0;
    out->vector_bytes = out->zero_block = 0;
    out->glibc_nt = out->glibc_movsb_stop = 0;
    out->notes[0] = '\0';
    /* The kernel sets key to -1 for keys it does not know. */
    const int ok = raw.hwprobe_rc == 0;
    raw.perf9 = (ok && q[0].key == KEY_MISALIGNED_SCALAR_PERF) ? (int64_t)q[0].value : -1;
    raw.perf5 = (ok && q[1].key == KEY_CPUPERF_0) ? (int64_t)q[1].value : -1;
    raw.have_ima0 = ok && q[2].key == KEY_IMA_EXT_0;
    raw.ima0 = q[2].value;
    raw.have_block = ok && q[3].key == KEY_ZICBOZ_BLOCK_SIZE;
    raw.block = q[3].value;
    raw.hwcap = altmem__os_getauxval(AT_HWCAP_, &raw.have_hwcap);
    out->features = altmem__decode_riscv(&raw, &out->zero_block, out->notes, sizeof out->notes);
    if (out->features & ALTMEM_FEAT_RVV) {
        /* vlenb (CSR 0xc22) by number: this file is built without V, and the
           instruction is only reached where the kernel said V is on. */
        unsigned long vlenb;
        __asm__ volatile("csrr %0, 0xc22" : "=r"(vlenb));
        out->vector_bytes = (uint32_t)vlenb;
        altmem__cpu_note(out->notes, sizeof out->notes, "VLENB ", vlenb, " B");
    }
}

/* Nothing is read late here. */
void altmem__cpu_detect_caches(struct altmem__cpu *out) { out->caches_late = 0; }
#endif
