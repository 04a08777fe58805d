#!/bin/sh
# `altmem compare` on real, unmodified Debian programs (docs/index.md, "Real
# programs"): builds the data sets in a temporary directory, runs each program
# in RUNS interleaved pairs (C library / libaltmem-preload.so) and prints one
# Markdown table row per program, with the machine and its load.
#
#   scripts/real-programs.sh [BUILD_DIR] [WORK_DIR]
#
#   BUILD_DIR  a native build (default: build); its tools/altmem is used
#   WORK_DIR   where the data sets go (default: a new mktemp -d, removed after;
#              a given WORK_DIR is kept and its data sets reused)
#   RUNS       pairs per program (default 10)
#   UNTIL      adaptive instead: altmem compare --until UNTIL (percent) --max-pairs
#              MAX_PAIRS (default 100): pairs are added until the interval excludes 1
#              or lies within +-UNTIL%, with the error rate split over the looks
#              (docs/index.md, "Adaptive mode"); the table then has a pairs column
#   ONLY       space-separated names of the programs to run (default: all):
#              zstd lz4 sort python-mix python-big git-archive git-catfile
#              sqlite3 tar gzip dd
#   VARIANT    pin altmem's routines (altmem compare --variant)
#   SCALE      data-set size in percent of the default (default 100)
#   GLIBC_LIB  run every program under that C library: DIR/ld-linux-x86-64.so.2
#              --library-path DIR PROGRAM (DIR from scripts/newer-glibc.sh, e.g.
#              trixie's 2.41); both sides of each pair then run on it, the preload
#              included.  Programs that exec others (git) start those on the
#              system's C library.
#
# Needs zstd, lz4, git, sqlite3, python3, gzip, tar, dd (Debian 12:
# apt-get install zstd lz4 git sqlite3 python3; no test needs them, so
# scripts/install-deps.sh does not install zstd, lz4 or sqlite3).  Each program's full report goes to WORK_DIR/NAME.report.
set -eu

