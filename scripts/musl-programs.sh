#!/usr/bin/env bash
# Real programs linked statically against musl, with and without altmem (issue 22,
# item 1).  A static program cannot be reached by LD_PRELOAD; musl's x86_64
# memcpy/memset are `rep movsq`/`rep stosq` after aligning and its memmove a
# backward `rep movsb` or a jump to memcpy: the slow C-library routines that people
# link altmem for, so this is where altmem should pay.  Each program given is built
# with -O2 -static three ways:
#
#   musl          musl-gcc (Debian musl-tools)
#   musl+altmem   the same objects, musl-gcc, libaltmem-libc.a of a musl build of
#                 altmem linked whole (-Wl,--whole-archive ... -Wl,--no-whole-archive,
#                 as docs/dropin.md and tests/dropin/static.sh do)
#   glibc         the program compiled again with gcc, gcc -static (glibc's libc.a)
#
# and then, per program:
#   - nm: in musl+altmem, memcpy/memmove/memset are each defined once, at the address
#     of altmem_memcpy/... (altmem's entry stubs); in musl and glibc no altmem symbol;
#   - the three builds' outputs of the workload are byte for byte equal;
#   - the share of the work done in memcpy/memmove/memset, in each build, found by
#     address (the link map's sections of the objects that hold them, every
#     implementation: musl's, altmem's stubs and variants, glibc's):
#       instructions, callgrind: independent of the machine's load; but valgrind
#         presents a CPU without AVX-512 (altmem and glibc pick their AVX2 code
#         there), and a `rep movs`/`rep stos` counts one instruction per iteration:
#         per 8 bytes in musl's memcpy, per byte in a `rep movsb`.  Not time: musl's
#         memcpy shows a few percent of the instructions and a quarter of the time;
#       CPU time, perf cpu-clock samples (when perf can sample here): the native
#         routines; a sampling estimate (the sample counts are printed), and on a
#         loaded machine the shared caches still change it a little;
#   - `altmem compare --cmd-b`: musl vs musl+altmem and glibc vs musl+altmem, RUNS
#     interleaved pairs each (ABBA), wall time.  The speed-up is always the other
#     build's time / musl+altmem's time: above 1, musl+altmem is faster.
#
#   scripts/musl-programs.sh [OPTIONS] [--lua DIR] [--yyjson DIR] [--lz4 DIR] [--sqlite DIR]
#
#   --lua DIR       Lua 5.4 source (a release's DIR/src or the git tree: lua.c, lua.h)
#   --yyjson DIR    yyjson source (DIR/src/yyjson.c)
#   --lz4 DIR       lz4 source (DIR/lib/lz4.c, DIR/programs/lz4cli.c)
#   --sqlite DIR    SQLite: an amalgamation (sqlite3.c, shell.c) or SQLite's own
#                   source tree (tool/mksqlite3c.tcl, configure; needs tclsh: the
#                   amalgamation is then made in the work directory)
#   --build DIR     a native altmem build whose tools/altmem runs the comparisons
#                   (default: build, beside this script's directory)
#   --altmem-libc FILE
#                   libaltmem-libc.a built for musl (default: WORK/altmem-musl, built
#                   from this repository with cmake/toolchains/x86_64-linux-musl.cmake
#                   when absent, one job)
#   --work DIR      builds, data, reports (kept and reused; default: a new directory
#                   in $TMPDIR, removed at the end); not inside this repository
#   --no-callgrind  skip the instruction counts
#   --no-perf       skip the time shares (skipped anyway when perf, Debian package
#                   linux-perf, is missing or cannot sample here)
#   --no-compare    skip the timed comparisons
#
#   RUNS            pairs per comparison (default 30: 10 pairs cannot resolve 5-10%)
#   COMPARE_ARGS    more options for altmem compare, word-split (e.g. "--until 2");
#                   with --runs or --until in it, RUNS is not passed
#   SCALE           workload size in percent of the default (default 100: each run
#                   takes about 0.3-1.2 s on a 2020s x86_64 core)
#
# Nothing is downloaded: fetch the sources yourself, outside this repository.  The
# workloads are the programs' ordinary use on inputs generated here,
# deterministically (a fixed pseudo-random generator), not loops written for altmem:
#   lua     a text-processing script: a 6 MB log read whole, split into lines,
#           parsed with string.match, escaped with gsub, formatted to HTML and CSV
#           (string.format, table.concat), words counted, a report padded with
#           string.rep, a line wrapper, a string built piece by piece with ..
#   yyjson  a driver written here against yyjson's API: yyjson_read_file, a mutable
#           copy, edits of every record, yyjson_mut_write, on a 21 MB JSON
#           document, 4 times
#   lz4     the lz4 command line: compress (-1) a 157 MB corpus of text, JSON and
#           binary records, then decompress it (two runs of lz4 per run)
#   sqlite  the sqlite3 shell on :memory:: 30,000 inserts of text and blobs in a
#           transaction, indexes, aggregate and LIKE queries, updates, deletes,
#           a CREATE TABLE AS, VACUUM
#
# Output: the date, commit, CPU (lscpu), compilers, the load average, then one
# Markdown table row per program, then per program the nm check, the outputs and
# the shares by object.  Everything else (build logs, link maps, callgrind and perf
# data, altmem compare's reports) stays in the work directory.  Needs musl-gcc
# (musl-tools), gcc with glibc's libc.a (libc6-dev), nm (binutils), valgrind, cmake
# (for the musl altmem), a native altmem build (for the comparisons).  Exit status:
# 0 when every build linked as labelled, every output agreed and every measurement
# ran; 1 otherwise; 2 for bad arguments or a missing tool (one line on stderr).
#
# The whole script is in braces: bash reads it to the end before running any of it,
# so editing the file during a run (they take minutes) cannot change that run.
{
set -euo pipefail

me=musl-programs.sh
die() { echo "$me: $*" >&2; exit 2; }
usage() { sed -n '/^#   scripts\/musl-programs.sh/,/^#                   takes about/p' "$0" | sed 's/^# \{0,1\}//'; }

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$here/.." && pwd)
build=$src/build
altmem_libc=
work=
do_cg=1
do_perf=1
do_cmp=1
declare -A dir=()
order=()

[ $# -gt 0 ] || { usage >&2; die "no program given (--lua, --yyjson, --lz4, --sqlite)"; }
while [ $# -gt 0 ]; do
    case $1 in
    --lua|--yyjson|--lz4|--sqlite)
        [ $# -ge 2 ] && [ -n "$2" ] || die "$1 needs a directory"
        name=${1#--}
        [ -z "${dir[$name]:-}" ] || die "$1 given twice"
        [ -d "$2" ] || die "$1: $2: no such directory"
        dir[$name]=$(cd "$2" && pwd)
        order+=("$name")
        shift 2 ;;
    --build|--altmem-libc|--work)
        [ $# -ge 2 ] && [ -n "$2" ] || die "$1 needs an argument"
        case $1 in
        --build) build=$2 ;;
        --altmem-libc) altmem_libc=$2 ;;
        --work) work=$2 ;;
        esac
        shift 2 ;;
    --no-callgrind) do_cg=0; shift ;;
    --no-perf) do_perf=0; shift ;;
    --no-compare) do_cmp=0; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown argument '$1'" ;;
    esac
