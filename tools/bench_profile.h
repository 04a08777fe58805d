/* altmem bench --profile (tools/bench_profile.c). */
#ifndef ALTMEM_TOOLS_BENCH_PROFILE_H
#define ALTMEM_TOOLS_BENCH_PROFILE_H

/* argv: the bench's arguments (after "bench"), --profile FILE|none among them. */
int altmem_bench_profile_main(const char *exe, int argc, char **argv);

#endif
