/* riscv64 detection: riscv_hwprobe(2) misaligned-access performance. */
#if defined(__riscv) && __riscv_xlen == 64
#include "../internal.h"
#include "../os/os.h"

struct hwprobe_pair {
    int64_t key;
    uint64_t value;
};

void altmem__cpu_detect(struct altmem__cpu *out)
{
    struct hwprobe_pair q[2] = {{9, 0}, {5, 0}}; /* MISALIGNED_SCALAR_PERF, CPUPERF_0 */
    long rc = altmem__os_riscv_hwprobe(q, 2);
    out->arch = "riscv64";
    out->l1d_bytes = out->l2_bytes = out->l3_bytes = 0;
    out->vector_bytes = out->zero_block = 0;
    out->notes[0] = '\0';
    /* The kernel sets key to -1 for keys it does not know. */
    int64_t perf9 = (rc == 0 && q[0].key == 9) ? (int64_t)q[0].value : -1;
    int64_t perf5 = (rc == 0 && q[1].key == 5) ? (int64_t)q[1].value : -1;
    out->features = altmem__decode_riscv(rc, perf9, perf5, out->notes, sizeof out->notes);
}
#endif
