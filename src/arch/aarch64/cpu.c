/* aarch64 detection: AT_HWCAP, AT_HWCAP2, DCZID_EL0, the SVE vector length and
   the kernel's release (for the SVE rule); the rules are in decode.c. */
#if defined(__aarch64__)
#include "cpu.h"
#include "decode.h"
#include "os/os.h"

void altmem__cpu_detect_id(struct altmem__cpu *out)
{
    out->caches_late = 0;
    struct altmem__aarch64_raw raw = {0};
    char release[65];
    raw.hwcap = altmem__os_getauxval(16 /* AT_HWCAP */, &raw.have_hwcap);
    raw.hwcap2 = altmem__os_getauxval(26 /* AT_HWCAP2 */, &raw.have_hwcap2);
    /* DCZID_EL0 is readable at EL0 on every AArch64 CPU (no trap under Linux). */
    __asm__("mrs %0, dczid_el0" : "=r"(raw.dczid));
    raw.have_dczid = 1;
    raw.release = altmem__os_uname_release(release, sizeof release) == 0 ? release : 0;
    out->arch = "aarch64";
    out->l1d_bytes = out->l2_bytes = out->l3_bytes = 0;
    out->vector_bytes = 16;
    out->zero_block = 0;
    out->glibc_nt = out->glibc_movsb_stop = 0;
    out->notes[0] = '\0';
    const int sve = raw.have_hwcap && (raw.hwcap & (1ul << 22));
    if (sve) {
        /* rdvl x, #1 (the SVE vector length in bytes), encoded: this file is
           built for the baseline ISA and runs it only where HWCAP says SVE. */
        register uint64_t vl __asm__("x0");
        __asm__ volatile(".inst 0x04bf5020" : "=r"(vl));
        out->vector_bytes = (uint32_t)vl;
    }
    out->features = altmem__decode_aarch64(&raw, &out->zero_block, out->notes, sizeof out->notes);
    if (sve) {
        altmem__cpu_note(out->notes, sizeof out->notes, "SVE VL ", out->vector_bytes, " B");
    }
}

/* Nothing is read late here. */
void altmem__cpu_detect_caches(struct altmem__cpu *out) { out->caches_late = 0; }
#endif
