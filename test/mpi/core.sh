#!/bin/bash
# The core API on 1, 2, 3 and 4 ranks under rrun, and as a singleton.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
prog="$RD_BUILDDIR/test/mpi/core"
for np in 1 2 3 4; do
    mpi_check "$np" "$prog" "$np"
done
# no launcher at all: a singleton of size 1
out=$(env -u PMIX_NAMESPACE timeout 60 "$prog" 1 2>&1); rc=$?
is "$rc" 0 "singleton exits 0"
is "$(printf '%s\n' "$out" | grep -c '^not ok')" 0 "singleton: no failed check"
like "$out" 'done \[rank 0\] [0-9]+ checks, 0 failed' "singleton finished its checks"
done_testing
