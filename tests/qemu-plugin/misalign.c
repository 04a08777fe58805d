/*
 * A QEMU TCG plugin that counts misaligned memory accesses: the proof, on
 * architectures this machine only emulates, that altmem's strict-alignment
 * (`generic`) variants never make one.  QEMU's user-mode emulation performs a
 * misaligned load or store without complaint, so running the code proves
 * nothing by itself; this plugin watches every access made by the instructions
 * in the code ranges it is given and counts those whose address is not a
 * multiple of their size.  tests/qemu-plugin/misalign.sh takes the ranges from
 * the test binary's symbol table and judges the counts (docs/arch-notes.md).
 *
 *   qemu-<arch> -plugin libaltmem-misalign.so,range=LO:HI:NAME[,range=...][,out=FILE] prog args
 *
 * LO and HI are hexadecimal addresses ([LO, HI)); NAME labels the range in the
 * report.  The report goes to FILE, else to QEMU's log (shown with -d plugin):
 *
 *   range NAME LO HI insns N accesses A misaligned M
 *   example NAME pc PC load|store SIZE at ADDR
 *   total accesses A misaligned M
 *
 * The plugin API is declared here, not included: Debian's qemu packages ship no
 * qemu-plugin.h.  The declarations follow QEMU 7.2's include/qemu/qemu-plugin.h
 * (plugin API version 1; the enum values and the callback signatures must match
 * it exactly), and QEMU refuses a plugin built for an API version it does not
 * support, so a mismatch shows up as a load error, not as wrong counts.  Only
 * the dynamically linked qemu-user (Debian's qemu-user package) can load
 * plugins; qemu-user-static cannot.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- The part of QEMU 7.2's plugin API this plugin uses ----------------- */

#define QEMU_PLUGIN_EXPORT __attribute__((visibility("default")))
#define QEMU_PLUGIN_VERSION 1

typedef uint64_t qemu_plugin_id_t;
typedef uint32_t qemu_plugin_meminfo_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;

typedef struct qemu_info_t {
    const char *target_name;
    struct {
        int min;
        int cur;
    } version;
    bool system_emulation;
    union {
        struct {
            int smp_vcpus;
            int max_vcpus;
        } system;
    };
} qemu_info_t;

enum qemu_plugin_cb_flags {
    QEMU_PLUGIN_CB_NO_REGS,
    QEMU_PLUGIN_CB_R_REGS,
    QEMU_PLUGIN_CB_RW_REGS,
};

enum qemu_plugin_mem_rw {
    QEMU_PLUGIN_MEM_R = 1,
    QEMU_PLUGIN_MEM_W,
    QEMU_PLUGIN_MEM_RW,
};

typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_mem_cb_t)(unsigned int vcpu_index, qemu_plugin_meminfo_t info, uint64_t vaddr,
                                          void *userdata);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *insn, qemu_plugin_vcpu_mem_cb_t cb,
                                      enum qemu_plugin_cb_flags flags, enum qemu_plugin_mem_rw rw, void *userdata);
unsigned int qemu_plugin_mem_size_shift(qemu_plugin_meminfo_t info);
bool qemu_plugin_mem_is_store(qemu_plugin_meminfo_t info);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *userdata);
void qemu_plugin_outs(const char *string);

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;
QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv);

/* ---- State ---------------------------------------------------------------- */

#define MAX_RANGES 64
#define MAX_EXAMPLES 8 /* misaligned accesses reported in detail, per range */

struct example {
    uint64_t pc, addr;
    unsigned size;
    bool store;
};

struct range {
    uint64_t lo, hi;
    char name[96];
    uint64_t insns;      /* instructions instrumented (per translation) */
    uint64_t accesses;   /* memory accesses they made                   */
    uint64_t misaligned; /* ... whose address is not a multiple of their size */
    struct example ex[MAX_EXAMPLES];
};

static struct range ranges[MAX_RANGES];
static int nranges;
static const char *out_path;

/* What each instrumented instruction's callback needs: its range and address.
   One per translation, kept for the life of the process (translations are few). */
struct insn_data {
    struct range *r;
    uint64_t pc;
};

/* ---- Callbacks ------------------------------------------------------------ */

