#!/usr/bin/env bash
# Real, unmodified programs of this machine, run twice on the same input — once as
# they are, once under `altmem run` — with every output compared byte for byte.
#
#   programs.sh --altmem ALTMEM --work DIR [--scale full|small] [--tunables T]
#               [--wrap 'CMD ARGS'] PROGRAM...
#
#   PROGRAM    cp tar sort gzip python git
#   --scale    full: a 64 MiB file, 300 000 lines of text; small: 4 MiB, 40 000 lines
#   --tunables ALTMEM_TUNABLES for the altmem run (e.g. bind=pointer)
#   --wrap     a launcher put in front of `altmem run` (tests/dropin/deny_mprotect)
#   DROPIN_TIMES=1 in the environment prints each command's time on stderr.
#
# Proof that the second run really used altmem, and the first did not: both run with
# LD_DEBUG=bindings (written to files, so the programs' own output is untouched), and the
# altmem run with ALTMEM_TUNABLES=debug=1, whose lines ("altmem: PLT slot ...", "altmem:
# patch ...") are taken out of its stderr before the outputs are compared. The altmem run
# must show the dynamic loader binding memcpy, memmove, memset or another name of
# src/preload/exports.map to libaltmem-preload.so, or the preload writing a PLT slot
# itself (a lazy slot it gives the variant is never bound by the loader); the plain run
# must show neither (the negative control: a check that always passed would fail there).
# With lazy binding a function is bound when first called, so the names the loader
# bound are ones the program (or its libraries) called.
#
# Exit 0 all identical and bound; 1 a difference, a failed command or a missing
# binding; 77 none of the programs is installed (the last line says which).
set -u

ALTMEM="" WORK="" SCALE=full TUNABLES="" WRAP=""
programs=()
while [ $# -gt 0 ]; do
    case "$1" in
    --altmem) ALTMEM=$2; shift 2 ;;
    --work) WORK=$2; shift 2 ;;
    --scale) SCALE=$2; shift 2 ;;
    --tunables) TUNABLES=$2; shift 2 ;;
    --wrap) WRAP=$2; shift 2 ;;
    -*) echo "programs.sh: unknown option $1" >&2; exit 2 ;;
    *) programs+=("$1"); shift ;;
    esac
done
[ -n "$ALTMEM" ] && [ -n "$WORK" ] && [ ${#programs[@]} -gt 0 ] || {
    echo "usage: programs.sh --altmem ALTMEM --work DIR [options] PROGRAM..." >&2
    exit 2
}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ALTMEM=$(realpath "$ALTMEM")     # the runs change directory

# Nothing from the caller's environment may steer either run.
unset LD_PRELOAD LD_LIBRARY_PATH LD_BIND_NOW ALTMEM_TUNABLES ALTMEM_PRELOAD_LIB LD_DEBUG LD_DEBUG_OUTPUT \
      GIT_DIR GIT_WORK_TREE PYTHONPATH PYTHONHOME MAKEFLAGS
export LC_ALL=C TZ=UTC

if [ "$SCALE" = small ]; then
    big_mib=4 lines=40000
else
    big_mib=64 lines=300000
fi

# The system's python3 first: a version manager's shim is a shell script in front of
# it, which would work but measures the shim.
python=""
for p in /usr/bin/python3 "$(command -v python3 2>/dev/null)"; do
    if [ -n "$p" ] && [ -x "$p" ] && "$p" -c 'import sys; sys.exit(sys.version_info < (3, 9))' 2>/dev/null; then
        python=$p
        break
    fi
done

need_tool() {   # PROGRAM -> the executable it needs, or "" when missing
    case "$1" in
    cp | tar | sort | gzip | git) command -v "$1" 2>/dev/null || true ;;
    python) echo "$python" ;;
    *) echo "programs.sh: unknown program $1" >&2; exit 2 ;;
    esac
}

# ---- Inputs, shared by both runs ----------------------------------------------------
rm -rf "$WORK"
mkdir -p "$WORK/in"
in=$WORK/in
head -c $((big_mib * 1048576)) /dev/urandom >"$in/big.bin"
awk -v n="$lines" 'BEGIN {
    srand(7); a = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    for (i = 0; i < n; i++) {
        w = ""; l = 1 + int(rand() * 24)
        for (j = 0; j < l; j++) w = w substr(a, 1 + int(rand() * 62), 1)
        printf "%08x %s %d\n", int(rand() * 4294967296), w, int(rand() * 100000)
    }
}' >"$in/text.txt"
# Text and incompressible data together: both of gzip's paths.
{ cat "$in/text.txt"; head -c $((big_mib * 1048576 / 8)) "$in/big.bin"; } >"$in/mixed.bin"

