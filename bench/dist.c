/*
 * Size (and alignment) distributions for `altmem bench --dist`: the built-in
 * ones, from published measurements, and the parser for user-supplied files
 * in the same format (docs/performance.md, "Size distributions").
 *
 * Format, one item per line, '#' starts a comment:
 *   sizes: SIZE:WEIGHT SIZE:WEIGHT ...      sizes in bytes, relative weights
 *   src_align: ALIGN:WEIGHT ...             (optional) the source offset is a
 *   dst_align: ALIGN:WEIGHT ...             multiple of ALIGN (1 = any byte)
 * Every key may repeat; weights are positive integers.
 */
#include "dist.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * SPEC CPU2017: the sizes of memcpy calls below 4096 bytes and the alignment of
 * their arguments, and the sizes and alignment of memset calls, as counted
 * and published with glibc's benchtests (benchtests/bench-memcpy-random.c,
 * "Frequency data for memcpy of less than 4096 bytes based on SPEC2017";
 * benchtests/bench-memset-random.c for memset) and with ARM
 * optimized-routines (string/bench/memcpy.c, memset.c).  The figures are
 * theirs; the tables are rewritten here in this file's format, sorted by size.
 * Weights sum to 65536 (sizes) and 1024 (alignments).
 */
static const char spec2017_memcpy[] =
    "# memcpy calls in SPEC CPU2017 below 4096 bytes (glibc benchtests, ARM optimized-routines)\n"
    "sizes: 0:4 1:298 2:649 3:326 4:2159 5:475 6:334 7:461 8:8915 9:361 10:361 11:197 12:1608\n"
    "sizes: 13:173 14:40 15:185 16:9554 17:57 18:80 19:68 20:49 21:17 22:46 23:78 24:1343 25:41\n"
    "sizes: 26:15 27:35 28:47 29:32 30:8 31:14 32:22320 33:12 34:8 35:33 36:19 37:2 38:2 39:2\n"
    "sizes: 40:77 41:1 42:2 43:1 44:15 45:1 46:2 47:1 48:63 49:1 50:1 51:1 52:6 53:1 54:1\n"
    "sizes: 55:1 56:37 57:1 58:1 59:1 60:9 61:1 62:11 63:1 64:250 65:1 66:1 67:1 68:187 70:2\n"
    "sizes: 72:54 74:1 75:1 76:3 78:1 79:1 80:30 82:1 84:2 85:1 86:1 87:1 88:14 90:1 92:1\n"
    "sizes: 94:1 96:10 98:1 100:1 104:96 108:460 111:1 112:6 114:1 116:1 117:1 120:661 122:1\n"
    "sizes: 124:9 128:10 136:9 144:813 152:5327 160:115 168:5 176:13 184:17 192:184 200:3 208:11\n"
    "sizes: 216:2 224:1 232:22 240:3 248:1 256:16 264:2 272:1 273:7 280:1 284:721 288:96\n"
    "sizes: 292:2035 296:194 312:3 324:10 328:2 336:6 344:6 352:1 360:1 376:1 384:33 392:1\n"
    "sizes: 408:1 424:5 440:1 456:1 464:308 472:1 480:8 488:1 496:1 504:5 512:3 520:7 536:2\n"
    "sizes: 552:1 560:126 568:1 576:1 584:1 640:45 648:1 664:1 672:2 680:1 696:1 704:10 720:1\n"
    "sizes: 760:1 776:1 792:1 808:1 824:1 880:1 882:550 884:733 960:3 968:1 984:1 1024:12\n"
    "sizes: 1032:1 1088:1 1144:83 1152:895 1280:51 1288:1 1344:8 1608:2 1764:183 2048:303 2688:1\n"
    "sizes: 4095:22\n"
    "src_align: 1:18 2:14 4:79 8:300 16:292 32:168 64:153\n"
    "dst_align: 1:13 2:10 4:90 8:265 16:263 32:174 64:209\n";

