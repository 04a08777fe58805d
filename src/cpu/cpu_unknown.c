/* An architecture with no folder under src/arch/ (src/CMakeLists.txt builds this
   file instead of its cpu.c): no feature is assumed, so every routine binds
   generic. */
#include "cpu.h"
#include "lib/text.h"

void altmem__cpu_detect_id(struct altmem__cpu *out)
{
    out->caches_late = 0;
    out->arch = "unknown";
    out->features = 0;
    out->l1d_bytes = out->l2_bytes = out->l3_bytes = 0;
    out->vector_bytes = out->zero_block = 0;
    out->glibc_nt = out->glibc_movsb_stop = 0;
    struct altmem__text t = {out->notes, sizeof out->notes, 0};
    altmem__text_puts(&t, "architecture not recognised: generic variants only");
}

/* Nothing is read late here. */
void altmem__cpu_detect_caches(struct altmem__cpu *out) { out->caches_late = 0; }
