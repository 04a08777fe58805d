#!/bin/sh
# An `altmem run` that preloads nothing: `fake_altmem.sh run -- CMD ARGS...` just runs
# CMD.  The negative control for tests/dropin/programs.sh (dropin.programs_control):
# its binding check must catch this, or it could never catch a real preload failure.
shift
[ "$1" = -- ] && shift
exec "$@"
