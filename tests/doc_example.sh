# The worked examples of docs/architecture.md, applied to a copy of the tree: what
# every tests/check_*_example.sh shares (sourced, not run).
#
# A page holds an example as fenced code blocks, each right after a marker line
# that names the example (variant, rule, subcommand, bench_mode):
#   <!-- example NAME: write PATH -->                          the block is the file PATH
#   <!-- example NAME: insert into PATH before the line "L" --> the block goes in PATH
#                                                              before the first line L
# (PATH relative to the tree).
#
# The caller sets example (the NAME of its example) and sources this file, then
# calls example_args "$@", which reads its arguments,
#   [--control] SOURCE_DIR WORK_DIR [CC [GENERATOR]]
# into control (0 or 1), src, work, cc and generator, and sets doc (the page,
# docs/architecture.md), tree ($work/tree) and build ($work/build).  Its lines
# start with "NAME_example: " (step), failures with "NAME_example: FAIL: " (fail).
# After example_apply: example_written (the files written) and example_inserted
# (the files inserted into), space-separated, in the page's order.
set -euo pipefail

fail() {
    echo "${example}_example: FAIL: $*"
    exit 1
}
step() { echo "${example}_example: $*"; }

example_args() {
    control=0
    if [ "${1:-}" = --control ]; then
        control=1
        shift
    fi
    [ $# -ge 2 ] || { echo "usage: $0 [--control] SOURCE_DIR WORK_DIR [CC [GENERATOR]]" >&2; exit 2; }
    src=$(cd "$1" && pwd)
    work=$2
    cc=${3:-cc}
    generator=${4:-}
    doc=$src/docs/architecture.md
    tree=$work/tree
    build=$work/build
}

# Nothing from the caller may change what is built or bound: not the outer make's
# jobserver, nor a preload, nor tunables or a profile.
unset MAKEFLAGS MFLAGS MAKELEVEL LD_PRELOAD LD_LIBRARY_PATH ALTMEM_TUNABLES
export ALTMEM_PROFILE=none

# example_copy_tree SRC: SRC's files into $tree (the git checkout's files, tracked
# or new and not ignored, when SRC is one; else every file but .git and build trees).
example_copy_tree() {
    local src=$1 list=$work/files.list how top
    rm -rf "$tree"
    mkdir -p "$tree"
    if top=$(git -C "$src" rev-parse --show-toplevel 2>/dev/null) &&
        [ "$(cd "$top" && pwd -P)" = "$(cd "$src" && pwd -P)" ]; then
        git -C "$src" ls-files -co --exclude-standard | while IFS= read -r f; do
            [ -f "$src/$f" ] && printf '%s\n' "$f"
        done >"$list"
        how="git ls-files"
    else
        (cd "$src" && find . \( -name .git -o \( -type d -exec test -e '{}/CMakeCache.txt' \; \) \) -prune \
            -o -type f -print | sed 's|^\./||') >"$list"
        how="find (not a git checkout)"
    fi
    tar -C "$src" -cf - -T "$list" | tar -C "$tree" -xf -
    step "copied $(wc -l <"$list") files of $src to $tree ($how)"
}

# example_blocks DIR: DIR/NNN.marker and DIR/NNN.block for every block of $example.
example_blocks() {
    rm -rf "$1"
    mkdir -p "$1"
    awk -v dir="$1" -v name="$example" '
        $0 ~ ("^<!-- example " name ": .* -->$") { marker = $0; want = 1; next }
        want && /^```/ { f = sprintf("%s/%03d", dir, ++n); inside = 1; want = 0;  # %03d: the glob keeps page order
                         print marker > (f ".marker"); printf "" > (f ".block"); next }
        inside && /^```[[:space:]]*$/ { inside = 0; next }
        inside { print > (f ".block"); next }
        want && !/^[[:space:]]*$/ { want = 0 }
        END { if (inside) { print "unterminated block" > "/dev/stderr"; exit 1 } }
    ' "$doc" || fail "cannot read the blocks of $doc"
}

# example_apply DIR: applies the blocks example_blocks wrote to DIR, in order.
example_written="" example_inserted=""
example_apply() {
    local dir=$1 m marker path line block head="<!-- example $example: "
    for m in "$dir"/*.marker; do
        [ -e "$m" ] || fail "no '${head}... -->' block in $doc"
        marker=$(cat "$m")
        block=${m%.marker}.block
        marker=${marker#"$head"}
        marker=${marker%' -->'}
        if [[ $marker =~ ^'write '([^ ]+)$ ]]; then
            path=${BASH_REMATCH[1]}
            [ ! -e "$tree/$path" ] || fail "the example writes $path, which the tree already has"
            mkdir -p "$(dirname "$tree/$path")"
            cp "$block" "$tree/$path"
            example_written="${example_written:+$example_written }$path"
            step "wrote $path ($(wc -l <"$block") lines) from $doc"
        elif [[ $marker =~ ^'insert into '([^ ]+)' before the line "'(.*)'"'$ ]]; then
            path=${BASH_REMATCH[1]}
            line=${BASH_REMATCH[2]}
            [ -f "$tree/$path" ] || fail "the example inserts into $path, which the tree does not have"
            grep -qxF -- "$line" "$tree/$path" || fail "$path has no line '$line' to insert the example before"
            awk -v line="$line" -v blk="$block" '
                $0 == line && !done { while ((getline l < blk) > 0) print l; done = 1 }
                { print }' "$tree/$path" >"$tree/$path.new"
            mv "$tree/$path.new" "$tree/$path"
            example_inserted="${example_inserted:+$example_inserted }$path"
            step "inserted $(wc -l <"$block") lines into $path before '$line'"
        else
            fail "unknown marker: $(cat "$m")"
        fi
    done
}

# example_configure BUILD CC [GENERATOR]: a Release -Werror build of $tree.
example_configure() {
    local build=$1 cc=$2 generator=${3:-} gen_args=()
    [ -n "$generator" ] && gen_args=(-G "$generator")
    rm -rf "$build"
    step "configuring $build"
    cmake -S "$tree" -B "$build" "${gen_args[@]}" -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=Release \
        -DALTMEM_WERROR=ON -DALTMEM_NESTED=ON -DALTMEM_TEST_SWEEP=quick >"$work/configure.log" 2>&1 || {
        cat "$work/configure.log"
        fail "configuring the tree with the example failed"
    }
}

# example_build BUILD TARGET...
example_build() {
    local build=$1
    shift
    step "building $* in $build"
    cmake --build "$build" -j "${JOBS:-$(nproc 2>/dev/null || echo 2)}" --target "$@" >"$work/build.log" 2>&1 || {
        tail -n 60 "$work/build.log"
        fail "the build failed (log: $work/build.log)"
    }
}

# example_run LOG CMD...: CMD with stdout in $work/LOG.out, stderr in $work/LOG.err;
# returns its status.
example_run() {
    local log=$1
    shift
    "$@" >"$work/$log.out" 2>"$work/$log.err"
}