# ---- One run of one program ---------------------------------------------------------
# run_program PROGRAM DIR PREFIX...: runs PROGRAM's commands in DIR, each preceded by
# PREFIX (empty for the plain run). Outputs go to DIR/out; each command's exit status
# to DIR/out/status.
run_program() {
    local prog=$1 dir=$2
    shift 2
    local -a pre=("$@")
    mkdir -p "$dir/out" "$dir/tmp"
    local out=$dir/out
    step() {    # step NAME CMD...: stdout and stderr to out/NAME.{stdout,stderr}
        local name=$1
        shift
        local t0 rc
        t0=$(date +%s%N)
        (cd "$dir" && "${pre[@]}" "$@") >"$out/$name.stdout" 2>"$out/$name.stderr"
        rc=$?
        echo "$name $rc" >>"$out/status"
        if [ -n "${DROPIN_TIMES:-}" ]; then     # where the time goes, for whoever tunes the sizes
            echo "  $name: $((($(date +%s%N) - t0) / 1000000)) ms" >&2
        fi
    }
    case "$prog" in
    cp)
        step cp cp "$in/big.bin" "$dir/copy.bin"
        step cp-stdin cp /dev/stdin "$dir/copy-stdin.bin" <"$in/big.bin"
        ;;
    tar)
        mkdir -p "$dir/src" "$dir/x"
        cp "$in/big.bin" "$in/text.txt" "$dir/src/"
        touch -d @0 "$dir/src" "$dir/src"/*
        step tar-c tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner --format=gnu \
            -cf "$dir/archive.tar" -C "$dir/src" .
        step tar-x tar -xf "$dir/archive.tar" -C "$dir/x"
        ;;
    sort)
        step sort sort -T "$dir/tmp" "$in/text.txt" -o "$dir/sorted"
        step sort-keys sort -T "$dir/tmp" -S 1M -t ' ' -k2,2 -k3,3n "$in/text.txt" -o "$dir/sorted-keys"
        step sort-ur sort -T "$dir/tmp" -u -r --parallel=2 "$in/text.txt" -o "$dir/sorted-ur"
        ;;
    gzip)
        step gzip sh -c 'gzip -6 -n -c "$1" >"$2"' sh "$in/mixed.bin" "$dir/mixed.gz"
        step gzip-9 sh -c 'gzip -9 -n -c "$1" >"$2"' sh "$in/text.txt" "$dir/text.gz"
        step gunzip sh -c 'gzip -d -c "$1" >"$2"' sh "$dir/mixed.gz" "$dir/mixed.back"
        ;;
    python)
        local s=4
        [ "$SCALE" = small ] && s=1
        step python "$python" -I "$here/bytes_work.py" "$s"
        ;;
    git)
        # A fixed identity, dates and configuration: both runs must produce the same
        # object ids. No threads (pack.threads, index.threads): their scheduling must
        # not change the packs, and a deny_mprotect write run cannot create threads.
        mkdir -p "$dir/home" "$dir/repo-src/t"
        cat >"$dir/home/.gitconfig" <<'EOF'
[init]
	defaultBranch = main
[gc]
	auto = 0
[maintenance]
	auto = false
[pack]
	threads = 1
[index]
	threads = false
[core]
	preloadIndex = false
EOF
        split -n l/100 -a 3 "$in/text.txt" "$dir/repo-src/t/part."
        head -c $((big_mib * 1048576 / 32)) "$in/big.bin" >"$dir/repo-src/blob.bin"
        cp "$here/bytes_work.py" "$dir/repo-src/"
        local -a genv=(env HOME="$dir/home" XDG_CONFIG_HOME="$dir/home/.config" GIT_CONFIG_NOSYSTEM=1
            GIT_AUTHOR_NAME=altmem GIT_AUTHOR_EMAIL=altmem@example.invalid
            GIT_COMMITTER_NAME=altmem GIT_COMMITTER_EMAIL=altmem@example.invalid
            GIT_AUTHOR_DATE=2024-02-29T12:00:00Z GIT_COMMITTER_DATE=2024-02-29T12:00:00Z)
        local r=$dir/repo
        step git-init "${genv[@]}" git init -q "$r"
        cp -R "$dir/repo-src/." "$r/"
        step git-add "${genv[@]}" git -C "$r" add -A
        step git-commit "${genv[@]}" git -C "$r" commit -q -m "first: text, a blob, a script"
        # A second commit that edits, deletes and adds, so diff has work to do.
        for f in "$r"/t/part.aa?; do sed -i 's/^\([0-9a-f]\{8\}\) \([A-Za-z]\)/\1 X\2/' "$f"; done
        rm "$r"/t/part.aaj "$r"/t/part.abk
        head -c 70000 "$in/big.bin" | od -An -tx1 >"$r/t/dump.txt"
        step git-add2 "${genv[@]}" git -C "$r" add -A
        step git-commit2 "${genv[@]}" git -C "$r" commit -q -m "second: edits"
        step git-revs "${genv[@]}" git -C "$r" rev-parse HEAD HEAD~1 'HEAD^{tree}'
        step git-log "${genv[@]}" git -C "$r" log --format=raw --stat
        step git-diff "${genv[@]}" git -C "$r" diff HEAD~1 HEAD
        step git-tree "${genv[@]}" git -C "$r" ls-tree -r -l HEAD
        step git-repack "${genv[@]}" git -C "$r" repack -a -d -q --window=4
        step git-objects "${genv[@]}" git -C "$r" cat-file --batch-all-objects --batch-check
        step git-fsck "${genv[@]}" git -C "$r" fsck --strict --no-progress
        step git-archive "${genv[@]}" git -C "$r" archive --format=tar -o "$dir/archive.tar" HEAD
        ;;
    esac
}

# Files each program writes besides its step outputs: compared between the runs.
products() {
    case "$1" in
    cp) echo "copy.bin copy-stdin.bin" ;;
    tar) echo "archive.tar x/big.bin x/text.txt" ;;
    sort) echo "sorted sorted-keys sorted-ur" ;;
    gzip) echo "mixed.gz text.gz mixed.back" ;;
    python) echo "" ;;
    git) echo "archive.tar" ;;
    esac
}

# Checks that belong to one run alone (the program did its job at all).
self_check() {
    local prog=$1 dir=$2
    case "$prog" in
    cp) cmp -s "$in/big.bin" "$dir/copy.bin" && cmp -s "$in/big.bin" "$dir/copy-stdin.bin" ;;
    tar) cmp -s "$in/big.bin" "$dir/x/big.bin" && cmp -s "$in/text.txt" "$dir/x/text.txt" ;;
    gzip) cmp -s "$in/mixed.bin" "$dir/mixed.back" ;;
    sort) [ -f "$dir/sorted" ] && [ "$(wc -l <"$dir/sorted")" -eq "$lines" ] ;;
    python) [ "$(wc -l <"$dir/out/python.stdout")" -ge 10 ] ;;
    git) [ "$(wc -l <"$dir/out/git-tree.stdout")" -ge 90 ] ;;
    esac
}

export_names="memcpy memmove memset mempcpy __mempcpy bcopy bzero __bzero explicit_bzero __memcpy_chk
__memmove_chk __mempcpy_chk __memset_chk __explicit_bzero_chk wmemcpy wmemmove wmempcpy wmemset
__wmemcpy_chk __wmemmove_chk __wmempcpy_chk __wmemset_chk"

# bindings DIR: "name(file,file) ..." for every name of ours bound to libaltmem-preload.so
# by the dynamic loader in that run's processes.
bindings() {
    cat "$1"/ld.* 2>/dev/null |
        sed -nE 's/.*binding file (.*) \[[0-9]+\] to (.*libaltmem-preload\.so) \[[0-9]+\]: normal symbol `([^'"'"']+)'"'"'.*/\3 \1/p' |
        awk -v names="$export_names" '
            BEGIN { n = split(names, a, /[ \n]+/); for (i = 1; i <= n; i++) ours[a[i]] = 1 }
            ours[$1] { f = $2; sub(/.*\//, "", f); k = $1 SUBSEP f
                       if (!(k in seen)) { seen[k] = 1; by[$1] = by[$1] (by[$1] ? "," : "") f } }
            END { for (s in by) printf "%s(%s) ", s, by[s] }' | tr ' ' '\n' | sort | tr '\n' ' '
}

