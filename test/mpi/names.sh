#!/bin/bash
# The name service (test/mpi/names.c): under rrun on 1 and 3 ranks (rrun's
# table), and as a singleton (the process's own).
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
prog="$RD_BUILDDIR/test/mpi/names"
mpi_check 1 "$prog"
mpi_check 3 "$prog"
out=$("$prog" 2>&1)
is "$(printf '%s\n' "$out" | grep -c '^not ok')" 0 "a singleton: no check failed"
like "$out" "done \[rank 0\] [0-9]+ checks, 0 failed" "a singleton: every check ran"
done_testing
