#!/bin/bash
# qs-configure.sh DIR [configure flags...]: configure the build tree DIR
# (made if missing) when it needs it: no Makefile yet, configure newer than
# its config.status, or QS_RECONFIGURE=1 (after quickstart installed
# packages: configure looks for the test peers and the optional
# transports). Used by quickstart's builds and by test/streams.mk's
# sanitizer build, so both decide alike. The output goes to
# DIR/configure.out; on failure it is printed and the status is 1.
# CONFIGURE_FLAGS (environment) are added to the flags.
src=$(cd "$(dirname "$0")/.." && pwd)
dir=$1
shift
mkdir -p "$dir" || exit 1
if [ ! -f "$dir/Makefile" ] || [ "$src/configure" -nt "$dir/config.status" ] || [ "${QS_RECONFIGURE:-}" = 1 ]; then
    echo "quickstart: configure${*:+ $*} (in ${dir#"$src"/})"
    # shellcheck disable=SC2086 # CONFIGURE_FLAGS are words
    (cd "$dir" && "$src/configure" "$@" ${CONFIGURE_FLAGS:-}) >"$dir/configure.out" 2>&1 ||
        { cat "$dir/configure.out"; exit 1; }
    sed -n '/^rdmpi .* configured/,$p' "$dir/configure.out"
fi
exit 0
