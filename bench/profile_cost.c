/*
 * What reading the profile adds to start-up: the library's own reader and parser
 * (src/os/os_libc.c, src/profile.c) on a profile file, and on an absent one,
 * in-process, minimum of 21 rounds of 1000 (docs/tunables.md, "The profile").
 *   altmem-profile-cost PROFILE
 * Start-up pays this once per process; a process cannot time its own
 * constructor well, so this times the same calls.
 */
#include <stdio.h>

#include "benchlib.h"
#include "profile.h"
#include "select.h"
#include "tunables.h"
#include "os/os.h"

static char buf[ALTMEM__PROFILE_MAX];
static char *bufp = buf;
static struct altmem__tunables tun;

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: altmem-profile-cost PROFILE\n");
        return 2;
    }
    altmem_init();
    (void)altmem_nt_threshold();  /* settles: the cache sizes the cpu line names are read late */
    char why[256];
    size_t len = 0;
    double best_all = 1e18, best_parse = 1e18, best_absent = 1e18;
    int rc = 0, applied = 0;
    for (int round = 0; round < 21; round++) {
        double t0 = bench_now_ns();
        for (int i = 0; i < 1000; i++) {
            rc = altmem__os_read_file(argv[1], 0, &bufp, sizeof buf, &len);
            applied = rc == 0 && altmem__profile_parse(buf, len, &altmem__global.cpu, &tun, why, sizeof why);
        }
        double all = (bench_now_ns() - t0) / 1000;
        t0 = bench_now_ns();
        for (int i = 0; i < 1000; i++)
            altmem__profile_parse(buf, len, &altmem__global.cpu, &tun, why, sizeof why);
        double parse = (bench_now_ns() - t0) / 1000;
        t0 = bench_now_ns();
        for (int i = 0; i < 1000; i++)
            altmem__os_read_file("/nonexistent-altmem-dir/profile", 0, &bufp, sizeof buf, &len);
        double absent = (bench_now_ns() - t0) / 1000;
        best_all = all < best_all ? all : best_all;
        best_parse = parse < best_parse ? parse : best_parse;
        best_absent = absent < best_absent ? absent : best_absent;
    }
    if (rc != 0) {
        fprintf(stderr, "altmem-profile-cost: cannot read %s (%d)\n", argv[1], rc);
        return 1;
    }
    printf("%s (%zu bytes, %s): read + parse %.2f us, parse alone %.2f us; no file there %.2f us "
           "(minimum of 21 x 1000)\n",
           argv[1], len, applied ? "applies on this CPU" : "does not apply here", best_all / 1000,
           best_parse / 1000, best_absent / 1000);
    return 0;
}
