#!/bin/bash
# rrun across hosts that are network namespaces (test/netns.sh): each host
# has its own network stack, joined to the others by a bridge, and rrun
# reaches it through a launch agent that enters the namespace
# (agent_netns.sh). Ranks on one host use shared memory; ranks on
# different hosts can only talk through the network transports, over the
# namespaces' eth0. Runs the whole test-program suite across the hosts
# with automatic transport choice, and with ucx and ofi forced; a failure
# on one host ends the job everywhere.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
. "$RD_SRCDIR/test/netns.sh"
tap_tmpdir
netns_up 2
trap 'netns_down; rm -rf "$TAP_TMP"' EXIT
trap 'exit 1' INT TERM HUP
H1=$(netns_name 1)
H2=$(netns_name 2)
AGENT="$RD_SRCDIR/test/launcher/agent_netns.sh"
ON_HOSTS="rrun --launch-agent $AGENT --host $H1:2,$H2:2"
# The network transports use the hosts' link (the only way between them).
export UCX_TLS=tcp UCX_NET_DEVICES=eth0 FI_PROVIDER=tcp FI_TCP_IFACE=eth0
# Two hosts of two ranks on two cores: let the waits yield.
export RDMPI_OVERSUBSCRIBED=1

out=$(timeout -k 5 60 $ON_HOSTS "$RD_BUILDDIR/examples/hello" 2>&1); rc=$?
is "$rc" 0 "4 ranks on 2 namespace hosts: exit status"
is "$(printf '%s\n' "$out" | sort)" "Hello from rank 0 of 4 on $H1
Hello from rank 1 of 4 on $H1
Hello from rank 2 of 4 on $H2
Hello from rank 3 of 4 on $H2" "4 ranks on 2 namespace hosts: every rank, on its host"
# each host's ranks really live in that host's network namespace
out=$(timeout -k 5 60 $ON_HOSTS sh -c 'echo "$PMIX_RANK $(readlink /proc/self/ns/net)"' 2>&1)
is "$(printf '%s\n' "$out" | sort | cut -d' ' -f1 | tr '\n' ' ')" "0 1 2 3 " "namespace probe: every rank reported"
nets=$(printf '%s\n' "$out" | sort | awk '{print $2}')
is "$(printf '%s\n' "$nets" | sed -n 1p)" "$(printf '%s\n' "$nets" | sed -n 2p)" "ranks 0 and 1 share host 1's network namespace"
is "$(printf '%s\n' "$nets" | sed -n 3p)" "$(printf '%s\n' "$nets" | sed -n 4p)" "ranks 2 and 3 share host 2's network namespace"
isnt() { if [ "$1" != "$2" ]; then ok 0 "$3"; else ok 1 "$3"; diag "both: '$1'"; fi; }
isnt "$(printf '%s\n' "$nets" | sed -n 1p)" "$(printf '%s\n' "$nets" | sed -n 3p)" "hosts 1 and 2 have different network namespaces"
isnt "$(printf '%s\n' "$nets" | sed -n 1p)" "$(readlink /proc/self/ns/net)" "host 1 is not the test's own namespace"

# The suite: 3 ranks (2 on host 1, 1 on host 2), transports chosen per peer,
# then each network transport forced for every pair, with the rendezvous
# protocols. (Only what a build has: a missing transport is skipped.)
# p2p_large moves 20 MiB and 24 MiB here, not 2 GiB: what the hosts change
# is how the transports find and reach each other, the same for any size;
# a message beyond 2 GiB through each network transport and protocol is
# ucx.sh's and ofi.sh's (loopback), where it costs a third as much (each
# 2 GiB job here took 8-17 s of both cores, ~90 s in all).
NETNS_LARGE_ARGS="20 24"
args_of() { [ "$1" != p2p_large ] || echo "$NETNS_LARGE_ARGS"; }
RD_P2P_LAUNCHER="$ON_HOSTS -np"
for prog in $SUITE_PROGS; do
    # shellcheck disable=SC2046 # the program's arguments, words
    p2p_check "" 3 "$RD_BUILDDIR/test/mpi/$prog" $(args_of "$prog")