done
[ ${#order[@]} -gt 0 ] || die "no program given (--lua, --yyjson, --lz4, --sqlite)"

# ---- the source trees are what they say --------------------------------------------
lua_src=
if [ -n "${dir[lua]:-}" ]; then
    for d in "${dir[lua]}/src" "${dir[lua]}"; do
        [ -f "$d/lua.c" ] && [ -f "$d/lua.h" ] && { lua_src=$d; break; }
    done
    [ -n "$lua_src" ] && grep -q 'define LUA_VERSION_NUM[[:space:]]*50[45]' "$lua_src/lua.h" ||
        die "--lua ${dir[lua]}: not a Lua 5.4/5.5 source tree (no lua.c and lua.h with LUA_VERSION_NUM 504/505 in it or in src/)"
fi
if [ -n "${dir[yyjson]:-}" ]; then
    [ -f "${dir[yyjson]}/src/yyjson.c" ] && grep -q 'define YYJSON_VERSION_HEX' "${dir[yyjson]}/src/yyjson.h" 2>/dev/null ||
        die "--yyjson ${dir[yyjson]}: not a yyjson source tree (no src/yyjson.c, src/yyjson.h)"
fi
if [ -n "${dir[lz4]:-}" ]; then
    [ -f "${dir[lz4]}/lib/lz4.c" ] && [ -f "${dir[lz4]}/programs/lz4cli.c" ] ||
        die "--lz4 ${dir[lz4]}: not an lz4 source tree (no lib/lz4.c, programs/lz4cli.c)"
fi
sqlite_kind=
if [ -n "${dir[sqlite]:-}" ]; then
    if [ -f "${dir[sqlite]}/sqlite3.c" ] && [ -f "${dir[sqlite]}/shell.c" ] && [ -f "${dir[sqlite]}/sqlite3.h" ]; then
        sqlite_kind=amalgamation
    elif [ -f "${dir[sqlite]}/tool/mksqlite3c.tcl" ] && [ -f "${dir[sqlite]}/src/sqlite.h.in" ] &&
         [ -x "${dir[sqlite]}/configure" ]; then
        sqlite_kind=tree
    elif [ -f "${dir[sqlite]}/shell.c" ] && [ ! -f "${dir[sqlite]}/sqlite3.c" ]; then
        die "--sqlite ${dir[sqlite]}: an amalgamation without sqlite3.c (a git snapshot that lacks files of 4 MiB and more?): give SQLite's own source tree or a complete amalgamation"
    else
        die "--sqlite ${dir[sqlite]}: not SQLite (no sqlite3.c, sqlite3.h, shell.c; nor tool/mksqlite3c.tcl, src/sqlite.h.in, configure)"
    fi
fi

runs=${RUNS:-30}
[[ $runs =~ ^[1-9][0-9]*$ ]] || die "RUNS=$runs: not a positive number"
scale=${SCALE:-100}
[[ $scale =~ ^[1-9][0-9]*$ ]] || die "SCALE=$scale: not a positive number"
if [ -n "$work" ]; then
    work=$(realpath -m -- "$work")
    case "$work/" in
    "$src"/build*) ;;    # an ignored build directory of this tree is fine
    "$src"/*) die "--work $work: inside the repository's tree (use a directory outside it)" ;;
    esac
    [[ $work != *[[:space:]]* ]] || die "--work $work: the path must not contain blanks"
fi

# ---- tools ---------------------------------------------------------------------------
command -v musl-gcc >/dev/null || die "musl-gcc not found (Debian package musl-tools; scripts/install-deps.sh installs it)"
command -v gcc >/dev/null || die "gcc not found (Debian package build-essential)"
command -v nm >/dev/null || die "nm not found (Debian package binutils)"
if [ $do_cg = 1 ]; then
    command -v valgrind >/dev/null && command -v callgrind_annotate >/dev/null ||
        die "valgrind not found (Debian package valgrind; scripts/install-deps.sh installs it; or --no-callgrind)"
fi
perf_note=
if [ $do_perf = 1 ]; then
    if ! command -v perf >/dev/null; then
        do_perf=0 perf_note="perf not installed (Debian package linux-perf): no time shares"
    elif ! perf record -q -e cpu-clock -o /dev/null -- true >/dev/null 2>&1; then
        do_perf=0 perf_note="perf cannot sample cpu-clock here (perf_event_paranoid?): no time shares"
    fi
fi
altmem=
if [ $do_cmp = 1 ]; then
    [ -d "$build" ] || die "--build $build: no such directory (a native build of altmem; or --no-compare)"
    altmem=$(cd "$build" && pwd)/tools/altmem
    [ -x "$altmem" ] || die "$altmem not found (build the native tree first: cmake -S . -B build && cmake --build build; or --no-compare)"
fi
if [ -n "$altmem_libc" ]; then
    [ -f "$altmem_libc" ] || die "--altmem-libc $altmem_libc: no such file"
    altmem_libc=$(cd "$(dirname "$altmem_libc")" && pwd)/$(basename "$altmem_libc")
else
    command -v cmake >/dev/null || die "cmake not found (needed to build libaltmem-libc.a for musl; or --altmem-libc FILE)"
fi
if [ "$sqlite_kind" = tree ]; then
    command -v tclsh >/dev/null || die "--sqlite ${dir[sqlite]}: making the amalgamation needs tclsh (Debian package tcl)"
fi
read -r -a compare_args <<<"${COMPARE_ARGS:-}"
case " ${COMPARE_ARGS:-} " in
*" --runs"*|*" --until"*|*" --max-pairs"*) runs_args=() ;;
*) runs_args=(--runs "$runs") ;;
esac

if [ -n "$work" ]; then
    mkdir -p "$work"
else
    work=$(mktemp -d "${TMPDIR:-/tmp}/altmem-musl.XXXXXX")
    [[ $work != *[[:space:]]* ]] || { rmdir "$work"; die "TMPDIR=$TMPDIR: the path must not contain blanks"; }
    trap 'rm -rf "$work"' EXIT
fi
export LC_ALL=C
status=0
# What is measured is the tree as it is now (the musl altmem is built from it).
started=$(date -u '+%Y-%m-%d %H:%M UTC')
commit=$(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo '?')
[ -z "$(git -C "$src" status --porcelain --untracked-files=no 2>/dev/null)" ] || commit+=" (with uncommitted changes)"
log() { echo "$me: $*" >&2; }
mkdir -p "$work/data" "$work/tools"

# ---- altmem for musl -----------------------------------------------------------------
if [ -z "$altmem_libc" ]; then
    altmem_libc=$work/altmem-musl/src/preload/libaltmem-libc.a
    # Configured once; built every time (incremental), so that it is this tree's altmem.
    log "libaltmem-libc.a for musl: $work/altmem-musl (cmake, one job)"
    { [ -f "$work/altmem-musl/CMakeCache.txt" ] ||
        cmake -S "$src" -B "$work/altmem-musl" -DCMAKE_TOOLCHAIN_FILE="$src/cmake/toolchains/x86_64-linux-musl.cmake" \
            -DCMAKE_BUILD_TYPE=Release -DALTMEM_BUILD_TESTS=OFF -DALTMEM_BUILD_TOOLS=OFF -DALTMEM_NESTED=ON; } \
        >"$work/altmem-musl.log" 2>&1 &&
        cmake --build "$work/altmem-musl" -j1 --target altmem_libc >>"$work/altmem-musl.log" 2>&1 ||
        { tail -n 20 "$work/altmem-musl.log" >&2; die "building libaltmem-libc.a for musl failed (log: $work/altmem-musl.log)"; }
fi

# musl-gcc and gcc must both link a static program.
printf 'int main(void) { return 0; }\n' >"$work/tools/trivial.c"
musl-gcc -static "$work/tools/trivial.c" -o "$work/tools/trivial-musl" 2>/dev/null ||
    die "musl-gcc cannot link a static program (Debian package musl-dev)"
gcc -static "$work/tools/trivial.c" -o "$work/tools/trivial-glibc" 2>/dev/null ||
    die "gcc -static cannot link (glibc's libc.a: Debian package libc6-dev)"

# put FILE < text: FILE replaced only when the text differs (its date then says when
# it last changed, and what was built from it is kept).
put() { cat >"$1.new"; if cmp -s "$1.new" "$1"; then rm -f "$1.new"; else mv -f "$1.new" "$1"; fi; }

# ---- the data: a generator of our own, so that the inputs are the same everywhere ---------
put "$work/tools/gen.c" <<'EOF'
/* Deterministic inputs for scripts/musl-programs.sh (xorshift64*, fixed seeds).
 *   gen log BYTES | json BYTES | sql ROWS | bin BYTES     (to stdout) */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t s = 0x9e3779b97f4a7c15u;
static uint64_t rnd(void) { s ^= s >> 12; s ^= s << 25; s ^= s >> 27; return s * 2685821657736338717u; }
static unsigned below(unsigned n) { return (unsigned)((rnd() >> 33) % n); }
static long written; /* bytes written by this run (stdout may be shared with others) */
static void P(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    written += vprintf(fmt, ap);
    va_end(ap);
}

/* A vocabulary of pseudo-words from syllables; drawn with a skew, as in text. */
enum { V = 6000 };
static char vocab[V][16];
static void make_vocab(void) {
    static const char *syl[] = { "an", "ber", "co", "da", "el", "fi", "gar", "ho", "in", "ju", "ka", "lo", "men",
                                 "nor", "o", "pe", "qua", "ri", "sto", "tu", "u", "ve", "wis", "xe", "y", "zen",
                                 "th", "ing", "ed", "ly", "er", "st" };
    for (int i = 0; i < V; i++) {
        int n = 1 + (int)below(4);
        vocab[i][0] = 0;
        for (int k = 0; k < n; k++) strcat(vocab[i], syl[below(sizeof syl / sizeof *syl)]);
    }
}
static const char *word(void) { double u = (double)(rnd() >> 11) / 9007199254740992.0; return vocab[(int)(V * u * u * u)]; }
static void sentence(int words, int quote) {
    for (int i = 0; i < words; i++) {
        const char *w = word();
        if (i) P(" ");
        if (quote && below(40) == 0) P(quote == 2 ? "it''s " : "<b>");
        if (i == 0 && !quote) P("%c%s", w[0] - 32, w + 1); else P("%s", w);
        if (below(12) == 0) P(",");
    }
}
static const char *levels[] = { "INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR" };
static const char *actions[] = { "login", "logout", "view", "edit", "upload", "search", "delete", "export" };

static void gen_log(long bytes) {
    long t = 1700000000;
    while (written < bytes) {
        t += below(3);
        P("2024-%02u-%02uT%02ld:%02ld:%02ld.%03uZ %s user=%s%u action=%s ", 1 + below(12), 1 + below(28),
               (t / 3600) % 24, (t / 60) % 60, t % 60, below(1000), levels[below(6)], word(), below(100),
               actions[below(8)]);
        sentence(3 + (int)below(below(4) ? 12 : 60), 1);
        if (below(5) == 0) P(" path=/srv/%s/%s/%u.dat bytes=%u", word(), word(), below(100000), below(1u << 20));
        P("\n");
    }
}

static void gen_json(long bytes) {
    P("[\n");
    for (unsigned id = 0;; id++) {
        const char *first = word(), *last = word();
        P("{\"id\":%u,\"guid\":\"%08x-%04x-%04x-%012llx\",\"name\":\"%s %s\",\"email\":\"%s.%s@%s.com\","
               "\"active\":%s,\"score\":%u.%03u,\"age\":%u,\"tags\":[",
               id, (unsigned)rnd(), below(65536), below(65536), (unsigned long long)(rnd() >> 16), first, last, first,
               last, word(), below(2) ? "true" : "false", below(1000), below(1000), 18 + below(60));
        for (unsigned k = 0, n = below(8); k < n; k++) P("%s\"%s\"", k ? "," : "", word());
        P("],\"address\":{\"street\":\"%u %s street\",\"city\":\"%s\",\"zip\":\"%05u\"},\"about\":\"",
               1 + below(999), word(), word(), below(100000));
        sentence(5 + (int)below(below(3) ? 30 : 150), 0);
        if (below(10) == 0) P(" \\\"quoted\\\"\\n caf\\u00e9");
        P("\",\"friends\":[");
        for (unsigned k = 0, n = below(6); k < n; k++) P("%s{\"id\":%u,\"name\":\"%s %s\"}", k ? "," : "", below(100000), word(), word());
        P("],\"history\":[");
        for (unsigned k = 0, n = below(20); k < n; k++) P("%s%u", k ? "," : "", below(100000));
        P("]}");
        if (written >= bytes) break;
        P(",\n");
    }
    P("\n]\n");
}

static void gen_sql(long rows) {
    P("CREATE TABLE docs(id INTEGER PRIMARY KEY, title TEXT, author TEXT, body TEXT, tags TEXT, data BLOB);\n"
           "BEGIN;\n");
    for (long i = 0; i < rows; i++) {
        P("INSERT INTO docs(title, author, body, tags, data) VALUES('");
        sentence(2 + (int)below(8), 2);
        P("', '%s %s', '", word(), word());
        sentence(10 + (int)below(below(4) ? 60 : 400), 2);
        P("', '%s,%s,%s', X'", word(), word(), word());
        for (unsigned k = 0, n = 16 + below(below(4) ? 200 : 2000); k < n; k++) P("%02x", k % 7 ? below(256) : 0u);
        P("');\n");
    }
    P("COMMIT;\n"
           "CREATE INDEX docs_author ON docs(author);\n"
           "CREATE INDEX docs_title ON docs(title);\n"
           "SELECT author, count(*), sum(length(body)) FROM docs GROUP BY author ORDER BY 3 DESC, 1 LIMIT 20;\n"
           "SELECT count(*) FROM docs WHERE body LIKE '%%ber%%an%%';\n"
           "SELECT id, substr(title, 1, 30), length(data) FROM docs WHERE title > 'k' ORDER BY title LIMIT 50;\n"
           "UPDATE docs SET body = body || ' ' || upper(title), tags = replace(tags, ',', ';') WHERE id %% 3 = 0;\n"
           "UPDATE docs SET data = data || substr(data, 1, 100) WHERE id %% 5 = 0;\n"
           "DELETE FROM docs WHERE id %% 7 = 0;\n"
           "CREATE TABLE summary AS SELECT author, group_concat(substr(title, 1, 20), '|') AS titles,\n"
           "       sum(length(body)) AS bytes FROM docs GROUP BY author;\n"
           "SELECT count(*), sum(bytes), max(length(titles)) FROM summary;\n"
           "VACUUM;\n"
           "SELECT count(*), sum(length(body)), sum(length(data)), sum(length(tags)) FROM docs;\n"
           "SELECT hex(substr(data, 1, 8)), substr(body, 10, 40) FROM docs ORDER BY author, id LIMIT 20;\n");
}

/* Binary records: fixed-size structs with small, slowly changing fields. */
static void gen_bin(long bytes) {
    struct { uint32_t seq, t; uint16_t kind, len; int32_t val[5]; char tag[8]; } r = { 0 };
    for (long n = 0; n < bytes; n += (long)sizeof r) {
        r.seq++; r.t += below(50); r.kind = (uint16_t)below(5); r.len = (uint16_t)below(1500);
        for (int k = 0; k < 5; k++) r.val[k] += (int32_t)below(9) - 4;
        memcpy(r.tag, word(), sizeof r.tag);
        fwrite(&r, sizeof r, 1, stdout); /* (binary: not through P) */
    }
}

int main(int argc, char **argv) {
    if (argc != 3) return 2;
    long n = atol(argv[2]);
    make_vocab();
    static char buf[1 << 16];
    setvbuf(stdout, buf, _IOFBF, sizeof buf);
    if (!strcmp(argv[1], "log")) gen_log(n);
    else if (!strcmp(argv[1], "json")) gen_json(n);
    else if (!strcmp(argv[1], "sql")) gen_sql(n);
    else if (!strcmp(argv[1], "bin")) gen_bin(n);
    else return 2;
    return fflush(stdout) ? 1 : 0;
}
EOF

put "$work/tools/bench.lua" <<'EOF'
-- Text processing in plain Lua (scripts/musl-programs.sh): a log file read whole,
-- split into lines, parsed with string.match, escaped with gsub, formatted into an
-- HTML table and a CSV report (string.format, table.concat), words counted per
-- word and per user, a fixed-width summary padded with string.rep, and a string
-- built piece by piece with `..` as much Lua code does.   lua bench.lua LOG ROUNDS
local path, rounds = arg[1], tonumber(arg[2] or "1")
local f = assert(io.open(path, "rb"))
local text = f:read("a")
f:close()
local esc = { ["<"] = "&lt;", [">"] = "&gt;", ["&"] = "&amp;", ['"'] = "&quot;" }
local results = {}
for round = 1, rounds do
  local rows, csv, users, words = {}, {}, {}, {}
  for line in text:gmatch("[^\n]+") do
    local ts, level, user, action, msg = line:match("^(%S+) (%u+) user=(%w+) action=(%w+) (.*)$")
    if ts then
      rows[#rows + 1] = string.format('<tr><td>%s</td><td class="%s">%s</td><td>%s</td><td>%s</td></tr>',
                                      ts, level:lower(), level, user, (msg:gsub('[<>&"]', esc)))
      csv[#csv + 1] = table.concat({ ts:sub(1, 10), level, user, action, #msg }, ",")
      local u = users[user]
      if not u then
        u = { n = 0, bytes = 0, last = "" }
        users[user] = u
      end
      u.n, u.bytes, u.last = u.n + 1, u.bytes + #msg, msg:sub(1, 40)
    end
  end
  for w in text:gmatch("%a+") do
    local k = w:lower()
    words[k] = (words[k] or 0) + 1
  end
  local html = "<table>\n" .. table.concat(rows, "\n") .. "\n</table>\n"
  local report = table.concat(csv, "\n")
  local names = {}
  for name in pairs(users) do names[#names + 1] = name end
  table.sort(names)
  local lines = {}
  for _, name in ipairs(names) do
    local u = users[name]
    lines[#lines + 1] = name .. string.rep(" ", 24 - #name) .. string.rep(".", u.n % 40) ..
                        string.format(" %6d %9d ", u.n, u.bytes) .. u.last:upper()
  end
  local summary = table.concat(lines, "\n")
  local top = {}
  for w, n in pairs(words) do top[#top + 1] = { w, n } end
  table.sort(top, function(a, b) return a[2] > b[2] or (a[2] == b[2] and a[1] < b[1]) end)
  local s = ""
  for i = 1, math.min(#top, 3000) do s = s .. top[i][1] .. "=" .. top[i][2] .. "; " end
  -- wrap the first 400 kB of text at 72 columns
  local wrapped, col = {}, 0
  for w in text:sub(1, 400000):gmatch("%S+") do
    if col + #w > 72 then wrapped[#wrapped + 1] = "\n"; col = 0 end
    wrapped[#wrapped + 1] = w .. " "
    col = col + #w + 1
  end
  local wrap = table.concat(wrapped)
  results[#results + 1] = string.format("round %d: html %d csv %d summary %d top %d wrap %d lines %d users %d words %d",
                                        round, #html, #report, #summary, #s, #wrap, #rows, #names, #top)
end
print(table.concat(results, "\n"))
EOF

put "$work/tools/yyjson_rw.c" <<'EOF'
/* A yyjson user's round trip (scripts/musl-programs.sh): read a JSON file, copy it
 * into a mutable document, edit every record (a new upper-case name, the e-mail's
 * domain replaced, a tag added, a summary cut from a text, a score changed, a key
 * removed), write it out, ROUNDS times.       yyjson_rw FILE ROUNDS > out.json */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "yyjson.h"

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: yyjson_rw FILE ROUNDS\n"); return 2; }
    int rounds = atoi(argv[2]);
    char buf[512];
    for (int r = 0; r < rounds; r++) {
        yyjson_read_err err;
        yyjson_doc *doc = yyjson_read_file(argv[1], 0, NULL, &err);
        if (!doc) { fprintf(stderr, "yyjson_rw: %s at byte %zu\n", err.msg, err.pos); return 1; }
        yyjson_mut_doc *m = yyjson_doc_mut_copy(doc, NULL);
        yyjson_doc_free(doc);
        if (!m) return 1;
        yyjson_mut_arr_iter it = yyjson_mut_arr_iter_with(yyjson_mut_doc_get_root(m));
        yyjson_mut_val *rec;
        while ((rec = yyjson_mut_arr_iter_next(&it))) {
            yyjson_mut_val *v = yyjson_mut_obj_get(rec, "name");
            if (yyjson_mut_is_str(v)) {
                size_t n = yyjson_mut_get_len(v);
                const char *s = yyjson_mut_get_str(v);
                if (n > sizeof buf) n = sizeof buf;
                for (size_t i = 0; i < n; i++) buf[i] = (char)toupper((unsigned char)s[i]);
                yyjson_mut_obj_put(rec, yyjson_mut_str(m, "display_name"), yyjson_mut_strncpy(m, buf, n));
            }
            v = yyjson_mut_obj_get(rec, "email");
            if (yyjson_mut_is_str(v)) {
                const char *s = yyjson_mut_get_str(v), *at = strchr(s, '@');
                size_t n = at ? (size_t)(at - s) : strlen(s);
                if (n > sizeof buf - 32) n = sizeof buf - 32;
                memcpy(buf, s, n);
                memcpy(buf + n, "@example.org", 12);
                yyjson_mut_obj_put(rec, yyjson_mut_str(m, "email"), yyjson_mut_strncpy(m, buf, n + 12));
            }
            v = yyjson_mut_obj_get(rec, "tags");
            if (yyjson_mut_is_arr(v)) yyjson_mut_arr_add_strcpy(m, v, r & 1 ? "reviewed" : "imported");
            v = yyjson_mut_obj_get(rec, "about");
            if (yyjson_mut_is_str(v)) {
                const char *s = yyjson_mut_get_str(v);
                size_t n = yyjson_mut_get_len(v);
                if (n > 80) for (n = 80; n > 0 && (s[n] & 0xc0) == 0x80; n--) {} /* whole UTF-8 characters */
                yyjson_mut_obj_put(rec, yyjson_mut_str(m, "summary"), yyjson_mut_strncpy(m, s, n));
            }
            v = yyjson_mut_obj_get(rec, "score");
            if (yyjson_mut_is_num(v))
                yyjson_mut_obj_put(rec, yyjson_mut_str(m, "score"), yyjson_mut_real(m, yyjson_mut_get_num(v) * 1.5 + r));
            yyjson_mut_obj_remove_key(rec, "guid");
        }
        size_t len;
        yyjson_write_err werr;
        char *out = yyjson_mut_write_opts(m, r & 1 ? YYJSON_WRITE_PRETTY : 0, NULL, &len, &werr);
        if (!out) { fprintf(stderr, "yyjson_rw: %s\n", werr.msg); return 1; }
        fwrite(out, 1, len, stdout);
        free(out);
        yyjson_mut_doc_free(m);
    }
    return fflush(stdout) ? 1 : 0;
}
EOF

[ "$work/tools/gen" -nt "$work/tools/gen.c" ] || gcc -O2 -o "$work/tools/gen" "$work/tools/gen.c" ||
    die "compiling the input generator failed"
data=$work/data
# Data sets are reused from a kept work directory only if made by this generator at this SCALE.
stamp="$(sha256sum <"$work/tools/gen.c" | cut -c1-16) scale=$scale"
if [ "$(cat "$data/stamp" 2>/dev/null)" != "$stamp" ]; then
    rm -rf "$data"
    mkdir -p "$data"
    echo "$stamp" >"$data/stamp"
fi
mb() { echo $(( $1 * scale * 1048576 / 100 )); }
need_data() {
    case $1 in
    lua) [ -s "$data/log.txt" ] || "$work/tools/gen" log "$(mb 6)" >"$data/log.txt" ;;
    yyjson) [ -s "$data/doc.json" ] || "$work/tools/gen" json "$(mb 20)" >"$data/doc.json" ;;
    sqlite) [ -s "$data/work.sql" ] || "$work/tools/gen" sql $(( 300 * scale )) >"$data/work.sql" ;;
    lz4)
        if [ ! -s "$data/corpus" ]; then
            { "$work/tools/gen" log "$(mb 60)"; "$work/tools/gen" json "$(mb 45)"; "$work/tools/gen" bin "$(mb 45)"; } >"$data/corpus"
        fi ;;
    esac
}

# ---- builds ---------------------------------------------------------------------------
# compile NAME FLAVOUR(musl|glibc) -> objects in $work/NAME/obj-FLAVOUR, listed in objs
compile() {
    local name=$1 flavour=$2 cc=gcc d=$work/$1/obj-$2 f o
    [ "$flavour" = musl ] && cc=musl-gcc
    mkdir -p "$d"
    objs=()
    local cflags=(-O2) files=()
    case $name in
    lua)
        cflags+=(-std=gnu99 -DLUA_COMPAT_5_3 -DLUA_USE_POSIX)
        for f in "$lua_src"/*.c; do
            case ${f##*/} in luac.c|onelua.c|ltests.c|lbitlib.c) continue ;; esac
            files+=("$f")
        done ;;
    yyjson)
        cflags+=(-I"${dir[yyjson]}/src")
        files=("${dir[yyjson]}/src/yyjson.c" "$work/tools/yyjson_rw.c") ;;
    lz4)
        # Single-threaded, as lz4 1.9 and as a benchmark on a shared machine wants
        # (lz4 1.10's Makefile adds -DLZ4IO_MULTITHREAD when it finds pthreads).
        cflags+=(-I"${dir[lz4]}/lib")
        for f in "${dir[lz4]}"/lib/*.c "${dir[lz4]}"/programs/*.c; do files+=("$f"); done ;;
    sqlite)
        # The shell (sqlite3.c and shell.c, as sqlite.org's "how to compile" has it),
        # without extension loading (no dlopen in a static program), single-threaded.
        cflags+=(-DSQLITE_OMIT_LOAD_EXTENSION -DSQLITE_THREADSAFE=0 -I"$sqlite_dir")
        files=("$sqlite_dir/sqlite3.c" "$sqlite_dir/shell.c") ;;
    esac
    # Objects are reused only for the same sources (names, sizes, dates) and flags: a
    # `git archive` export keeps the commit's dates, which can be older than the objects.
    local stamp
    stamp="$cc ${cflags[*]} $(stat -c '%n %s %Y' "${files[@]}" | sha256sum | cut -c1-16)"
    if [ "$(cat "$d/stamp" 2>/dev/null)" != "$stamp" ]; then
        rm -f "$d"/*.o
        echo "$stamp" >"$d/stamp"
    fi
    for f in "${files[@]}"; do
        o=$d/$(basename "${f%.c}").o
        objs+=("$o")
        [ "$o" -nt "$f" ] && continue
        echo "+ $cc ${cflags[*]} -c $f -o $o"
        "$cc" "${cflags[@]}" -c "$f" -o "$o" || return 1
    done
}
build_program() {  # NAME: $work/NAME/NAME-{musl,musl-altmem,glibc}
    local name=$1 d=$work/$1 libs=()
    mkdir -p "$d"
    case $name in lua|yyjson|sqlite) libs=(-lm) ;; esac
    rm -f "$d/$name-musl" "$d/$name-musl-altmem" "$d/$name-glibc"
    {
        compile "$name" musl || return 1
        echo "+ musl-gcc -static (objects) ${libs[*]} -o $d/$name-musl"
        musl-gcc -static "${objs[@]}" "${libs[@]}" -o "$d/$name-musl" -Wl,-Map="$d/$name-musl.map" || return 1
        echo "+ musl-gcc -static (objects) -Wl,--whole-archive $altmem_libc -Wl,--no-whole-archive ${libs[*]} -o $d/$name-musl-altmem"
        musl-gcc -static "${objs[@]}" -Wl,--whole-archive "$altmem_libc" -Wl,--no-whole-archive "${libs[@]}" \
            -o "$d/$name-musl-altmem" -Wl,-Map="$d/$name-musl-altmem.map" || return 1
        compile "$name" glibc || return 1
        echo "+ gcc -static (objects) ${libs[*]} -o $d/$name-glibc"
        gcc -static "${objs[@]}" "${libs[@]}" -o "$d/$name-glibc" -Wl,-Map="$d/$name-glibc.map"
    } >"$d/build.log" 2>&1
}

# nm: memcpy/memmove/memset altmem's in musl+altmem, nobody else's altmem.
check_nm() {  # NAME -> nm_verdict
    local name=$1 d=$work/$1 r b bad=0 defs addr alt n verdict
    nm_verdict=
    nm "$d/$name-musl-altmem" >"$d/nm.musl-altmem"
    # One definition of each, at altmem_<name>'s address (scripts/dropin-nm.sh).
    sh "$here/dropin-nm.sh" "$d/$name-musl-altmem" >"$d/nm.check" || bad=1
    while read -r verdict r defs addr alt; do
        if [ "$verdict" = ok ]; then
            nm_verdict+="$r=altmem_$r "
        else
            nm_verdict+="$r NOT altmem's ($defs definitions, at $addr, altmem_$r at $alt) "
        fi
    done <"$d/nm.check"
    n=$(awk '$NF ~ /^altmem_/' "$d/nm.musl-altmem" | wc -l)
    nm_verdict+="($n altmem_* symbols); "
    for b in musl glibc; do
        nm "$d/$name-$b" >"$d/nm.$b"
        n=$(awk '$NF ~ /altmem/' "$d/nm.$b" | wc -l)
        defs=$(awk '$NF == "memcpy" { print $2 }' "$d/nm.$b")
        if [ "$n" -eq 0 ] && [ -n "$defs" ]; then
            nm_verdict+="$b: its own memcpy ($defs), no altmem symbol; "
        else
            nm_verdict+="$b: $n altmem symbols, memcpy '${defs:-undefined}' (WRONG); "
            bad=1
        fi
    done
    return $bad
}

# The workload: steps NAME sets nsteps; step NAME I sets STEP (arguments after the program).
steps() {
    case $1 in lz4) nsteps=2 ;; *) nsteps=1 ;; esac
}
step() {
    case $1:$2 in
    lua:0) STEP=("$work/tools/bench.lua" "$data/log.txt" 1) ;;
    yyjson:0) STEP=("$data/doc.json" 4) ;;
    lz4:0) STEP=(-1 -q -c "$data/corpus") ;;
    lz4:1) STEP=(-d -q -c "$data/corpus.lz4") ;;
    sqlite:0) STEP=(:memory: ".read $data/work.sql") ;;
    esac
}
describe() {
    case $1 in
    lua) echo "\`lua bench.lua log.txt 1\` ($(size_of "$data/log.txt") log: match, gsub, format, concat, rep)" ;;
    yyjson) echo "\`yyjson_rw doc.json 4\` (read, mutable copy, edit, write a $(size_of "$data/doc.json") document, 4 times)" ;;
    lz4) echo "\`lz4 -1 -c corpus\`, then \`lz4 -d -c corpus.lz4\` ($(size_of "$data/corpus") of text, JSON, binary records)" ;;
    sqlite) echo "\`sqlite3 :memory: '.read work.sql'\` ($(grep -c '^INSERT' "$data/work.sql") inserts of text and blobs, index, queries, updates, VACUUM)" ;;
    esac
}
size_of() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf(b < 1e7 ? "%.1f MB" : "%.0f MB", b / 1e6) }'; }

# The command that altmem compare times, for build B: the binary itself, or for
# several steps a shell script running them in turn.
command_for() {  # NAME BUILD -> cmd array
    local name=$1 b=$2 i w=$work/$1/run-$2
    steps "$name"
    if [ "$nsteps" -eq 1 ]; then
        step "$name" 0
        cmd=("$work/$name/$name-$b" "${STEP[@]}")
        return
    fi
    {
        echo '#!/bin/sh'
        echo 'set -e'
        for ((i = 0; i < nsteps; i++)); do
            step "$name" $i
            printf '%q ' "$work/$name/$name-$b" "${STEP[@]}"
            echo
        done
    } >"$w"
    chmod +x "$w"
    cmd=("$w")
}

# The three builds' outputs must agree (and each run must succeed).
check_outputs() {  # NAME -> out_verdict
    local name=$1 b i sums=() rc
    out_verdict=
    steps "$name"
    for b in musl musl-altmem glibc; do
        local all=
        for ((i = 0; i < nsteps; i++)); do
            step "$name" $i
            rc=0
            all+=$("$work/$name/$name-$b" "${STEP[@]}" 2>"$work/$name/stderr.$b.$i" | sha256sum | cut -c1-16) || rc=$?
            [ $rc -eq 0 ] || { out_verdict="$b failed (exit $rc; $work/$name/stderr.$b.$i)"; return 1; }
            all+=" "
        done
        sums+=("$all")
    done
    if [ "${sums[0]}" = "${sums[1]}" ] && [ "${sums[0]}" = "${sums[2]}" ]; then
        out_verdict="outputs equal (sha256 ${sums[0]% })"
    else
        out_verdict="OUTPUTS DIFFER: musl ${sums[0]}, musl+altmem ${sums[1]}, glibc ${sums[2]}"
        return 1
    fi
}

# callgrind: instructions in memcpy/memmove/memset.  They are found by address, not
# by name (musl's are assembly without symbol sizes, which valgrind does not name;
# altmem's variants have local helpers such as "large"): the address ranges of the
# .text input sections, in the build's link map, of the objects that hold them --
# musl's memcpy.lo, memmove.lo, memset.lo (and mempcpy, bzero); glibc's memcpy.o,
# memmove-*.o, memset-*.o, mem*_chk.o; altmem's memcpy_*.c.o, memmove_*.c.o,
# memset_*.c.o, entry.S.o (the entry stubs) and preload.c.o (mempcpy, the _chk forms,
# bzero, ... in terms of the three).
memobj='^((memcpy|memmove|memset|mempcpy|bzero|explicit_bzero)[.]l?o|(memcpy|memmove|memset|mempcpy)[-_][a-z0-9_-]+[.]o|mem(cpy|move|set)_[a-z0-9]+[.]c[.]o|entry[.]S[.]o|preload[.]c[.]o)$'
hexfn='function hex(s,   i, v) { v = 0; s = tolower(s); sub(/^0x/, "", s)
           for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
           return v }'
mem_ranges() {  # MAP -> "START END MEMBER" per section (decimal addresses)
    awk -v re="$memobj" "$hexfn"'
        function emit(a, s, f,   m) {
            if (f !~ /\)$/ || hex(s) == 0 || hex(a) == 0) return
            m = f; sub(/^.*\(/, "", m); sub(/\)$/, "", m)
            if (m ~ re) print hex(a), hex(a) + hex(s), m
        }
        /^Linker script and memory map/ { go = 1; next }
        !go { next }
        $1 ~ /^\.text/ { if (NF == 1) { pending = 1; next } pending = 0; if (NF >= 4) emit($2, $3, $4); next }
        pending && NF == 3 && $1 ~ /^0x/ { emit($1, $2, $3) }
        { pending = 0 }' "$1"
}
callgrind() {  # NAME BUILD -> cg_share cg_detail
    local name=$1 b=$2 i f d=$work/$1
    steps "$name"
    [ -s "$d/ranges.$b" ] || { cg_share=failed; cg_detail="no memcpy/memmove/memset object in $d/$name-$b.map"; return 1; }
    : >"$d/cg.$b.costs"
    for ((i = 0; i < nsteps; i++)); do
        step "$name" $i
        f=$d/cg.$b.$i.out
        # --smc-check=all: altmem patches its entry stubs in the program's text.
        # Per instruction, uncompressed addresses: cost lines are "0xADDR COST".
        valgrind --tool=callgrind --smc-check=all --dump-instr=yes --dump-line=no --compress-pos=no \
            --callgrind-out-file="$f" "$d/$name-$b" "${STEP[@]}" >/dev/null 2>"$d/cg.$b.$i.log" ||
            { cg_share=failed; cg_detail="valgrind failed: $d/cg.$b.$i.log"; return 1; }
        # Self cost: every cost line but the one after calls= (a call's inclusive cost).
        awk "$hexfn"'
            BEGIN { n = 0 }
            FNR == NR { lo[n] = $1 + 0; hi[n] = $2 + 0; lab[n] = $3; n++; next }
            /^positions:/ { np = NF - 1 }
            /^calls=/ { call = 1; next }
            /^0x/ { if (call) { call = 0; next }
                    a = hex($1); c = $(np + 1); total += c
                    for (i = 0; i < n; i++) if (a >= lo[i] && a < hi[i]) { by[lab[i]] += c; break }
                    next }
            /^summary:/ { summary = $2 }
            END { printf "TOTAL %.0f %s\n", total, summary; for (m in by) printf "%s %.0f\n", m, by[m] }' "$d/ranges.$b" "$f" >>"$d/cg.$b.costs"
    done
    read -r cg_share cg_detail < <(awk '
        $1 == "TOTAL" { total += $2; if ($3 != "" && $3 != $2) bad = 1; next }
        { mem += $2; by[$1] += $2 }
        END {
            n = 0; for (f in by) { names[++n] = f }
            for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (by[names[j]] > by[names[i]]) { t = names[i]; names[i] = names[j]; names[j] = t }
            d = sprintf("%.4g~of~%.4g~G~Ir", mem / 1e9, total / 1e9)
            for (i = 1; i <= n && i <= 4; i++) d = d sprintf(";~%s~%.2f%%", names[i], 100 * by[names[i]] / total)
            if (bad) d = d ";~(the~self~costs~do~not~add~up~to~the~summary:~a~parse~error)"
            printf "%.1f%% %s\n", 100 * mem / total, d
        }' "$d/cg.$b.costs")
    cg_detail=${cg_detail//\~/ }
}

# perf (when it works here): the share of the program's CPU time (user and kernel)
# in memcpy/memmove/memset, from cpu-clock samples at $perf_hz Hz, classified by the
# same address ranges.  A software timer, so it needs no hardware counters (a KVM
# guest often has none); it counts only while the program runs, but on a loaded
# machine shared caches still change what it sees.
perf_hz=4999
perf_share() {  # NAME BUILD -> pf_share pf_detail
    local name=$1 b=$2 i f d=$work/$1
    steps "$name"
    [ -s "$d/ranges.$b" ] || { pf_share=failed; pf_detail="no memcpy/memmove/memset object in $d/$name-$b.map"; return 1; }
    : >"$d/perf.$b.ips"
    for ((i = 0; i < nsteps; i++)); do
        step "$name" $i
        f=$d/perf.$b.$i.data
        perf record -q -e cpu-clock -F $perf_hz -o "$f" -- "$d/$name-$b" "${STEP[@]}" >/dev/null 2>"$d/perf.$b.$i.log" &&
            perf script -i "$f" -F ip >>"$d/perf.$b.ips" 2>>"$d/perf.$b.$i.log" ||
            { pf_share=failed; pf_detail="perf failed: $d/perf.$b.$i.log"; return 1; }
    done
    read -r pf_share pf_detail < <(awk -v hz=$perf_hz "$hexfn"'
        BEGIN { n = 0 }
        FNR == NR { lo[n] = $1 + 0; hi[n] = $2 + 0; lab[n] = $3; n++; next }
        NF == 1 { a = hex($1); total++
                  for (i = 0; i < n; i++) if (a >= lo[i] && a < hi[i]) { by[lab[i]]++; mem++; break } }
        END {
            k = 0; for (f in by) { names[++k] = f }
            for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (by[names[j]] > by[names[i]]) { t = names[i]; names[i] = names[j]; names[j] = t }
            d = sprintf("%d~of~%d~samples~(%.0f~of~%.0f~ms~CPU)", mem, total, 1000 * mem / hz, 1000 * total / hz)
            for (i = 1; i <= k && i <= 4; i++) d = d sprintf(";~%s~%.1f%%", names[i], 100 * by[names[i]] / total)
            if (total == 0) { print "failed no~samples"; exit }
            printf "%.1f%% %s\n", 100 * mem / total, d
        }' "$d/ranges.$b" "$d/perf.$b.ips")
    pf_detail=${pf_detail//\~/ }
    [ "$pf_share" != failed ]
}

# altmem compare: A = the other build, B = musl+altmem.
compare() {  # NAME A-BUILD TAG -> cmp_cell cmp_pairs cmp_verdict
    local name=$1 a=$2 rep=$work/$1/compare.$3.report b_cmd
    command_for "$name" musl-altmem
    b_cmd=${cmd[0]}
    command_for "$name" "$a"
    local l0
    l0=$(cut -d' ' -f1-3 /proc/loadavg)
    "$altmem" compare "${runs_args[@]}" "${compare_args[@]}" --no-stdin --cmd-b "$b_cmd" -- "${cmd[@]}" \
        >/dev/null 2>"$rep" || true
    echo "load average before: $l0" >>"$rep"
    if ! grep -q '^result:' "$rep"; then
        cmp_cell="failed: see $rep"; cmp_pairs=-; cmp_verdict=-
        return 1
    fi
    read -r cmp_cell cmp_pairs cmp_verdict < <(awk '
        /^  A  / { a = $2 " " $3 } /^  B  / { b = $2 " " $3 }
        /^result:/ { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
        END {
            verdict = v["distinguishable"] == "yes" ? (v["ratio"] > 1 ? "musl+altmem~faster" : "musl+altmem~slower") : "not~distinguishable"
            if (v["stopped"] == "width")
                verdict = "no~difference~above~" v["until"] "%"
            if (v["failed_runs"] > 0) verdict = verdict "~(" v["failed_runs"] "~failed~runs)"
            gsub(" ", "~", a); gsub(" ", "~", b)
            printf "%.3fx~[%.3f..%.3f]~(%s~/~%s) %s %s\n", v["ratio"], v["lo"], v["hi"], a, b, v["pairs"], verdict
        }' "$rep")
    cmp_cell=${cmp_cell//\~/ }
    cmp_verdict=${cmp_verdict//\~/ }
    cmp_load=$(sed -n 's/.*load average \([0-9. ]*\) after the runs.*/\1/p' "$rep")
}