# ---- Both runs, compared -----------------------------------------------------------
fail=0 ran=0
missing=()
declare -a wrap_words=()
if [ -n "$WRAP" ]; then
    read -r -a wrap_words <<<"$WRAP"
fi
alt_env=(env ALTMEM_TUNABLES="${TUNABLES:+$TUNABLES:}debug=1")

# slots DIR: "name(file) ..." for every PLT slot the preload wrote in that run (its
# debug lines, taken out of the stderr files here so that the outputs compare).
slots() {
    local f
    for f in "$1"/out/*.stderr; do
        [ -e "$f" ] || continue
        grep -E '^altmem: PLT slot ' "$f" >>"$1/slots.txt"
        sed -i -E '/^altmem: (PLT slot|patch) /d' "$f"
    done
    [ -e "$1/slots.txt" ] || return 0
    sed -nE 's/^altmem: PLT slot ([^ ]+) in (.*) at 0x[0-9a-f]+: .*/\1 \2/p' "$1/slots.txt" |
        awk '{ f = $2; if (f == "(the") f = "program"; sub(/.*\//, "", f); k = $1 SUBSEP f
               if (!(k in seen)) { seen[k] = 1; by[$1] = by[$1] (by[$1] ? "," : "") f } }
             END { for (s in by) printf "slot:%s(%s) ", s, by[s] }' | tr ' ' '\n' | sort | tr '\n' ' '
}

