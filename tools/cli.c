/*
 * altmem — the command-line tool.  Each subcommand is one row of subcommands[]
 * below, its main in a file of its own (tools/<name>.c; bench's in bench/;
 * version's and help's, one statement each, here); this file only dispatches.
 * Adding one: docs/architecture.md, "Adding a subcommand".
 */
#include <altmem.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "compare.h"
#include "index.h"
#include "info.h"
#include "run.h"
#include "tune.h"

/* Every row's main takes the path the program was run by (self) and the
   subcommand's own arguments, argv[0] being its name.  The mains written
   before that convention are adapted here. */
static int bench_main(const char *self, int argc, char **argv)
{
    (void)self;
    return altmem_bench_main(argc, argv);
}

/* tune re-runs this program in child processes: /proc/self/exe, whatever
   path it was run by. */
static int tune_main(const char *self, int argc, char **argv)
{
    (void)self;
    return altmem_tune_main("/proc/self/exe", argc, argv);
}

static int index_main(const char *self, int argc, char **argv)
{
    (void)self;
    return altmem_index_main(argc, argv);
}

static int version_main(const char *self, int argc, char **argv)
{
    (void)self, (void)argc, (void)argv;
    printf("altmem %s\n", ALTMEM_VERSION_STRING);
    return 0;
}

static int help_main(const char *self, int argc, char **argv);

static const struct subcommand {
    const char *name;
    const char *alias[2];  /* other words that run it ("--version"), or NULL */
    const char *synopsis;  /* its line of the usage, after "altmem " */
    int (*main)(const char *self, int argc, char **argv);
} subcommands[] = {
    {"info", {NULL, NULL}, "info", altmem_info_main},
    {"bench", {NULL, NULL}, "bench [--help | options]", bench_main},
    {"run", {NULL, NULL}, "run [--] CMD [ARGS...]", altmem_run_main},
    {"tune", {NULL, NULL}, "tune [--quick | --thorough] [--print | --write | --output FILE]", tune_main},
    {"index", {NULL, NULL}, "index [--help | options]", index_main},
    {"compare", {NULL, NULL}, "compare [--help | options] [--] CMD [ARGS...]", altmem_compare_main},
    {"version", {"--version", NULL}, "version | --version", version_main},
    {"help", {"--help", "-h"}, "help [SUBCOMMAND]    (altmem SUBCOMMAND --help: its options)", help_main},
};
#define SUBCOMMAND_COUNT (sizeof subcommands / sizeof subcommands[0])

static void usage(FILE *f)
{
    for (size_t i = 0; i < SUBCOMMAND_COUNT; i++)
        fprintf(f, "%s altmem %s\n", i ? "      " : "usage:", subcommands[i].synopsis);
    fprintf(f, "Environment: ALTMEM_TUNABLES, ALTMEM_PROFILE (see docs/tunables.md)\n");
}

/* The row that word runs, or NULL. */
static const struct subcommand *find_subcommand(const char *word)
{
    for (size_t i = 0; i < SUBCOMMAND_COUNT; i++) {
        const struct subcommand *c = &subcommands[i];
        if (!strcmp(word, c->name) || (c->alias[0] && !strcmp(word, c->alias[0])) ||
            (c->alias[1] && !strcmp(word, c->alias[1])))
            return c;
    }
    return NULL;
}

static int run_subcommand(const char *self, int argc, char **argv)
{
    const struct subcommand *c = find_subcommand(argv[0]);
    if (!c) {
        fprintf(stderr, "altmem: unknown command '%s'\n", argv[0]);
        usage(stderr);
        return 2;
    }
    return c->main(self, argc, argv);
}

/* `altmem help SUBCOMMAND` is `altmem SUBCOMMAND --help`; help and version
   have no usage of their own but the program's. */
static int help_main(const char *self, int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[0], "help") != 0 || !strcmp(argv[1], "help") || !strcmp(argv[1], "version")) {
        usage(stdout);
        return 0;
    }
    char *help_argv[] = {argv[1], (char *)"--help", NULL};
    return run_subcommand(self, 2, help_argv);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    return run_subcommand(argv[0], argc - 1, argv + 1);
}
