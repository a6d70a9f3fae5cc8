#!/bin/bash
# shellcheck disable=SC2086 # $CTL and $SRUN are command prefixes: split on purpose
# rdmpi jobs across two Slurm nodes that are network-namespace hosts
# (test/netns.sh). slurmctld runs in the control namespace (on the bridge,
# reachable from both hosts) and one slurmd in each host, with the host's
# own hostname (a UTS namespace: Slurm's node name) and a private /tmp (the
# PMIx plugin's /tmp/spmix_appdir_<uid>_<job>.<step> would collide
# otherwise); auth/none, private state in $TAP_TMP. The daemons' ports are
# in namespaces that only this test uses, so they are always free. srun,
# salloc and sinfo run in the control namespace too. Checks: 4 ranks of
# hello on 2 nodes under `srun --mpi=pmix -N 2`, each on the right node; the
# transports the library chooses (shm within a node, a network transport
# between the nodes); the collective test and the point-to-point suite
# with ranks on both nodes; rrun inside a 2-node allocation handing the
# launch to srun; ranks that fail ending the job on both nodes and leaving
# nothing behind. Every daemon and namespace goes at exit (netns_down).
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
. "$RD_SRCDIR/test/netns.sh"
for t in slurmctld slurmd srun salloc sinfo; do
    command -v "$t" >/dev/null || skip_all "$t not found (apt-get install slurm-wlm)"
done
[ "$(id -u)" = 0 ] || skip_all "starting slurmd needs root"
tap_tmpdir
netns_up 2
# netns_down stops everything still running in the namespaces (the daemons,
# their steps, any rank) and deletes them; then the daemons' shells are reaped.
trap 'netns_down; wait; rm -rf "$TAP_TMP"' EXIT
trap 'exit 1' INT TERM HUP
d=$TAP_TMP
C=$(netns_name 0)
H1=$(netns_name 1)
H2=$(netns_name 2)
CTL="nsenter --net=/run/netns/$C --"

export SLURM_CONF=$d/slurm.conf
# Job ids of this run's own (PMIx namespaces slurm.pmix.<job>.<step>, which
# name the /dev/shm segments checked below): other Slurm tests on this
# machine, this one's included, would otherwise all count from 1.
first_job=$((1000 + $$ % 60000 * 1000))
mkdir -p "$d/state" "$d/spool/$H1" "$d/spool/$H2"
# Each node has 2 CPUs whatever the machine has (config_overrides: slurmd
# takes the configuration's word): 4 ranks are 2 per node, 3 are 2 and 1.
cat >"$SLURM_CONF" <<CONF
ClusterName=rdmpinetns
SlurmctldHost=$C($(netns_addr 0))
AuthType=auth/none
CredType=cred/none
SlurmUser=root
SlurmdUser=root
SlurmctldPort=6817
SlurmdPort=6818
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool/%n
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/spool/%n/slurmd.pid
SlurmctldLogFile=$d/slurmctld.log
SlurmdLogFile=$d/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
MpiDefault=none
ReturnToService=2
FirstJobId=$first_job
SlurmdParameters=config_overrides
NodeName=$H1 NodeAddr=$(netns_addr 1) CPUs=2 State=UNKNOWN
NodeName=$H2 NodeAddr=$(netns_addr 2) CPUs=2 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
netns_exec -h "$C" 0 slurmctld -D -f "$SLURM_CONF" >"$d/slurmctld.out" 2>&1 &
ctld=$!
netns_exec -h "$H1" -t 1 slurmd -D -f "$SLURM_CONF" >"$d/slurmd1.out" 2>&1 &
sd1=$!
netns_exec -h "$H2" -t 2 slurmd -D -f "$SLURM_CONF" >"$d/slurmd2.out" 2>&1 &
sd2=$!
# both nodes must be idle before a job can start (polls sinfo, up to 30 s)
nodes=""
for _ in $(seq 300); do
    nodes=$($CTL sinfo -h -N -o '%N %t' 2>/dev/null | sort | tr '\n' ' ')
    [ "$nodes" = "$H1 idle $H2 idle " ] && break
    kill -0 "$ctld" "$sd1" "$sd2" 2>/dev/null || break
    sleep 0.1
