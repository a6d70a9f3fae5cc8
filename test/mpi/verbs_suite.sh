#!/bin/bash
# verbs_suite.sh - the verbs transport's tests on the verbs devices of the
# machine it runs on: test/mpi/verbs.sh runs it directly where a device
# exists, else inside a VM with soft-RoCE (rxe0) and soft-iWARP (siw0).
# Prints TAP (without the plan when VB_SUITE_NO_PLAN=1: the caller adds
# its own points and the plan).
#
# Devices: RDMPI_TEST_VERBS_DEVICES ("rxe0 siw0"), else every device in
# /sys/class/infiniband. Per device (every rank pair forced through verbs):
#   - the suite (lib.sh's SUITE_PROGS on 3 ranks, the size-sensitive ones
#     under rendezvous by RDMA read and by RDMA write on 2): InfiniBand and
#     RoCE with both wire-ups (PMIx, rdma_cm), iWARP with rdma_cm
#   - buffers freed and allocated again between messages (p2p_reuse): the
#     registration cache's exact hits, misses and invalidations, and the
#     same with the cache off
#   - connections made on first use only (rdma_cm): ranks in pairs get one
#     connection each; everyone connecting to everyone at once resolves
#     every simultaneous connect the same way
# (The error tests and the atomics test join as verbs_errors / verbs_unit.)
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"

B=$RD_BUILDDIR
devices=${RDMPI_TEST_VERBS_DEVICES:-$(ls /sys/class/infiniband 2>/dev/null)}
is_iwarp() { case $(cat "/sys/class/infiniband/$1/node_type" 2>/dev/null) in 4:*) return 0 ;; esac; return 1; }
args_of() { [ "$1" = p2p_large ] && echo "20 24"; } # small enough for the VM (2 GiB)
t0=$SECONDS
since() { echo "$((SECONDS - t0)) s"; }

# suite "ENV": every program of SUITE_PROGS, then the sized ones by get and put
suite() {
    local prog proto
    for prog in $SUITE_PROGS; do
        # shellcheck disable=SC2046 # the arguments are words
        p2p_check "$1" 3 "$B/test/mpi/$prog" $(args_of "$prog")
    done
    for proto in get put; do
        for prog in $SUITE_SIZED_PROGS; do
            # shellcheck disable=SC2046
            p2p_check "$1 RDMPI_EAGER_LIMIT=1 RDMPI_RNDV_PROTOCOL=$proto" 2 "$B/test/mpi/$prog" $(args_of "$prog")
        done
    done
}

# log_count RANK REGEX: lines of rank RANK's verbs debug log in P2P_OUT matching REGEX
log_count() { printf '%s\n' "$P2P_OUT" | grep -cE "^rdmpi\[$1\] verbs debug: $2"; }

# reuse "ENV": the registration cache under memory freed and taken again
reuse() {
    local proto r
    for proto in get put; do
        p2p_check "$1 RDMPI_EAGER_LIMIT=1 RDMPI_RNDV_PROTOCOL=$proto RDMPI_LOG=debug:verbs" 2 "$B/test/mpi/p2p_reuse"
        for r in 0 1; do
            is "$(printf '%s\n' "$P2P_OUT" | sed -n "s/^rdmpi\[$r\] verbs debug: registration cache: //p")" \
                "9 hits, 9 misses, 9 invalidated, 0 evicted" \
                "$1 $proto: rank $r's cache: the second send of each round hits, every free() invalidates"
        done
    done
    p2p_check "$1 RDMPI_VERBS_RCACHE_MAX=0 RDMPI_LOG=debug:verbs" 2 "$B/test/mpi/p2p_reuse"
    for r in 0 1; do
        is "$(printf '%s\n' "$P2P_OUT" | sed -n "s/^rdmpi\[$r\] verbs debug: registration cache: //p")" \
            "0 hits, 18 misses, 0 invalidated, 0 evicted" "$1 cache off: rank $r registers every message"
    done
}

# peers "ENV": rdma_cm connects on first use only, and simultaneous connects
peers() {
    local r
    p2p_check "$1 RDMPI_VERBS_CM=rdmacm RDMPI_LOG=debug:verbs" 4 "$B/test/mpi/p2p_peers" pairs
    for r in 0 1 2 3; do
        is "$(log_count $r 'rdma_cm: connected to rank')" 1 "$1 pairs: rank $r connected to its one peer only"
    done
    p2p_check "$1 RDMPI_VERBS_CM=rdmacm RDMPI_LOG=debug:verbs" 4 "$B/test/mpi/p2p_peers" all
    for r in 0 1 2 3; do
        is "$(log_count $r 'rdma_cm: connected to rank'):$(log_count $r 'rdma_cm: accepted rank'):$(log_count $r "rdma_cm: rank [0-9]+'s request refused")" \
            "3:$r:$((3 - r))" \
            "$1 all at once: rank $r connected to 3 peers, accepting the $r lower ranks' requests, refusing the $((3 - r)) higher ones'"
    done
}

ndev=0
for dev in $devices; do
    [ -e "/sys/class/infiniband/$dev" ] || { ok 1 "device $dev exists"; continue; }
    ndev=$((ndev + 1))
    base="RDMPI_TRANSPORTS=verbs RDMPI_VERBS_DEVICE=$dev"
    if is_iwarp "$dev"; then
        modes="rdmacm"
    else
        modes="pmix rdmacm"
    fi
    for cm in $modes; do
        diag "$dev, wire-up by $cm: the suite ($(since))"
        suite "$base RDMPI_VERBS_CM=$cm"
    done
    diag "$dev: registration cache ($(since))"
    reuse "$base"
    diag "$dev: connections ($(since))"
    peers "$base"
done
[ "$ndev" -gt 0 ] || ok 1 "a verbs device to test (devices: '$devices')"
if [ "${RDMA_VM:-}" = 1 ] && [ ! -e /sys/class/infiniband/siw0 ]; then
    skip "siw0 (soft-iWARP) missing in the VM: building siw.ko needs linux-source, linux-headers-amd64, gcc, make"
fi
diag "verbs suite: $_tap_n test points in $(since)"
[ "${VB_SUITE_NO_PLAN:-0}" = 1 ] && exit 0
done_testing
