#!/bin/bash
# The layer rule: a floor includes and calls only itself and the floors
# below it (ARCHITECTURE.md, "Layers"). From the bottom:
#   1 runtime/base      services: params, log, errors, reports, job, state
#   2 transports        the transport contract and its backends
#   3 runtime/objects   MPI objects that need no communication
#   4 runtime/p2p       requests, progress, the point-to-point engine
#   5 collectives       schedules and algorithms on the p2p engine
#   6 runtime/rma       one-sided communication (windows, RMA, sync)
#   7 runtime/io        parallel I/O: MPI_File (runtime/io/PLAN.md; no code yet)
#   8 runtime/api       the MPI_* entry points, start-up and shut-down
#   9 runtime/fortran   the Fortran bindings' glue (librdmpifort)
# launcher/ is a separate set of programs: it may use runtime/base only.
#
# usage: layers.sh SRCDIR [OBJECT...]
# Checks every #include "..." of the sources under SRCDIR, and, for the
# object files given, every undefined symbol that another of them defines.
# Prints one line per breach ("includes" or "calls") and exits 1 if any.
src=${1:?usage: layers.sh SRCDIR [OBJECT...]}
shift
# The floors in awk: floor(path) is 0 off the floors, 10 for launcher/;
# allowed(a, b): may floor a use floor b?
AWK_FLOORS='
function floor(p) {
    if (p ~ /^runtime\/base\//) return 1
    if (p ~ /^transports\//) return 2
    if (p ~ /^runtime\/objects\//) return 3
    if (p ~ /^runtime\/p2p\//) return 4
    if (p ~ /^collectives\//) return 5
    if (p ~ /^runtime\/rma\//) return 6
    if (p ~ /^runtime\/io\//) return 7
    if (p ~ /^runtime\/api\//) return 8
    if (p ~ /^runtime\/fortran\//) return 9
    if (p ~ /^launcher\//) return 10
    return 0
}
function allowed(a, b) {
    if (a == 0 || b == 0) return 1
    if (a == 10) return b == 1 || b == 10
    if (b == 10) return 0
    return b <= a
}'
bad=0
cd "$src" || exit 2
# shellcheck disable=SC2046
out=$(awk "$AWK_FLOORS"'
    match($0, /^[ \t]*#[ \t]*include[ \t]*"[^"]*"/) {
        inc = $0; sub(/^[^"]*"/, "", inc); sub(/".*/, "", inc)
        if (!allowed(floor(FILENAME), floor(inc))) print FILENAME ":" FNR " includes " inc
    }' $(find runtime transports collectives launcher -name '*.[ch]' | sort))
cd - >/dev/null || exit 2
[ -n "$out" ] && { printf '%s\n' "$out"; bad=1; }
# Calls, within each linked unit: librdmpi (objects of librdmpi, librdutil
# and librdop) and each transport plug-in (rdmpi_tl_X). libtool and
# automake prefix an object's name with its target's
# (runtime/objects/.libs/librdmpi_la-comm.o is runtime/objects/comm.c).
if [ $# -gt 0 ]; then
    syms=$(for o in "$@"; do
        d=$(dirname "$o"); d=${d%/.libs}; d=${d#./}
        b=$(basename "$o" .o)
        case "$b" in
        rdmpi_tl_*) unit=${b%%_la-*} ;;
        lib*_la-*) unit=librdmpi ;;
        *) continue ;;
        esac
        nm "$o" | awk -v s="$d/${b#*_la-}" -v u="$unit" '
            NF == 3 && $2 ~ /^[TDBRV]$/ {print "D", $3 "@" u, s}
            NF == 2 && $1 == "U" {print "U", $2 "@" u, s}'
    done)
    out=$(printf '%s\n' "$syms" | awk "$AWK_FLOORS"'
        $1 == "D" && !($2 in def) {def[$2] = $3}
        $1 == "U" {use[$2 " " $3] = 1}
        END {
            for (k in use) {
                split(k, a, " "); sym = a[1]; user = a[2]
                if (!(sym in def)) continue
                if (!allowed(floor(user), floor(def[sym]))) {
                    name = sym; sub(/@.*/, "", name)
                    print user " calls " name " (" def[sym] ")"
                }
            }
        }' | sort)
    [ -n "$out" ] && { printf '%s\n' "$out"; bad=1; }
fi
exit $bad