static const char spec2017_memset[] =
    "# memset calls in SPEC CPU2017 below 4096 bytes (glibc benchtests, ARM optimized-routines)\n"
    "sizes: 0:118 1:86 2:200 3:124 4:192 5:22 6:59 7:49 8:1412 9:124 10:130 11:539 12:613\n"
    "sizes: 13:160 14:174 15:180 16:3823 17:50 18:21 20:295 22:27 23:2 24:3454 25:2 26:2 28:120\n"
    "sizes: 32:15336 36:144 40:28817 44:13 48:927 52:16 56:151 59:1 60:17 64:140 68:23 72:233\n"
    "sizes: 76:11 80:54 84:3 88:380 92:1 96:6 104:90 108:414 112:5 120:64 128:12 136:9 144:4\n"
    "sizes: 152:10 156:3 160:12 164:11 168:5 172:1 176:1 184:5 192:13 196:1 200:18 204:1 208:1\n"
    "sizes: 212:1 216:2 220:1 224:3 228:1 232:5 236:1 240:2 244:3 248:74 252:4 256:37 260:23\n"
    "sizes: 264:2 272:1 280:3 284:493 288:110 292:1202 296:3545 304:2 312:271 320:1 328:2 336:15\n"
    "sizes: 344:1 352:1 360:2 368:1 376:1 384:60 392:1 408:1 424:1 440:3 456:1 472:1 488:7\n"
    "sizes: 496:1 504:1 512:63 520:47 528:1 536:1 544:1 552:1 560:6 568:1 584:1 592:1 600:1\n"
    "sizes: 616:1 632:1 640:1 648:1 664:1 680:1 696:1 704:2 712:1 720:1 728:1 736:1 744:1\n"
    "sizes: 760:1 776:1 792:1 808:1 824:1 832:76 864:33 880:1 952:5 960:3 1016:6 1024:69 1032:1\n"
    "sizes: 1088:3 1096:2 1104:2 1112:1 1152:96 1192:1 1280:1 1440:28 1664:2 1752:1 1816:1\n"
    "sizes: 2008:1 2040:1 2048:39 2056:24 2064:12 2072:1 2088:1 2120:18 2136:1 2144:1 2520:1\n"
    "sizes: 2880:1 2928:1 3392:1 3440:1 3512:1 3600:1 3808:3 4072:1 4095:133\n"
    "dst_align: 1:23 2:5 4:72 8:307 16:338 32:148 64:131\n";

const struct bench_builtin_dist bench_builtin_dists[] = {
    {"spec2017", "SPEC CPU2017's memcpy and memset calls below 4 KiB (sizes and alignments), as published "
                 "with glibc's benchtests",
     spec2017_memcpy, spec2017_memset},
};
const size_t bench_builtin_dist_count = sizeof bench_builtin_dists / sizeof bench_builtin_dists[0];

/* ---- Parsing -------------------------------------------------------------- */

static int add_pair(struct bench_dist_table *t, unsigned long v, unsigned long w)
{
    if (t->n == BENCH_DIST_MAX)
        return -1;
    t->value[t->n] = (uint32_t)v;
    t->total += w;
    t->cum[t->n] = t->total;
    t->n++;
    return 0;
}

