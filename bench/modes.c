/*
 * The table of `altmem bench`'s modes, made from bench/modes.def, and the
 * order their stages run in (bench_run.h, "Modes").
 */
#include "bench_run.h"

#include <stddef.h>
#include <string.h>

/* Each row's "chosen when", over the job and its options. */
#define BENCH_MODE(name, file, kind, chosen_when, parse, run, report)                                       \
    static int chosen_##name(const struct bench_job *job)                                                  \
    {                                                                                                      \
        const struct options *o = &job->o;                                                                 \
        (void)o;                                                                                           \
        return (chosen_when) != 0;                                                                         \
    }
#include "modes.def"
#undef BENCH_MODE

struct bench_mode {
    const char *name;
    enum bench_mode_kind kind;
    int (*chosen)(const struct bench_job *job);
    bench_mode_fn *stage[BENCH_STAGES]; /* NULL: none */
};

#define none NULL
static const struct bench_mode modes[] = {
#define BENCH_MODE(name, file, kind, chosen_when, parse, run, report)                                       \
    {#name, BENCH_##kind, chosen_##name, {parse, run, report}},
#include "modes.def"
#undef BENCH_MODE
};
#undef none

int bench_has_flag(const struct bench_job *job, const char *flag)
{
    for (int i = 1; i < job->argc; i++)
        if (!strcmp(job->argv[i], flag))
            return 1;
    return 0;
}

int bench_has_option(const struct bench_job *job, const char *option)
{
    size_t n = strlen(option);
    for (int i = 1; i < job->argc; i++)
        if (!strncmp(job->argv[i], option, n) && (job->argv[i][n] == '\0' || job->argv[i][n] == '='))
            return 1;
    return 0;
}

const struct bench_mode *bench_mode_chosen(const struct bench_job *job, enum bench_mode_kind kind)
{
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
        if (modes[i].kind == kind && modes[i].chosen(job))
            return &modes[i];
    return NULL;
}

int bench_mode_stages(const struct bench_mode *m, struct bench_job *job)
{
    int rc = BENCH_GO_ON;
    for (int s = 0; s < BENCH_STAGES && rc == BENCH_GO_ON; s++)
        if (m->stage[s])
            rc = m->stage[s](job);
    return rc == BENCH_GO_ON ? 0 : rc;
}

int bench_cells_stage(struct bench_job *job, enum bench_stage stage)
{
    int rc = BENCH_GO_ON;
    for (size_t i = 0; i < sizeof modes / sizeof modes[0] && rc == BENCH_GO_ON; i++)
        if (modes[i].kind == BENCH_CELLS && modes[i].stage[stage] && modes[i].chosen(job))
            rc = modes[i].stage[stage](job);
    return rc;
}
