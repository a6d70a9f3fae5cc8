#!/bin/bash
# examples/heat2d: the same bits on 1 to 4 ranks, equal to a serial run of
# the same arithmetic (--check), and the same result when the program is
# built with Debian's Open MPI instead.
. "$RD_SRCDIR/test/tap.sh"
tap_tmpdir
prog="$RD_BUILDDIR/examples/heat2d"
args="96 300 --check"
first=""
for np in 1 2 3 4; do
    # shellcheck disable=SC2086 # args is a list of words
    out=$(timeout -k 10 120 rrun -np "$np" "$prog" $args 2>&1); rc=$?
    is "$rc" 0 "heat2d on $np ranks: exit status"
    like "$out" "serial check: identical" "heat2d on $np ranks: the plate equals the serial computation"
    line=$(printf '%s\n' "$out" | grep '^residual')
    [ -n "$first" ] || first=$line
    is "$line" "$first" "heat2d on $np ranks: residual, centre and checksum as on 1 rank"
done
like "$first" "^residual [0-9.e+-]+ centre [0-9.e+-]+ checksum [0-9a-f]{16}$" "heat2d prints its result"
if [ -n "${RD_OMPI_MPICC:-}" ] && [ -n "${RD_OMPI_MPIRUN:-}" ]; then
    "$RD_OMPI_MPICC" -O2 -o "$TAP_TMP/heat2d_ompi" "$RD_SRCDIR/examples/heat2d.c" 2>"$TAP_TMP/cc.err"
    is "$?" 0 "heat2d builds with Open MPI's mpicc"
    # shellcheck disable=SC2086
    out=$(timeout -k 10 120 "$RD_OMPI_MPIRUN" --allow-run-as-root --oversubscribe -np 2 \
        "$TAP_TMP/heat2d_ompi" $args 2>&1)
    is "$(printf '%s\n' "$out" | grep '^residual')" "$first" "heat2d built with Open MPI gives the same result"
else
    skip "Open MPI's mpicc/mpirun were not found by configure"
fi
done_testing
