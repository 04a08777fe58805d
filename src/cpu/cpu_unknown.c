/* Any other architecture: no feature is assumed, so every routine binds generic. */
#if !defined(__x86_64__) && !defined(__aarch64__) && !(defined(__riscv) && __riscv_xlen == 64) && \
    !(defined(__loongarch__) && __loongarch_grlen == 64)
#include "../internal.h"

void altmem__cpu_detect(struct altmem__cpu *out)
{
    out->arch = "unknown";
    out->features = 0;
    out->l1d_bytes = out->l2_bytes = out->l3_bytes = 0;
    out->vector_bytes = out->zero_block = 0;
    out->glibc_nt = out->glibc_movsb_stop = 0;
    struct altmem__text t = {out->notes, sizeof out->notes, 0};
    altmem__text_puts(&t, "architecture not recognised: generic variants only");
}
#endif
