#!/usr/bin/env bash
# The man pages are kept in step with the code: every name the code shows must be in
# its page.  The names come from the code itself, never from a list kept here.
#
#   coverage.sh cli ALTMEM PAGE           altmem(1): every subcommand in `altmem help`
#                                         has a section ".SS altmem SUB"; every option
#                                         (--x) and environment variable (ALTMEM_X) that
#                                         `altmem help` and `altmem help SUB` print, and
#                                         the options of every "SUB --opt --help" those
#                                         mention (bench --scalar-effect --help), is named
#   coverage.sh tunables ALTMEM PAGE      altmem-tunables(7): every ALTMEM_TUNABLES setting
#                                         and feature the library knows (from its own
#                                         warning for an unknown one), every variant and
#                                         routine `altmem info` lists, ALTMEM_PROFILE when
#                                         the CLI mentions it
#   coverage.sh api PYTHON PAGE HEADER... altmem(3): every function, typedef, struct,
#                                         member, enum constant and macro of the headers
#                                         (scripts/abi-layout.py names)
#   coverage.sh normalize PAGE            the page as the checks read it (stdout)
#
# The page is read with the font escapes, \& and \c removed and \- as -, so
# `\fB\-\-cold\-mib\fR` counts as --cold-mib.  Exit 1 with one line per missing name,
# saying where the name came from.
set -u
here=$(cd "$(dirname "$0")" && pwd)
fail=0
missing() { echo "FAIL: $*"; fail=1; }

normalize() {
    sed -e 's/\\f\[[^]]*\]//g' -e 's/\\f([A-Z][A-Z]//g' -e 's/\\f[A-Z1-4]//g' \
        -e 's/\\&//g' -e 's/\\c$//' -e 's/\\-/-/g' -e 's/\\(em/ - /g' -e 's/\\(aq/'"'"'/g' \
        -e 's/\\e/\\/g' "$1"
}

# mentions TEXT WORD [WORDCHARS]: WORD appears in TEXT, not as part of a longer word.
mentions() {
    local chars=${3:-A-Za-z0-9_-}
    printf '%s\n' "$1" | grep -Eq -- "(^|[^$chars])$(printf '%s' "$2" | sed 's/[.[\*^$+?(){}|]/\\&/g')([^$chars]|$)"
}

mode=${1:-}
[ $# -gt 0 ] && shift
case "$mode" in
normalize)
    normalize "$1"
    exit 0
    ;;
cli)
    altmem=$1 page=$2
    text=$(normalize "$page")
    usage=$("$altmem" help 2>&1) || { missing "'$altmem help' failed: $usage"; exit 1; }
    subs=$(printf '%s\n' "$usage" | sed -nE 's/^(usage:)?[[:space:]]+altmem ([a-z][a-z0-9-]*).*/\2/p' | sort -u)
    [ -n "$subs" ] || { missing "no subcommand found in the output of '$altmem help'"; exit 1; }
    nopts=0 nenv=0
    check_help() {   # check_help HOW TEXT
        local how=$1 out=$2 o v
        for o in $(printf '%s\n' "$out" | grep -oE -- '--[a-z0-9][a-z0-9-]*' | sort -u); do
            nopts=$((nopts + 1))
            mentions "$text" "$o" || missing "$(basename "$page") does not mention option $o (from \`$how\`)"
        done
        for v in $(printf '%s\n' "$out" | grep -oE 'ALTMEM_[A-Z0-9_]+' | sort -u); do
            nenv=$((nenv + 1))
            mentions "$text" "$v" A-Za-z0-9_ ||
                missing "$(basename "$page") does not mention the environment variable $v (from \`$how\`)"
        done
    }
    check_help "altmem help" "$usage"
    # The two ways to ask, which the page promises are the same.
    v1=$("$altmem" --version 2>&1) v2=$("$altmem" version 2>&1)
    printf '%s\n' "$v1" | grep -Eqx 'altmem [0-9]+\.[0-9]+\.[0-9]+' && [ "$v1" = "$v2" ] ||
        missing "\`altmem --version\` says '$v1', \`altmem version\` '$v2'"
    [ "$("$altmem" help bench 2>&1)" = "$("$altmem" bench --help 2>&1)" ] ||
        missing "\`altmem help bench\` differs from \`altmem bench --help\`"
    "$altmem" help altmem-no-such-command >/dev/null 2>&1
    rc=$?
    [ $rc -eq 2 ] || missing "\`altmem help altmem-no-such-command\` exited $rc, not 2"
    for s in $subs; do
        grep -Eq "^\.SS \"?altmem $s( |\"|$)" "$page" ||
            missing "$(basename "$page") has no section \".SS altmem $s\" for the subcommand $s (from \`altmem help\`)"
        case "$s" in help | version) continue ;; esac
        out=$("$altmem" help "$s" 2>&1)
        rc=$?
        [ $rc -eq 0 ] || missing "\`altmem help $s\` exited $rc"
        check_help "altmem help $s" "$out"
        # Options with help of their own: "--scalar-effect --help".
        for o in $(printf '%s\n' "$out" | grep -oE -- '--[a-z0-9][a-z0-9-]* --help' | sed 's/ --help//' | sort -u); do
            sub_out=$("$altmem" "$s" "$o" --help 2>&1)
            check_help "altmem $s $o --help" "$sub_out"
        done
    done
    echo "coverage: $(echo $subs | wc -w) subcommands ($(echo $subs)), $nopts option and $nenv variable" \
         "mentions checked against $(basename "$page")"
    ;;
