/* The machine as `altmem index` and `altmem compare` describe it: tools/machine.h. */
#define _GNU_SOURCE
#include "machine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The value after "key<tabs>: " on the first line of /proc/cpuinfo that has it. */
static int cpuinfo_field(const char *text, const char *key, char *out, size_t len)
{
    size_t klen = strlen(key);
    for (const char *line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
        if (strncmp(line, key, klen) || (line[klen] != '\t' && line[klen] != ' ' && line[klen] != ':'))
            continue;
        const char *colon = strchr(line, ':');
        const char *eol = strchr(line, '\n');
        if (!colon || (eol && colon > eol))
            continue;
        colon++;
        while (*colon == ' ')
            colon++;
        size_t n = eol ? (size_t)(eol - colon) : strlen(colon);
        snprintf(out, len, "%.*s", (int)n, colon);
        return 0;
    }
    return -1;
}

void machine_cpu_model(char *buf, size_t len)
{
    static char text[16384];
    size_t got = 0;
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        /* The first processor's block is all that is needed. */
        got = fread(text, 1, sizeof text - 1, f);
        fclose(f);
    }
    text[got] = '\0';
    char model[160] = "", fam[16] = "", mod[16] = "", step[16] = "";
    if (cpuinfo_field(text, "model name", model, sizeof model) != 0)
        cpuinfo_field(text, "cpu model", model, sizeof model);   /* loongarch, mips */
    cpuinfo_field(text, "cpu family", fam, sizeof fam);
    cpuinfo_field(text, "model", mod, sizeof mod);
    cpuinfo_field(text, "stepping", step, sizeof step);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (!model[0])
        snprintf(model, sizeof model, "unknown model");
    if (fam[0])
        snprintf(buf, len, "%s (family %s model %s stepping %s), %ld online CPUs", model, fam, mod, step, cpus);
    else
        snprintf(buf, len, "%s, %ld online CPUs", model, cpus);
}

int machine_emulator(char *buf, size_t len)
{
    char path[64], exe[4096];
    snprintf(path, sizeof path, "/proc/thread-self/exe");
    ssize_t n = readlink(path, exe, sizeof exe - 1);
    if (n < 0) {
        /* kernels before 3.17 have no thread-self */
        snprintf(path, sizeof path, "/proc/self/task/%ld/exe", (long)syscall(SYS_gettid));
        n = readlink(path, exe, sizeof exe - 1);
    }
    if (n <= 0)
        return 0;
    exe[n] = '\0';
    const char *base = strrchr(exe, '/');
    base = base ? base + 1 : exe;
    if (strncmp(base, "qemu-", 5))
        return 0;
    snprintf(buf, len, "%s", exe);
    return 1;
}

void machine_load(char *buf, size_t len)
{
    double l[3];
    if (getloadavg(l, 3) == 3)
        snprintf(buf, len, "%.2f %.2f %.2f", l[0], l[1], l[2]);
    else
        snprintf(buf, len, "unknown");
}

