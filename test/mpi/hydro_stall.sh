#!/bin/bash
# An application's loop (issue 18 point 10): a hydrodynamics proxy
# (examples/hydro3d.c: 26-neighbour halo exchanges by Irecv/Isend/Wait and
# an Allreduce every step) oversubscribed 4 and 13.5 ranks to a core, beside
# a CPU hog pinned to the first CPU, as on a shared machine. Every run must
# end by itself with the same checksum as one rank computing the whole cube
# (the result does not depend on the ranks or the timing; a byte delivered
# wrong anywhere changes it). Such runs used to make no progress for
# 13-18 s at a time while the ranks bound to the hog's core starved; that
# the ranks are now left unbound is checked by rrun_bind.sh, and how far
# each library's runs stall beside a hog is measured by bench/stall.sh.
. "$RD_SRCDIR/test/tap.sh"
tap_tmpdir
prog=$RD_BUILDDIR/examples/hydro3d
export PATH="$RD_BUILDDIR/launcher/rrun:$PATH"

checksum_of() { sed -n 's/^steps .* checksum \([0-9a-f]*\)$/\1/p' "$1"; }

# The whole 12^3 cube on one rank: the reference.
timeout -k 10 120 rrun -np 1 "$prog" -s 12 -i 60 -p 60 >"$TAP_TMP/ref" 2>&1
is "$?" 0 "1 rank, 12^3 elements: exit status 0"
ref=$(checksum_of "$TAP_TMP/ref")
like "$ref" '^[0-9a-f]{16}$' "1 rank: a checksum"

# A hog in a session of its own (its own scheduling group, as another
# user's program would be), pinned to the first CPU we may use.
cpu0=$(taskset -pc $$ | sed 's/.*: //; s/[-,].*//')
setsid taskset -c "$cpu0" sh -c 'while :; do :; done' &
hog=$!
trap 'kill $hog 2>/dev/null; rm -rf "$TAP_TMP"' EXIT

run=0
for shape in "8 6" "8 6" "8 6" "27 4"; do
    set -- $shape
    run=$((run + 1))
    # --timeout is a guard against a hang only: a run takes 1-10 s here.
    timeout -k 10 300 rrun --timeout 240 -np "$1" "$prog" -s "$2" -i 60 -p 20 >"$TAP_TMP/out" 2>&1
    rc=$?
    is "$rc" 0 "run $run: $1 ranks of $2^3 beside a hog on CPU $cpu0: exit status 0"
    is "$(checksum_of "$TAP_TMP/out")" "$ref" "run $run: $1 ranks: the checksum of 1 rank"
    [ "$rc" = 0 ] || sed 's/^/# /' "$TAP_TMP/out" | tail -40
done
kill $hog 2>/dev/null
wait $hog 2>/dev/null
done_testing
