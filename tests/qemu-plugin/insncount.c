/*
 * A QEMU TCG plugin that counts the guest instructions executed between the
 * hits of a marker function: the cost measure of scripts/qemu-cost.sh
 * (bench/qemucost.c calls the marker before and after each measured loop).
 *
 *   qemu-<arch> -plugin libaltmem-insncount.so[,mark=SYMBOL][,out=FILE] prog args
 *
 * Every instruction adds one to a counter (an inline add, before it runs),
 * except the marker's own instructions: when the marker's first instruction
 * runs, the counter's value is recorded.  The report, to FILE or else to
 * QEMU's log (-d plugin), is one line per hit and a summary:
 *
 *   hit INDEX COUNT
 *   marks HITS at 0xADDR insns TOTAL
 *
 * so hit 2i+1 minus hit 2i is what ran between two marks, the marker itself
 * excluded: the same quantity the one-instruction-per-TB exec log gives
 * (qemu-cost.sh counts its lines between two lines of the marker's address).
 * The marker is found by the symbol qemu reads from the program's ELF symbol
 * table (default altmem_cost_mark); a stripped program has none, and then
 * the report says "marks 0".
 *
 * The plugin API is declared here, not included: Debian's qemu packages ship no
 * qemu-plugin.h (the same approach as misalign.c, docs/arch-notes.md).  The
 * declarations follow QEMU 7.2's plugin API version 1 (the inline operation
 * enum, the exec-callback signature, qemu_plugin_insn_symbol); QEMU refuses a
 * plugin built for a version it does not support.  One vCPU is assumed (the
 * driver is single-threaded).
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
struct qemu_plugin_tb;
struct qemu_plugin_insn;
struct qemu_info_t;

enum qemu_plugin_cb_flags {
    QEMU_PLUGIN_CB_NO_REGS,
    QEMU_PLUGIN_CB_R_REGS,
    QEMU_PLUGIN_CB_RW_REGS,
};

enum qemu_plugin_op {
    QEMU_PLUGIN_INLINE_ADD_U64,
};

typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
const char *qemu_plugin_insn_symbol(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn, qemu_plugin_vcpu_udata_cb_t cb,
                                            enum qemu_plugin_cb_flags flags, void *userdata);
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn, enum qemu_plugin_op op, void *ptr,
                                                uint64_t imm);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *userdata);
void qemu_plugin_outs(const char *string);

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;
QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const struct qemu_info_t *info, int argc,
                                           char **argv);

/* ---- State ---------------------------------------------------------------- */

static uint64_t insns;        /* executed, the marker's excluded */
static uint64_t *hits;        /* the counter at each marker hit  */
static size_t nhits, cap;
static const char *mark_name = "altmem_cost_mark";
static const char *out_path;
static uint64_t mark_addr;    /* the marker's entry, once translated */
static int mark_addrs;        /* distinct entries seen (must be 1)   */

static void on_mark(unsigned int vcpu, void *userdata)
{
    (void)vcpu;
    (void)userdata;
    if (nhits == cap) {
        cap = cap ? cap * 2 : 4096;
        hits = realloc(hits, cap * sizeof *hits);
        if (!hits)
            abort();
    }
    hits[nhits++] = insns;
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    size_t n = qemu_plugin_tb_n_insns(tb);
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        const char *sym = qemu_plugin_insn_symbol(insn);
        if (sym && strcmp(sym, mark_name) == 0) {
            uint64_t pc = qemu_plugin_insn_vaddr(insn);
            /* The marker is one instruction long; a TB entering it anywhere but
               its start would be a different marker (reported, not guessed). */
            if (mark_addrs == 0 || pc != mark_addr) {
                mark_addr = pc;
                mark_addrs++;
            }
            qemu_plugin_register_vcpu_insn_exec_cb(insn, on_mark, QEMU_PLUGIN_CB_NO_REGS, NULL);
            continue;
        }
        qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64, &insns, 1);
    }
}

static void on_exit_report(qemu_plugin_id_t id, void *userdata)
{
    (void)id;
    (void)userdata;
    FILE *f = NULL;
    if (out_path) {
        f = fopen(out_path, "w");
        if (!f)
            fprintf(stderr, "insncount plugin: cannot write %s; reporting to the QEMU log\n", out_path);
    }
    char line[128];
    for (size_t i = 0; i < nhits; i++) {
        snprintf(line, sizeof line, "hit %zu %" PRIu64 "\n", i, hits[i]);
        if (f)
            fputs(line, f);
        else
            qemu_plugin_outs(line);
    }
    snprintf(line, sizeof line, "marks %zu at 0x%" PRIx64 " entries %d insns %" PRIu64 "\n", nhits, mark_addr,
             mark_addrs, insns);
    if (f) {
        fputs(line, f);
        fclose(f);
    } else {
        qemu_plugin_outs(line);
    }
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const struct qemu_info_t *info, int argc,
                                           char **argv)
{
    (void)info;
    for (int i = 0; i < argc; i++) {
        if (strncmp(argv[i], "mark=", 5) == 0 && argv[i][5]) {
            mark_name = argv[i] + 5;
        } else if (strncmp(argv[i], "out=", 4) == 0 && argv[i][4]) {
            out_path = argv[i] + 4;
        } else {
            fprintf(stderr, "insncount plugin: unknown argument '%s' (mark=SYMBOL, out=FILE)\n", argv[i]);
            return -1;
        }
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
    qemu_plugin_register_atexit_cb(id, on_exit_report, NULL);
    return 0;
}
