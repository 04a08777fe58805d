/* loongarch64 detection: CPUCFG word 1 bit 20 (UAL), cross-checked with AT_HWCAP. */
#if defined(__loongarch__) && __loongarch_grlen == 64
#include "cpu.h"
#include "decode.h"
#include "os/os.h"

void altmem__cpu_detect_id(struct altmem__cpu *out)
{
    out->caches_late = 0;
    uint32_t cfg1;
    __asm__ volatile("cpucfg %0, %1" : "=r"(cfg1) : "r"(1));
    int found;
    unsigned long hwcap = altmem__os_getauxval(16 /* AT_HWCAP */, &found);
    out->arch = "loongarch64";
    out->l1d_bytes = out->l2_bytes = out->l3_bytes = 0;
    out->vector_bytes = out->zero_block = 0;
    out->glibc_nt = out->glibc_movsb_stop = 0;
    out->notes[0] = '\0';
    out->features = altmem__decode_loongarch(cfg1, found, hwcap, out->notes, sizeof out->notes);
}

/* Nothing is read late here. */
void altmem__cpu_detect_caches(struct altmem__cpu *out) { out->caches_late = 0; }
#endif