done
# 2 ranks per host: the collectives of MPI_COMM_WORLD go in two levels
out=$(RDMPI_LOG=debug:coll timeout -k 5 60 $ON_HOSTS -np 4 "$RD_BUILDDIR/test/mpi/coll" 2>&1); rc=$?
is "$rc" 0 "coll on 4 ranks over 2 hosts, with the collectives' log: exit status"
like "$out" "rdmpi\\[0\\] coll debug: communicator of 4 ranks over 2 nodes: two-level collectives" \
    "the world communicator is seen over 2 nodes and takes the two-level algorithms"
for t in ucx ofi; do
    if ! "$RD_BUILDDIR/launcher/rdmpi_info" | grep -q "^transports:.* $t\( \|\$\)"; then
        skip "the $t transport is not built"
        continue
    fi
    for prog in p2p_order p2p_wild p2p_probe p2p_sync p2p_large p2p_stress coll comm intercomm; do
        # shellcheck disable=SC2046 # the program's arguments, words
        p2p_check "RDMPI_TRANSPORTS=$t" 4 "$RD_BUILDDIR/test/mpi/$prog" $(args_of "$prog")
    done
    for proto in get put; do
        # shellcheck disable=SC2086 # the program's arguments, words
        p2p_check "RDMPI_TRANSPORTS=$t RDMPI_EAGER_LIMIT=1 RDMPI_RNDV_PROTOCOL=$proto" 4 \
            "$RD_BUILDDIR/test/mpi/p2p_large" $NETNS_LARGE_ARGS
    done
done

# The same binaries across the same hosts under Open MPI's mpirun (another
# PMIx launcher): it runs in the control namespace (its daemons connect back
# to it over the bridge) and enters the hosts through its rsh agent.
if [ -n "${RD_OMPI_MPIRUN:-}" ]; then
    printf '%s slots=2\n%s slots=2\n' "$H1" "$H2" >"$TAP_TMP/hostfile"
    printf '#!/bin/sh\nns=$1\nshift\nexec nsenter --net="/run/netns/$ns" -- sh -c "$*"\n' >"$TAP_TMP/rsh"
    chmod +x "$TAP_TMP/rsh"
    RD_P2P_LAUNCHER="nsenter --net=/run/netns/$(netns_name 0) -- $RD_OMPI_MPIRUN --allow-run-as-root --oversubscribe
        --hostfile $TAP_TMP/hostfile --mca plm_rsh_agent $TAP_TMP/rsh --mca oob_tcp_if_include br0,eth0
        -x UCX_TLS -x UCX_NET_DEVICES -x FI_PROVIDER -x FI_TCP_IFACE -x RDMPI_OVERSUBSCRIBED -np"
    out=$($RD_P2P_LAUNCHER 4 "$RD_BUILDDIR/examples/hello" 2>&1); rc=$?
    is "$rc" 0 "Open MPI's mpirun across the namespace hosts: exit status"
    [ "$rc" = 0 ] || diag "$(printf '%s\n' "$out" | tail -n 20)"
    # (only the ranks' lines: mpirun may add warnings of its own)
    is "$(printf '%s\n' "$out" | grep '^Hello' | sort)" "Hello from rank 0 of 4 on $H1
Hello from rank 1 of 4 on $H1
Hello from rank 2 of 4 on $H2
Hello from rank 3 of 4 on $H2" "Open MPI's mpirun across the namespace hosts: every rank, on its host"
    p2p_check "" 4 "$RD_BUILDDIR/test/mpi/coll"
    # shellcheck disable=SC2086 # the program's arguments, words
    p2p_check "" 4 "$RD_BUILDDIR/test/mpi/p2p_large" $NETNS_LARGE_ARGS
else
    skip "Open MPI's mpirun not found (apt-get install openmpi-bin)"
fi

# A rank killed on host 2 ends the job on both hosts, and nothing is left in them.
tap_out=$(timeout -k 5 60 $ON_HOSTS "$RD_BUILDDIR/test/progs/rrun_fail" kill 3 2>&1); rc=$?
is "$rc" 137 "rank 3 killed on host 2: exit 137"
like "$tap_out" "^rrun: rank 3 \\(pid [0-9]+ on $H2\\) was killed by signal 9 \\(Killed\\); ending the job\$" \
    "rank 3 killed on host 2: one message naming the rank and its host"
is "$(netns_pids 1)$(netns_pids 2)" "" "no process is left in either host"
done_testing