# ---- run --------------------------------------------------------------------------------
if [ -n "${dir[sqlite]:-}" ]; then
    if [ "$sqlite_kind" = amalgamation ]; then
        sqlite_dir=${dir[sqlite]}
    else
        sqlite_dir=$work/sqlite/amalgamation
        if [ ! -s "$sqlite_dir/sqlite3.c" ]; then
            # SQLite's own tree: configure and `make sqlite3.c shell.c` (tclsh) in a copy.
            # A git export has no fossil manifest: a minimal one (the version's date)
            # lets the source-id step run.
            log "making the SQLite amalgamation in $sqlite_dir"
            rm -rf "$sqlite_dir"
            mkdir -p "$sqlite_dir"
            cp -r "${dir[sqlite]}/." "$sqlite_dir/"
            [ -f "$sqlite_dir/manifest" ] || printf 'D 2000-01-01T00:00:00.000\n' >"$sqlite_dir/manifest"
            [ -f "$sqlite_dir/manifest.uuid" ] || printf '0000000000000000000000000000000000000000\n' >"$sqlite_dir/manifest.uuid"
            mkdir -p "$sqlite_dir/test"
            (cd "$sqlite_dir" && ./configure --disable-tcl && make -j1 sqlite3.c shell.c) >"$work/sqlite/amalgamation.log" 2>&1 ||
                { tail -n 20 "$work/sqlite/amalgamation.log" >&2; die "--sqlite: making the amalgamation failed (log: $work/sqlite/amalgamation.log)"; }
        fi
    fi
