/* aarch64 detection: AT_HWCAP; unaligned access to normal memory always works. */
#if defined(__aarch64__)
#include "../internal.h"
#include "../os/os.h"

void altmem__cpu_detect(struct altmem__cpu *out)
{
    int found;
    unsigned long hwcap = altmem__os_getauxval(16 /* AT_HWCAP */, &found);
    out->arch = "aarch64";
    out->l1d_bytes = out->l2_bytes = out->l3_bytes = 0;
    out->vector_bytes = out->zero_block = 0;
    out->notes[0] = '\0';
    out->features = altmem__decode_aarch64(found, hwcap);
}
#endif
