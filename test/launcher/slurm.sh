#!/bin/bash
# rdmpi programs under Slurm: a single-node Slurm (slurmctld and slurmd
# started here, auth/none, private state in a temporary directory, ports
# of this test's own) runs them with `srun --mpi=pmix`, the PMIx plugin of
# Debian's slurm-wlm; the daemons are stopped at the end.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
for t in slurmctld slurmd srun salloc sinfo; do
    command -v "$t" >/dev/null || skip_all "$t not found (apt-get install slurm-wlm)"
done
[ "$(id -u)" = 0 ] || skip_all "starting slurmd needs root"
tap_tmpdir
d=$TAP_TMP
host=$(hostname -s)
sd="" ctld=""
stop() {
    [ -n "$sd$ctld" ] && kill $sd $ctld 2>/dev/null
    [ -n "$sd$ctld" ] && wait $sd $ctld 2>/dev/null
    sd="" ctld=""
}
trap 'stop; rm -rf "$TAP_TMP"' EXIT
export SLURM_CONF=$d/slurm.conf
# start the daemons; a taken port makes them exit at once: then try others
state=""
for attempt in 1 2 3; do
    port=$((20000 + ($$ * 7 + attempt * 977) % 20000))
    rm -rf "$d/state" "$d/spool"
    mkdir -p "$d/state" "$d/spool"
    cat >"$SLURM_CONF" <<CONF
ClusterName=rdmpitest
SlurmctldHost=$host
AuthType=auth/none
CredType=cred/none
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/slurmctld.log
SlurmdLogFile=$d/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
MpiDefault=none
ReturnToService=2
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
    slurmctld -D -f "$SLURM_CONF" >"$d/slurmctld.out" 2>&1 &
    ctld=$!
    slurmd -D -f "$SLURM_CONF" >"$d/slurmd.out" 2>&1 &
    sd=$!
    # the node must be idle before a job can start (polls sinfo, up to 30 s)
    for _ in $(seq 300); do
        state=$(sinfo -h -o %t 2>/dev/null | head -n1)
        [ "$state" = idle ] && break
        if ! kill -0 "$sd" 2>/dev/null || ! kill -0 "$ctld" 2>/dev/null; then
            break
        fi
        sleep 0.1
    done
    [ "$state" = idle ] && break
    stop
done
is "$state" idle "the single-node Slurm is up"
if [ "$state" != idle ]; then
    diag "$(tail -n 5 "$d/slurmctld.log" "$d/slurmd.log" 2>/dev/null)"
    done_testing
fi
export RD_P2P_LAUNCHER="srun --mpi=pmix -O -n"
out=$(timeout -k 5 60 srun --mpi=pmix -O -n 4 "$RD_BUILDDIR/examples/hello" 2>&1); rc=$?
is "$rc" 0 "srun --mpi=pmix -n 4 hello: exit status"
is "$(printf '%s\n' "$out" | grep -c '^Hello from rank [0-3] of 4')" 4 "srun: every rank of 4 says hello with its rank"
# rrun inside an allocation hands the launch to srun
out=$(timeout -k 5 60 salloc -n 4 -O "$RD_BUILDDIR/launcher/rrun/rrun" -np 4 --tag-output \
    "$RD_BUILDDIR/examples/hello" 2>&1); rc=$?
is "$rc" 0 "salloc ... rrun -np 4 hello: exit status"
is "$(printf '%s\n' "$out" | grep -c '^ *[0-3]: Hello from rank [0-3] of 4')" 4 \
    "rrun inside an allocation runs the ranks through srun (--tag-output as srun --label)"
out=$(RDMPI_RRUN_SRUN=0 timeout -k 5 60 salloc -n 2 -O "$RD_BUILDDIR/launcher/rrun/rrun" -np 2 \
    "$RD_BUILDDIR/examples/hello" 2>&1); rc=$?
is "$rc" 0 "salloc ... rrun with RDMPI_RRUN_SRUN=0: exit status"
is "$(printf '%s\n' "$out" | grep -c '^Hello from rank [01] of 2')" 2 "RDMPI_RRUN_SRUN=0: rrun launches itself"
mpi_check 4 "$RD_BUILDDIR/test/mpi/coll"
mpi_check 2 "$RD_BUILDDIR/test/mpi/p2p_order"
done_testing