build=${1:-build}
altmem=$(cd "$build" && pwd)/tools/altmem
[ -x "$altmem" ] || { echo "real-programs.sh: $altmem not found (build the native tree first)" >&2; exit 2; }
src=$(cd "$(dirname "$0")/.." && pwd)
runs=${RUNS:-10}
only=${ONLY:-all}
scale=${SCALE:-100}
if [ $# -ge 2 ]; then
    work=$2
    mkdir -p "$work"
else
    work=$(mktemp -d /tmp/altmem-real.XXXXXX)
    trap 'rm -rf "$work"' EXIT
fi
if [ -n "${GLIBC_LIB:-}" ]; then
    [ -x "$GLIBC_LIB/ld-linux-x86-64.so.2" ] ||
        { echo "real-programs.sh: GLIBC_LIB=$GLIBC_LIB has no ld-linux-x86-64.so.2 (scripts/newer-glibc.sh prints such a directory)" >&2; exit 2; }
    GLIBC_LIB=$(cd "$GLIBC_LIB" && pwd)
fi
for p in zstd lz4 git sqlite3 /usr/bin/python3 gzip tar dd sort; do
    command -v "$p" > /dev/null || { echo "real-programs.sh: $p not found" >&2; exit 2; }
done
export LC_ALL=C

mb() { echo $(( $1 * scale / 100 )); }

# ---- data sets ------------------------------------------------------------
cd "$work"
if [ ! -s data.tar ]; then
    # Shared libraries: binary data that compresses about 3:1, as real archives
    # do; whole files up to the size, so that the archive is complete.
    (cd /usr/lib && find x86_64-linux-gnu -type f -printf '%s %p\n' | sort -k2 |
        awk -v max=$(( $(mb 200) * 1048576 )) '{ if (t + $1 + 512 > max) next; t += $1 + 512; sub(/^[0-9]+ /, ""); print }') > files.list
    tar cf data.tar -C /usr/lib -T files.list
fi
[ -s data.tar.zst ] || zstd -q -3 -f data.tar -o data.tar.zst
[ -s data.tar.lz4 ] || lz4 -q -f data.tar data.tar.lz4
if [ ! -s lines.txt ]; then
    # Lines of five random words, as a log or a word list to sort.
    /usr/bin/python3 -I -c '
import random, sys
r = random.Random(15); n = int(sys.argv[1])
w = ["".join(r.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(r.randrange(2, 10))) for _ in range(50000)]
sys.stdout.write("".join(" ".join(r.choice(w) for _ in range(5)) + "\n" for _ in range(n)))
' $(( 6000 * scale )) > lines.txt
fi
[ -s lines.txt.gz ] || gzip -6 -c lines.txt > lines.txt.gz
if [ ! -s bulk.sql ]; then
    {
        echo "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, body BLOB);"
        echo "BEGIN;"
        /usr/bin/python3 -I -c '
import sys
n = int(sys.argv[1])
for i in range(n):
    print("INSERT INTO t(name, body) VALUES (%s, randomblob(%d));" % ("\x27row-%d-%s\x27" % (i, "x" * (i % 40)), 100 + (i * 7919) % 900))
' $(( 600 * scale ))
        echo "COMMIT;"
        echo "CREATE INDEX t_name ON t(name);"
        echo "SELECT count(*), sum(length(body)) FROM t;"
    } > bulk.sql
fi
if [ ! -d repo/.git ]; then
    # A repository of real text: C and C++ headers (about 20 MB), committed,
    # then packed (delta chains and zlib streams, as a cloned repository has).
    mkdir -p repo/include
    for d in linux c++ x86_64-linux-gnu; do
        [ -d /usr/include/$d ] && cp -r /usr/include/$d repo/include/
    done
    git -C repo init -q
    git -C repo add -A
    git -C repo -c user.name=altmem -c user.email=altmem@localhost commit -q -m data
    git -C repo gc -q
fi

# ---- the programs ---------------------------------------------------------
# Large bytes copies, joins and bytearray slicing (256 KiB objects: cache
# resident, so the copies and not page faults take the time).
big_py='b = bytes(range(256)) * 1024
for i in range(1000):
    c = bytearray(b)
    c[1:] = c[:-1]
    d = b"".join([b[j:j + 4096] for j in range(0, len(b), 4096)])
    e = bytes(c[3:]) + d[:-3]
print(len(e))'

run() {
    name=$1
    shift
    case " $only " in
        " all "|*" $name "*) ;;
        *) return 0 ;;
    esac
    if [ -n "${GLIBC_LIB:-}" ]; then
        prog=$(command -v "$1")
        shift
        set -- "$GLIBC_LIB/ld-linux-x86-64.so.2" --library-path "$GLIBC_LIB" "$prog" "$@"
    fi
    set -- "$altmem" compare $pairs_args ${VARIANT:+--variant "$VARIANT"} --no-stdin -- "$@"
    "$@" > /dev/null 2> "$name.report" || { echo "| $name | failed: see $work/$name.report |"; return 0; }
    awk -v name="$name" '
        / order ABBA: / { sub(/.* order ABBA: /, ""); cmd = $0 }
        /^  C library / { libc = $3 " " $4; libc_cpu = $9 " " $10 }
        /^  altmem / { alt = $2 " " $3; alt_cpu = $8 " " $9 }
        /^  cpu:/ { sub(/.*load average /, ""); sub(/ after the runs/, ""); load = $0 }
        /^result:/ {
            for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
            verdict = v["distinguishable"] == "yes" ? (v["ratio"] > 1 ? "altmem faster" : "altmem slower") : "not distinguishable"
            if (v["stopped"] == "width")
                verdict = "no difference above " v["until"] "%"
            printf "| %s | `%s` | %s (%s) | %s (%s) | %.3fx [%.3f..%.3f] | %s | %s | %s |\n", name, cmd, libc, libc_cpu, alt, alt_cpu,
                v["ratio"], v["lo"], v["hi"], v["pairs"], verdict, load
        }' "$name.report"
}

if [ -n "${UNTIL:-}" ]; then
    pairs_args="--until $UNTIL --max-pairs ${MAX_PAIRS:-100}"
else
    pairs_args="--runs $runs"
fi
libc_version=$(${GLIBC_LIB:+"$GLIBC_LIB/ld-linux-x86-64.so.2" --library-path "$GLIBC_LIB"} /usr/bin/getconf GNU_LIBC_VERSION 2>/dev/null || echo '?')
echo "altmem compare $pairs_args${VARIANT:+ --variant $VARIANT}; $libc_version${GLIBC_LIB:+ (GLIBC_LIB=$GLIBC_LIB)}; $(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo '?'); $(uptime)"
grep -m1 'model name' /proc/cpuinfo
echo
echo "| name | command | C library median wall (cpu) | altmem median wall (cpu) | speed-up [95% CI] | pairs | verdict | load average (1 5 15 min) after |"
echo "|---|---|---|---|---|---|---|---|"
run zstd zstd -d -q -c data.tar.zst
run lz4 lz4 -d -q -c data.tar.lz4
run sort sort lines.txt
run python-mix /usr/bin/python3 -I "$src/tests/dropin/bytes_work.py" 2
run python-big /usr/bin/python3 -I -c "$big_py"
run git-archive git -C repo archive --format=tar HEAD
run git-catfile git -C repo cat-file --batch-all-objects --batch
run sqlite3 sqlite3 :memory: ".read bulk.sql"
run tar tar xOf data.tar
run gzip gzip -d -c lines.txt.gz
run dd dd if=data.tar of=/dev/null ibs=4k obs=1M status=none