fi

declare -A row=() details=()
for name in "${order[@]}"; do
    log "$name: data, builds (one job; log: $work/$name/build.log)"
    need_data "$name"
    if ! build_program "$name"; then
        tail -n 20 "$work/$name/build.log" >&2
        row[$name]="| $name | build failed: see $work/$name/build.log |$(printf ' - |%.0s' {1..11})"
        status=1
        continue
    fi
    if [ "$name" = lz4 ] && [ ! -s "$data/corpus.lz4" ]; then
        "$work/lz4/lz4-glibc" -1 -q -c "$data/corpus" >"$data/corpus.lz4"
    fi
    nm_ok=1
    check_nm "$name" || { nm_ok=0; status=1; }
    out_ok=1
    check_outputs "$name" || { out_ok=0; status=1; }
    details[$name]="- $name: nm: $nm_verdict"$'\n'"  $out_verdict"
    cg=("-" "-" "-") pf=("-" "-" "-")
    i=0
    for b in musl musl-altmem glibc; do
        mem_ranges "$work/$name/$name-$b.map" >"$work/$name/ranges.$b"
        if [ $do_cg = 1 ]; then
            log "$name: callgrind, $b"
            callgrind "$name" "$b" || status=1
            cg[i]=$cg_share
            details[$name]+=$'\n'"  callgrind $b: mem* $cg_share of instructions: $cg_detail"
        fi
        if [ $do_perf = 1 ]; then
            log "$name: perf, $b"
            perf_share "$name" "$b" || status=1
            pf[i]=$pf_share
            details[$name]+=$'\n'"  perf $b: mem* $pf_share of CPU time: $pf_detail"
        fi
        i=$((i + 1))
    done
    c1=("-" "-" "-") c2=("-" "-" "-") load=-
    if [ $do_cmp = 1 ] && [ $nm_ok = 1 ] && [ $out_ok = 1 ]; then
        log "$name: altmem compare, musl vs musl+altmem"
        compare "$name" musl musl || status=1
        c1=("$cmp_cell" "$cmp_pairs" "$cmp_verdict")
        log "$name: altmem compare, glibc vs musl+altmem"
        compare "$name" glibc glibc || status=1
        c2=("$cmp_cell" "$cmp_pairs" "$cmp_verdict")
        load=${cmp_load:--}
    fi
    linked=yes
    [ $nm_ok = 1 ] || linked=NO
    [ $out_ok = 1 ] || linked+=", outputs differ"
    row[$name]="| $name | $(describe "$name") | ${cg[0]} / ${pf[0]} | ${cg[1]} / ${pf[1]} | ${cg[2]} / ${pf[2]} | $linked | ${c1[0]} | ${c1[1]} | ${c1[2]} | ${c2[0]} | ${c2[1]} | ${c2[2]} | $load |"