int bench_dist_parse(const char *text, struct bench_dist *out, char *err, size_t errlen)
{
    memset(&out->sizes, 0, sizeof out->sizes);
    memset(&out->src_align, 0, sizeof out->src_align);
    memset(&out->dst_align, 0, sizeof out->dst_align);
    unsigned line = 0;
    for (const char *p = text; *p;) {
        const char *end = strchr(p, '\n');
        if (!end)
            end = p + strlen(p);
        line++;
        char buf[4096];
        size_t len = (size_t)(end - p);
        if (len >= sizeof buf) {
            snprintf(err, errlen, "line %u: longer than %zu characters", line, sizeof buf - 1);
            return -1;
        }
        memcpy(buf, p, len);
        buf[len] = '\0';
        p = *end ? end + 1 : end;
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = '\0';
        char *s = buf;
        while (*s == ' ' || *s == '\t' || *s == '\r')
            s++;
        if (!*s)
            continue;
        struct bench_dist_table *t = &out->sizes;
        char *colon = strchr(s, ':');
        char *space = strpbrk(s, " \t");
        if (colon && (!space || colon < space) && colon[1] != '\0' && (colon[1] == ' ' || colon[1] == '\t')) {
            *colon = '\0';
            if (!strcmp(s, "sizes"))
                t = &out->sizes;
            else if (!strcmp(s, "src_align"))
                t = &out->src_align;
            else if (!strcmp(s, "dst_align"))
                t = &out->dst_align;
            else {
                snprintf(err, errlen, "line %u: unknown key '%.40s' (sizes, src_align, dst_align)", line, s);
                return -1;
            }
            s = colon + 1;
        }
        for (char *tok = strtok(s, " \t\r,"); tok; tok = strtok(NULL, " \t\r,")) {
            char *e;
            errno = 0;
            unsigned long v = strtoul(tok, &e, 10);
            if (e == tok || *e != ':' || errno || v > (1ul << 30)) {
                snprintf(err, errlen, "line %u: '%.40s' is not VALUE:WEIGHT (value up to 1 GiB)", line, tok);
                return -1;
            }
            char *w0 = e + 1;
            unsigned long w = strtoul(w0, &e, 10);
            if (e == w0 || *e || errno || w == 0 || w > (1ul << 30)) {
                snprintf(err, errlen, "line %u: '%.40s': the weight must be a positive integer", line, tok);
                return -1;
            }
            if ((t != &out->sizes) && (v == 0 || (v & (v - 1)) || v > 4096)) {
                snprintf(err, errlen, "line %u: alignment %lu is not a power of two up to 4096", line, v);
                return -1;
            }
            if (add_pair(t, v, w)) {
                snprintf(err, errlen, "line %u: more than %d entries", line, BENCH_DIST_MAX);
                return -1;
            }
        }
    }
    if (out->sizes.n == 0) {
        snprintf(err, errlen, "no sizes (a line 'sizes: SIZE:WEIGHT ...')");
        return -1;
    }
    return 0;
}

int bench_dist_load(const char *spec, int memset_like, struct bench_dist *out, char *err, size_t errlen)
{
    for (size_t i = 0; i < bench_builtin_dist_count; i++) {
        if (!strcmp(spec, bench_builtin_dists[i].name)) {
            snprintf(out->name, sizeof out->name, "%s", spec);
            return bench_dist_parse(memset_like ? bench_builtin_dists[i].memset_text : bench_builtin_dists[i].memcpy_text,
                                    out, err, errlen);
        }
    }
    FILE *f = fopen(spec, "r");
    if (!f) {
        snprintf(err, errlen, "'%s' is neither a built-in distribution nor a readable file: %s", spec,
                 strerror(errno));
        return -1;
    }
    static char text[1 << 20];
    size_t n = fread(text, 1, sizeof text - 1, f);
    int bad = ferror(f) || !feof(f);
    fclose(f);
    if (bad) {
        snprintf(err, errlen, "'%s': read error or larger than 1 MiB", spec);
        return -1;
    }
    text[n] = '\0';
    const char *base = strrchr(spec, '/');
    snprintf(out->name, sizeof out->name, "%s", base ? base + 1 : spec);
    return bench_dist_parse(text, out, err, errlen);
}

uint32_t bench_dist_draw(const struct bench_dist_table *t, uint64_t r, uint32_t dflt)
{
    if (t->n == 0)
        return dflt;
    uint64_t x = r % t->total;
    size_t lo = 0, hi = t->n - 1;
    while (lo < hi) {          /* first entry whose cumulative weight exceeds x */
        size_t mid = (lo + hi) / 2;
        if (t->cum[mid] > x)
            hi = mid;
        else
            lo = mid + 1;
    }
    return t->value[lo];
}

double bench_dist_mean(const struct bench_dist_table *t)
{
    double s = 0;
    uint64_t prev = 0;
    for (size_t i = 0; i < t->n; i++) {
        s += (double)t->value[i] * (double)(t->cum[i] - prev);
        prev = t->cum[i];
    }
    return t->total ? s / (double)t->total : 0;
}