static void on_access(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *userdata)
{
    (void)vcpu;
    struct insn_data *d = userdata;
    unsigned size = 1u << qemu_plugin_mem_size_shift(info);
    __atomic_fetch_add(&d->r->accesses, 1, __ATOMIC_RELAXED);
    if ((vaddr & (size - 1)) == 0)
        return;
    uint64_t k = __atomic_fetch_add(&d->r->misaligned, 1, __ATOMIC_RELAXED);
    if (k < MAX_EXAMPLES) {
        struct example *e = &d->r->ex[k];
        e->pc = d->pc;
        e->addr = vaddr;
        e->size = size;
        e->store = qemu_plugin_mem_is_store(info);
    }
}

static struct range *range_of(uint64_t pc)
{
    for (int i = 0; i < nranges; i++)
        if (pc >= ranges[i].lo && pc < ranges[i].hi)
            return &ranges[i];
    return NULL;
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    size_t n = qemu_plugin_tb_n_insns(tb);
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        uint64_t pc = qemu_plugin_insn_vaddr(insn);
        struct range *r = range_of(pc);
        if (!r)
            continue;
        struct insn_data *d = malloc(sizeof *d);
        if (!d)
            abort();
        d->r = r;
        d->pc = pc;
        __atomic_fetch_add(&r->insns, 1, __ATOMIC_RELAXED);
        qemu_plugin_register_vcpu_mem_cb(insn, on_access, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW, d);
    }
}

/* ---- Report ---------------------------------------------------------------- */

static void emit(FILE *f, const char *line)
{
    if (f)
        fputs(line, f);
    else
        qemu_plugin_outs(line);
}

static void on_exit_report(qemu_plugin_id_t id, void *userdata)
{
    (void)id;
    (void)userdata;
    FILE *f = NULL;
    if (out_path) {
        f = fopen(out_path, "w");
        if (!f)
            fprintf(stderr, "misalign plugin: cannot write %s; reporting to the QEMU log\n", out_path);
    }
    char line[256];
    uint64_t accesses = 0, misaligned = 0;
    for (int i = 0; i < nranges; i++) {
        struct range *r = &ranges[i];
        snprintf(line, sizeof line,
                 "range %s 0x%" PRIx64 " 0x%" PRIx64 " insns %" PRIu64 " accesses %" PRIu64 " misaligned %" PRIu64
                 "\n",
                 r->name, r->lo, r->hi, r->insns, r->accesses, r->misaligned);
        emit(f, line);
        for (uint64_t k = 0; k < r->misaligned && k < MAX_EXAMPLES; k++) {
            snprintf(line, sizeof line, "example %s pc 0x%" PRIx64 " %s %u at 0x%" PRIx64 "\n", r->name,
                     r->ex[k].pc, r->ex[k].store ? "store" : "load", r->ex[k].size, r->ex[k].addr);
            emit(f, line);
        }
        accesses += r->accesses;
        misaligned += r->misaligned;
    }
    snprintf(line, sizeof line, "total accesses %" PRIu64 " misaligned %" PRIu64 "\n", accesses, misaligned);
    emit(f, line);
    if (f)
        fclose(f);
}

/* ---- Installation ----------------------------------------------------------- */

/* "LO:HI[:NAME]" with LO < HI in hexadecimal. */
static int parse_range(const char *v, struct range *r)
{
    char *end;
    r->lo = strtoull(v, &end, 16);
    if (*end != ':')
        return -1;
    r->hi = strtoull(end + 1, &end, 16);
    if ((*end != ':' && *end != '\0') || r->hi <= r->lo)
        return -1;
    snprintf(r->name, sizeof r->name, "%s", *end == ':' ? end + 1 : "unnamed");
    return 0;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
    (void)info;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "range=", 6) == 0) {
            if (nranges == MAX_RANGES || parse_range(a + 6, &ranges[nranges]) != 0) {
                fprintf(stderr, "misalign plugin: bad or too many ranges at '%s' (want range=LO:HI[:NAME], hex)\n",
                        a);
                return -1;
            }
            nranges++;
        } else if (strncmp(a, "out=", 4) == 0) {
            out_path = a + 4;
        } else {
            fprintf(stderr, "misalign plugin: unknown argument '%s' (range=LO:HI[:NAME], out=FILE)\n", a);
            return -1;
        }
    }
    if (nranges == 0) {
        fprintf(stderr, "misalign plugin: no range= given: nothing to watch\n");
        return -1;
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
    qemu_plugin_register_atexit_cb(id, on_exit_report, NULL);
    return 0;
}