done

# ---- report -----------------------------------------------------------------------------
cpu=$(lscpu 2>/dev/null | awk -F': *' '/^Model name/ { m = $2 } /^CPU family/ { f = $2 } /^Model:/ { mo = $2 } /^Stepping/ { s = $2 }
                                   END { printf "%s (family %s model %s stepping %s)", m, f, mo, s }')
echo
echo "musl-programs.sh: $started to $(date -u '+%H:%M UTC'), commit $commit at the start; $(nproc) CPUs: $cpu"
echo "musl $(dpkg-query -W -f='${Version}' musl-dev 2>/dev/null || echo '?'), $(gcc --version | head -n 1), glibc $(getconf GNU_LIBC_VERSION 2>/dev/null | cut -d' ' -f2); -O2 -static"
echo "libaltmem-libc.a: $altmem_libc"
if [ $do_cmp = 1 ]; then
    echo "altmem compare ${runs_args[*]}${compare_args[*]:+ ${compare_args[*]}} --no-stdin --cmd-b PROG-musl-altmem -- PROG-{musl,glibc} ARGS > /dev/null ($altmem)"
fi
echo "load average now: $(cut -d' ' -f1-3 /proc/loadavg); work directory: $work"
echo
echo "mem* share: of the instructions (callgrind) / of the CPU time (perf cpu-clock samples) spent in memcpy/memmove/memset.  Speed-up: the other build's time / musl+altmem's time (above 1: musl+altmem faster), Hodges-Lehmann estimate [95% CI] of wall time; in brackets the median wall times (other / musl+altmem)."
[ -z "$perf_note" ] || echo "$perf_note"
echo
echo "| program | workload | mem* share musl (instr. / time) | musl+altmem | glibc static | altmem linked (nm) | musl+altmem vs musl: speed-up [95% CI] | pairs | verdict | musl+altmem vs glibc static: speed-up [95% CI] | pairs | verdict | load average after (1 5 15 min) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for name in "${order[@]}"; do echo "${row[$name]}"; done
echo
for name in "${order[@]}"; do [ -z "${details[$name]:-}" ] || echo "${details[$name]}"; done
exit $status
}
