#!/bin/bash
# Every function that mpi.h declares is exported as MPI_ and PMPI_, the MPI_
# name a weak alias of the PMPI_ one; nothing else leaves the library.
. "$RD_SRCDIR/test/tap.sh"
lib="$RD_BUILDDIR/.libs/librdmpi.so"
[ -f "$lib" ] || { plan 1; ok 1 "librdmpi.so built"; exit 0; }
syms=$(nm -D --defined-only "$lib")
declared=$(sed -n 's/^RD_MPI_PROTO([^,]*, *\([A-Za-z0-9_]*\),.*/\1/p' "$RD_SRCDIR/include/mpi.h")
n=$(printf '%s\n' "$declared" | grep -c .)
ok $([ "$n" -ge 20 ]; echo $?) "mpi.h declares $n functions"
bad=
for f in $declared; do
    p=$(printf '%s\n' "$syms" | awk -v s="PMPI_$f" '$3 == s && $2 == "T" {print $1}')
    m=$(printf '%s\n' "$syms" | awk -v s="MPI_$f" '$3 == s && $2 == "W" {print $1}')
    if [ -z "$p" ] || [ "$p" != "$m" ]; then bad="$bad $f"; fi
done
is "$bad" "" "each MPI_X is a weak alias of an exported PMPI_X"
# A sanitizer build also exports LeakSanitizer's suppressions for the
# third-party libraries (runtime/base/sanitizer.c).
san=
grep -q '^RD_SAN_FLAGS = .' "$RD_BUILDDIR/Makefile" && san=__lsan_default_suppressions
others=$(printf '%s\n' "$syms" | awk '$2 ~ /^[TWDBR]$/ {print $3}' | grep -Ev '^(P?MPI_|rd_mpi_)' | tr '\n' ' ')
is "$others" "${san:+$san }" "no internal symbol is exported${san:+ (but $san in a sanitizer build)}"
extra=$(printf '%s\n' "$syms" | awk '$2 == "T" {print $3}' | sed -n 's/^PMPI_//p' | while read -r f; do
    printf '%s\n' "$declared" | grep -qx "$f" || printf '%s ' "$f"; done)
is "$extra" "" "every exported function is declared in mpi.h"
done_testing