done
is "$nodes" "$H1 idle $H2 idle " "slurmctld and a slurmd on each of the 2 namespace hosts: both nodes idle"
if [ "$nodes" != "$H1 idle $H2 idle " ]; then
    diag "$(tail -n 5 "$d"/*.log "$d"/*.out 2>/dev/null)"
    done_testing
fi

# UCX sees one machine (the namespaces share the kernel, hence its boot id)
# and picks its shared-memory transports between the hosts (sysv, posix,
# cma), which hang across network namespaces: UCX_TLS=tcp; UCX then uses
# eth0, the hosts' only interface besides lo, by itself. (The ofi transport
# needs nothing: libfabric gives it tcp;ofi_rxm on eth0.)
export UCX_TLS=tcp
# Both nodes share the machine's cores (2 here): let the ranks' waits yield.
export RDMPI_OVERSUBSCRIBED=1
SRUN="$CTL srun --mpi=pmix -N 2"

out=$(timeout -k 5 60 $SRUN -n 4 "$RD_BUILDDIR/examples/hello" 2>&1); rc=$?
is "$rc" 0 "srun --mpi=pmix -N 2 -n 4 hello: exit status"
is "$(printf '%s\n' "$out" | sort)" "Hello from rank 0 of 4 on $H1
Hello from rank 1 of 4 on $H1
Hello from rank 2 of 4 on $H2
Hello from rank 3 of 4 on $H2" "srun -N 2 -n 4: every rank says hello, ranks 0-1 on node 1 and 2-3 on node 2"

# The transports the library chooses, from its log of each connection (every
# rank of coll talks to every other): shm within a node, ucx (or ofi in a
# build without UCX) between the nodes.
net=ucx
"$RD_BUILDDIR/launcher/rdmpi_info" | grep -q '^transports:.* ucx\( \|$\)' || net=ofi
out=$(RDMPI_LOG=debug:p2p,coll timeout -k 5 60 $SRUN -n 4 "$RD_BUILDDIR/test/mpi/coll" 2>&1); rc=$?
is "$rc" 0 "coll on 2 nodes with the connection log: exit status"
is "$(printf '%s\n' "$out" | sed -n 's/^rdmpi\[\([0-3]\)\] p2p debug: rank \([0-3]\) via \([a-z]*\):.*/\1-\2 \3/p' |
      grep -v '^\(.\)-\1 self$' | sort | tr '\n' ' ')" \
    "0-1 shm 0-2 $net 0-3 $net 1-0 shm 1-2 $net 1-3 $net 2-0 $net 2-1 $net 2-3 shm 3-0 $net 3-1 $net 3-2 shm " \
    "transports chosen per peer: shm on the same node, $net between the nodes"
like "$out" "rdmpi\\[0\\] coll debug: communicator of 4 ranks over 2 nodes: two-level collectives" \
    "Slurm's node ids: the world communicator takes the two-level collectives"

# The collectives on 4 ranks (2 per node) and the suite on 3 (2 on node 1,
# 1 on node 2: a node with one rank, a node with two).
export RD_P2P_LAUNCHER="$SRUN -n"
mpi_check 4 "$RD_BUILDDIR/test/mpi/coll"
for prog in $SUITE_PROGS; do
    mpi_check 3 "$RD_BUILDDIR/test/mpi/$prog"
done

# rrun inside a 2-node allocation hands the launch to srun: the ranks land on
# both nodes (salloc runs rrun in the control namespace, off the nodes).
out=$(timeout -k 5 60 $CTL salloc -N 2 -n 4 "$RD_BUILDDIR/launcher/rrun/rrun" -np 4 --tag-output \
    "$RD_BUILDDIR/examples/hello" 2>&1); rc=$?
is "$rc" 0 "salloc -N 2 -n 4 rrun -np 4 hello: exit status"
[ "$rc" -eq 0 ] || diag "$out"
is "$(printf '%s\n' "$out" | grep '^ *[0-9]*: ' | sed 's/^ *//' | sort)" "0: Hello from rank 0 of 4 on $H1
1: Hello from rank 1 of 4 on $H1
2: Hello from rank 2 of 4 on $H2
3: Hello from rank 3 of 4 on $H2" "rrun inside a 2-node allocation: srun runs the ranks on both nodes"

