/* altmem tune (tools/tune.c; its measuring child, tools/tune_child.c). */
#ifndef ALTMEM_TOOLS_TUNE_H
#define ALTMEM_TOOLS_TUNE_H

/* argv[0] is "tune"; exe: this program's path (the measuring children run it). */
int altmem_tune_main(const char *exe, int argc, char **argv);
int altmem_tune_child(int argc, char **argv);
/* The system profile's path (a build-time setting: ALTMEM_PROFILE_PATH). */
const char *altmem_tune_profile_path(void);

#endif
