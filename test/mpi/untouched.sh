#!/bin/bash
# What MPI_Init leaves untouched (test/mpi/untouched.c): the program's and
# the default handlers of fatal signals, and no network library in a
# node-local job; with a network transport forced, its library is loaded
# and the handlers it installs are put back. A rank that segfaults is
# reported by rrun as killed by signal 11 (exit 139), with nothing printed
# by a library and no .btr file left in the working directory.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
tap_tmpdir
cd "$TAP_TMP" || exit 1
PROG="$RD_BUILDDIR/test/mpi/untouched"
info=$("$RD_BUILDDIR/launcher/rdmpi_info")
NETS=("" "")
has() { printf '%s\n' "$info" | grep -q "^transports:.* $1\( \|\$\)"; }
has ucx && NETS+=("RDMPI_TRANSPORTS=ucx,self UCX_TLS=tcp,self UCX_NET_DEVICES=lo" libucs)
has ofi && NETS+=("RDMPI_TRANSPORTS=ofi,self FI_PROVIDER=tcp FI_TCP_IFACE=lo" libfabric)
for ((k = 0; k < ${#NETS[@]}; k += 2)); do
    envs=${NETS[k]} lib=${NETS[k + 1]}
    # shellcheck disable=SC2086 # the library is one word or none
    p2p_check "$envs" 3 "$PROG" check $lib
    # (a sanitizer build: without AddressSanitizer's own SIGSEGV handler,
    # which would report the fault and exit with status 1, the program has
    # the default handler, as without the sanitizer)
    # shellcheck disable=SC2086 # ENV is a list of words
    err=$(env $envs ASAN_OPTIONS="${ASAN_OPTIONS:-}:handle_segv=0" timeout 60 rrun -np 3 "$PROG" segv 1 2>&1 >/dev/null); rc=$?
    label="np=3${envs:+ $envs}"
    is "$rc" 139 "$label: a segfault in rank 1 ends the job with status 139"
    like "$err" "^rrun: rank 1 \(pid [0-9]+\) was killed by signal 11 \(Segmentation fault\); ending the job$" \
        "$label: rrun's message is the only output, and names the signal"
    is "$(ls ./*.btr 2>/dev/null)" "" "$label: no .btr file in the working directory"
done
done_testing