for prog in "${programs[@]}"; do
    tool=$(need_tool "$prog")
    if [ -z "$tool" ]; then
        missing+=("$prog")
        echo "$prog: SKIPPED: not installed"
        continue
    fi
    ran=$((ran + 1))
    base=$WORK/$prog/plain alt=$WORK/$prog/altmem
    mkdir -p "$base" "$alt"
    t0=$(date +%s%N)
    run_program "$prog" "$base" env LD_DEBUG=bindings LD_DEBUG_OUTPUT="$base/ld"
    t1=$(date +%s%N)
    run_program "$prog" "$alt" "${wrap_words[@]}" "${alt_env[@]}" LD_DEBUG=bindings LD_DEBUG_OUTPUT="$alt/ld" \
        "$ALTMEM" run --
    t2=$(date +%s%N)

    slots_alt=$(slots "$alt")
    slots_base=$(slots "$base")
    problems=()
    for side in "$base" "$alt"; do
        if awk '$2 != 0 { bad = 1 } END { exit !bad }' "$side/out/status"; then
            problems+=("a command failed in the ${side##*/} run: $(awk '$2 != 0 { printf "%s exited %s; ", $1, $2 }' "$side/out/status")")
            for f in "$side"/out/*.stderr; do
                [ -s "$f" ] && sed "s|^|    ${side##*/} $(basename "$f" .stderr): |" "$f" | head -n 5
            done
        fi
        self_check "$prog" "$side" || problems+=("the ${side##*/} run's output is wrong on its own")
    done
    compared=0
    for f in $(cd "$base/out" && ls) $(products "$prog"); do
        if [ -d "$base/$f" ] || [ -d "$alt/$f" ]; then continue; fi
        local_base=$base/$f local_alt=$alt/$f
        [ -e "$base/out/$f" ] && local_base=$base/out/$f local_alt=$alt/out/$f
        if ! cmp -s "$local_base" "$local_alt"; then
            problems+=("$f differs: $(cmp "$local_base" "$local_alt" 2>&1 | head -n 1)")
        fi
        compared=$((compared + 1))
    done
    bound_alt=$(bindings "$alt")$slots_alt
    bound_base=$(bindings "$base")$slots_base
    [ -n "$bound_alt" ] || problems+=("the altmem run shows no binding to libaltmem-preload.so: the preload did nothing")
    [ -z "$bound_base" ] || problems+=("the plain run shows bindings to libaltmem-preload.so: $bound_base")
    if ! ls "$base"/ld.* >/dev/null 2>&1; then
        problems+=("the plain run wrote no LD_DEBUG log, so the negative control proves nothing")
    fi

    bytes=$( (for f in $(products "$prog"); do cat "$alt/$f"; done; cat "$alt"/out/*) 2>/dev/null | wc -c)
    printf '%s: %d outputs (%d bytes) compared; plain %d ms, altmem run %d ms\n' "$prog" "$compared" "$bytes" \
        $(((t1 - t0) / 1000000)) $(((t2 - t1) / 1000000))
    echo "  bound to libaltmem-preload.so: ${bound_alt:-nothing}"
    echo "  plain run, bound to libaltmem-preload.so: ${bound_base:-nothing (as it must be)}"
    if [ ${#problems[@]} -gt 0 ]; then
        for p in "${problems[@]}"; do echo "  FAIL: $p"; done
        fail=1
    else
        echo "  identical"
    fi
done

if [ "$ran" -eq 0 ]; then
    echo "SKIPPED: not installed: ${missing[*]}"
    exit 77
fi
if [ "$fail" -eq 0 ]; then
    rm -rf "$WORK"      # 100+ MiB of inputs and outputs; kept when something failed
    echo "programs: ${programs[*]}: passed${missing:+ (not installed, skipped: ${missing[*]})}"
fi
exit $fail