# A failing rank ends the job: no rank left on either node, no shared-memory
# segment left in /dev/shm (both hosts share the machine's /dev/shm).
# fail_check NAME PIDS NSPACE: every pid in PIDS is gone, no segment of
# NSPACE is left.
fail_check() {
    local p f left="" segs=""
    for p in $2; do
        kill -0 "$p" 2>/dev/null && left="$left $p"
    done
    is "$left" "" "$1: no rank is left running on either node"
    for f in /dev/shm/rdmpi-"$3"-*; do
        [ -e "$f" ] && segs="$segs $f"
    done
    is "$segs" "" "$1: no /dev/shm/rdmpi-$3-* segment is left"
}
# Each rank runs through a shell that prints its pid and the job's PMIx
# namespace, then execs PROG (the pid stays): fail_run NAME LAUNCHER... runs
# `LAUNCHER sh -c ... PROG ARGS` and sets out, rc, pids and nspace.
fail_run() {
    local name=$1
    shift
    out=$(timeout -k 5 60 "$@" 2>&1); rc=$?
    pids=$(printf '%s\n' "$out" | sed -n 's/^start [0-3] pid \([0-9]*\) nspace .*/\1/p')
    nspace=$(printf '%s\n' "$out" | sed -n 's/^start [0-3] pid [0-9]* nspace //p' | sort -u)
    is "$(printf '%s\n' "$pids" | wc -w)" 4 "$name: every rank had started"
    like "$nspace" '^slurm\.pmix\.[0-9]+\.[0-9]+$' "$name: one PMIx namespace, Slurm's"
}
# shellcheck disable=SC2016 # expanded by the ranks' shells
WRAP='echo "start $SLURM_PROCID pid $$ nspace $PMIX_NAMESPACE"; [ "$SLURM_PROCID" = "$1" ] && exit 3; shift; exec "$@"'
MPI_EXIT=$RD_BUILDDIR/test/progs/mpi_exit

# Rank 3 (node 2) exits 3 after MPI_Init while the others wait in MPI_Recv:
# Slurm's PMIx plugin sees a client go without finalizing and kills the
# step (SIGKILL: srun's status is 128 + 9).
fail_run "rank 3 exits 3 after MPI_Init" $SRUN -n 4 sh -c "$WRAP" sh -1 "$MPI_EXIT" 3 3
is "$rc" 137 "rank 3 exits 3 after MPI_Init: srun kills the step, exit status 137"
like "$out" "^srun: error: $H2: task 3: Exited with exit code 3\$" "rank 3 exits 3: srun names the task, its node and the exit code"
fail_check "rank 3 exits 3" "$pids" "$nspace"

# Rank 1 (node 1) exits 3 before MPI_Init, while the others wait in
# MPI_Init for it (node 1's shared-memory segment made, not yet attached by
# all): with Slurm's default (KillOnBadExit=0) nothing ends the others, so
# srun needs --kill-on-bad-exit (-K); rrun inside an allocation passes it.
# Slurm then sends the others SIGTERM; each either dies of it or sees its
# PMIx fence fail first and exits 1: srun's status is the highest, 143
# (128 + 15) or rank 1's 3.
# one_of GOT V...: GOT if it is one of the Vs, else "none of V...".
one_of() {
    local got=$1 v
    shift
    for v in "$@"; do
        [ "$got" = "$v" ] && { echo "$got"; return; }
    done
    echo "none of $*"
}
fail_run "srun -K, rank 1 exits 3 before MPI_Init" $SRUN -n 4 -K sh -c "$WRAP" sh 1 "$MPI_EXIT" -1 0
is "$(one_of "$rc" 3 143)" "$rc" "srun -K, rank 1 exits 3 before MPI_Init: srun exits 3 or 143"
like "$out" "^srun: error: $H1: task 1: Exited with exit code 3\$" \
    "srun -K, rank 1 exits 3 before MPI_Init: srun names the task, its node and the exit code"
fail_check "srun -K, rank 1 exits 3 before MPI_Init" "$pids" "$nspace"
fail_run "salloc rrun, rank 1 exits 3 before MPI_Init" $CTL salloc -N 2 -n 4 \
    "$RD_BUILDDIR/launcher/rrun/rrun" -np 4 sh -c "$WRAP" sh 1 "$MPI_EXIT" -1 0
is "$(one_of "$rc" 3 143)" "$rc" "salloc rrun, rank 1 exits 3 before MPI_Init: exit status 3 or 143"
fail_check "salloc rrun, rank 1 exits 3 before MPI_Init" "$pids" "$nspace"
done_testing