tunables)
    altmem=$1 page=$2
    text=$(normalize "$page")
    probe=altmem_man_probe
    warn=$(ALTMEM_PROFILE=none ALTMEM_TUNABLES=$probe "$altmem" version 2>&1 >/dev/null)
    keys=$(printf '%s\n' "$warn" | sed -n "s/.*unknown setting '$probe'; known: \(.*\) (ignored)$/\1/p")
    [ -n "$keys" ] || { missing "no list of settings in the library's warning for ALTMEM_TUNABLES=$probe: '$warn'"; exit 1; }
    warn=$(ALTMEM_PROFILE=none ALTMEM_TUNABLES=hwcaps=-$probe "$altmem" version 2>&1 >/dev/null)
    feats=$(printf '%s\n' "$warn" | sed -n "s/.*unknown feature '$probe'; known: \(.*\) (ignored)$/\1/p")
    [ -n "$feats" ] || { missing "no list of features in the library's warning for hwcaps=-$probe: '$warn'"; exit 1; }
    info=$(ALTMEM_PROFILE=none "$altmem" info 2>&1)
    variants=$(printf '%s\n' "$info" | sed -n '/^variants/,$p' | awk 'NR > 1 && NF >= 2 { print $2 }' | sort -u)
    routines=$(printf '%s\n' "$info" | sed -n '/^variants/,$p' | awk 'NR > 1 && NF >= 2 { print $1 }' | sort -u)
    [ -n "$variants" ] || { missing "no variants in the output of 'altmem info'"; exit 1; }
    for k in $keys; do
        mentions "$text" "$k" A-Za-z0-9_ ||
            missing "$(basename "$page") does not mention the setting $k (the library knows it: its warning for ALTMEM_TUNABLES=$probe)"
    done
    for f in $feats; do
        mentions "$text" "$f" A-Za-z0-9_ ||
            missing "$(basename "$page") does not mention the feature $f (the library knows it: its warning for hwcaps=-$probe)"
    done
    for v in $variants; do
        mentions "$text" "$v" A-Za-z0-9_ || missing "$(basename "$page") does not mention the variant $v (from \`altmem info\`)"
    done
    for r in $routines; do
        mentions "$text" "$r" A-Za-z0-9_ || missing "$(basename "$page") does not mention the routine $r (from \`altmem info\`)"
    done
    envs=$("$altmem" help 2>&1 | grep -oE 'ALTMEM_(TUNABLES|PROFILE)' | sort -u)
    for v in $envs; do
        mentions "$text" "$v" A-Za-z0-9_ ||
            missing "$(basename "$page") does not mention the environment variable $v (from \`altmem help\`)"
    done
    echo "coverage: $(echo $keys | wc -w) settings, $(echo $feats | wc -w) features, $(echo $variants | wc -w) variants," \
         "$(echo $routines | wc -w) routines, variables $(echo $envs) checked against $(basename "$page")"
    ;;
api)
    python=$1 page=$2
    shift 2
    command -v "$python" >/dev/null 2>&1 || { echo "SKIPPED: $python not found (scripts/install-deps.sh installs python3)"; exit 77; }
    text=$(normalize "$page")
    names=$("$python" "$here/../../scripts/abi-layout.py" names "$@") || { missing "abi-layout.py names failed"; exit 1; }
    [ -n "$names" ] || { missing "no names read from $*"; exit 1; }
    for n in $names; do
        mentions "$text" "$n" A-Za-z0-9_ ||
            missing "$(basename "$page") does not mention $n (declared in $(grep -lw -- "$n" "$@" | xargs -n1 basename | tr '\n' ' ' | sed 's/ $//'))"
    done
    echo "coverage: $(echo $names | wc -w) names of $(echo "$@" | xargs -n1 basename | tr '\n' ' ')checked against $(basename "$page")"
    ;;
*)
    echo "usage: coverage.sh cli|tunables|api|normalize ..." >&2
    exit 2
    ;;
esac
[ $fail -eq 0 ] && echo "coverage: passed"
exit $fail
