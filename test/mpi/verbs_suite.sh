#!/bin/bash
# verbs_suite.sh - the verbs transport's tests on the verbs devices of the
# machine it runs on: test/mpi/verbs.sh runs it directly where a device
# exists, else inside a VM with soft-RoCE (rxe0) and soft-iWARP (siw0).
# Prints TAP (without the plan when VB_SUITE_NO_PLAN=1: the caller adds
# its own points and the plan).
#
# Devices: RDMPI_TEST_VERBS_DEVICES ("rxe0 siw0"), else every device in
# /sys/class/infiniband. Per device (every rank pair forced through verbs):
#   - the transport alone through its contract (test/unit/tl_contract_verbs,
#     the contract test every transport runs: active messages of every
#     size, streams beyond the credits, get/put of odd sizes and offsets,
#     atomics where the device has them), under each wire-up
#   - what the transport changes at the MPI level, once (suite below: the
#     sized programs by default and with every message by RDMA read and by
#     RDMA write, coll, p2p_stress, p2p_threads, p2p_storm: 64 receives and
#     64 sends at once per pair, every completion call): on the first
#     device that is not iWARP, with its first wire-up (PMIx); every other
#     device and wire-up runs what they change (wireup below: coll,
#     p2p_storm, p2p_large by read and write): the data path above the
#     connection is the same code
#   - on the suite's device: buffers freed and allocated again between
#     messages (p2p_reuse): the registration cache's exact hits, misses and
#     invalidations, and the same with the cache off; and a deadlock over
#     verbs: rrun's report (--timeout) shows each rank's verbs state, its
#     endpoint's connection, QP and credits
#   - connections made on first use only (rdma_cm): ranks in pairs get one
#     connection each; everyone connecting to everyone at once resolves
#     every simultaneous connect the same way (on iWARP, 4 more times)
#   - failures: a QP in the error state, a wrong remote key, a peer whose
#     QP vanished (retry exceeded) — provoked by RDMPI_VERBS_FAULT — each
#     ends the job through the launcher, promptly, with the peer's rank and
#     the verbs status in the message, no rank left behind
#   - one-sided windows (rma below): Put/Get by RDMA, the device's atomics
#     on and off (rxe), the active-message path forced once
#   - in the VM only, last: the device removed under a running job
# A job that outlives MPIEXEC_TIMEOUT (P2P_TIMEOUT - 15 s; P2P_TIMEOUT is
# 120 s, 300 s in the VM) is ended by rrun,
# whose report of what every rank waits for (and what verbs holds) the
# failing point shows: a stall is then told from slowness.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"

B=$RD_BUILDDIR
parts=${VB_SUITE_PARTS:-unit suite reuse peers rma report faults gone} # for working on one part
part() { case " $parts " in *" $1 "*) return 0 ;; esac; return 1; }
devices=${RDMPI_TEST_VERBS_DEVICES:-$(ls /sys/class/infiniband 2>/dev/null)}
is_iwarp() { case $(cat "/sys/class/infiniband/$1/node_type" 2>/dev/null) in 4:*) return 0 ;; esac; return 1; }
# p2p_large: 9 and 10 MiB, not 2 GiB: large enough that an RDMA read or
# write is cut at the device's max_msg_sz (rxe: 8 MiB) with a remainder,
# small enough for the VM, where rxe moves ~10 MB/s
args_of() { [ "$1" = p2p_large ] && echo "9 10"; }
# p2p_storm: 6 rounds (each completion call), 64 messages each way per pair,
# of up to 256 KiB (eager and rendezvous alike; 1 MiB on the host)
STORM_ARGS="6 64 262144"
t0=$SECONDS
since() { echo "$((SECONDS - t0)) s"; }
# A job still running 15 s before p2p_check's timeout is ended by rrun
# itself, which first says what every rank waits for and what verbs holds
# (so that a stall can be told from slowness; p2p_check shows it)
# In the VM (software emulation) a job takes 10-50 times as long as on a
# device, and a host busy with other work (make -j check beside it, other
# VMs) stretches that again, 2-4 times seen: the limits there are 2.5
# times longer (SLOW), so that slowness is not taken for a stall. A stall
# still ends with rrun's report, later.
SLOW=1
[ "${RDMA_VM:-}" = 1 ] && SLOW=2.5
limit() { awk -v s="$SLOW" -v l="$1" 'BEGIN { printf "%d\n", s * l }'; } # limit SECONDS: scaled
P2P_TIMEOUT=${P2P_TIMEOUT:-$(limit 120)}
export MPIEXEC_TIMEOUT=${MPIEXEC_TIMEOUT:-$((P2P_TIMEOUT - 15))}

# suite "ENV": on one device and wire-up, what the transport changes at the
# MPI level, as for ucx and ofi (lib.sh, transport_suite): the sized
# programs by default, then every message by rendezvous with RDMA read
# (get) and with RDMA write (put); the collectives (every pair of 3 ranks
# at once); 64 receives and 64 sends at once per pair (p2p_storm: 6 rounds
# run every completion call); many messages of mixed sizes (p2p_stress:
# credits and send-queue room); threads (p2p_threads: the transport under
# MPI_THREAD_MULTIPLE). The rest of SUITE_PROGS (matching, probes,
# communicators, topologies, datatypes, ...) runs above the transport
# contract in code that is the same for every transport: it runs over shm
# (and once over ucx and ofi's lazy connections), and the transport itself
# is the contract test's (unit): test/README.md, "The verbs suite".
suite() {
    local prog proto
    for prog in $SUITE_SIZED_PROGS coll p2p_stress p2p_threads; do
        # shellcheck disable=SC2046 # the arguments are words
        p2p_check "$1" 3 "$B/test/mpi/$prog" $(args_of "$prog")
    done
    # shellcheck disable=SC2086 # the arguments are words
    p2p_check "$1" 2 "$B/test/mpi/p2p_storm" $STORM_ARGS
    for proto in get put; do
        for prog in $SUITE_SIZED_PROGS; do
            # shellcheck disable=SC2046
            p2p_check "$1 RDMPI_EAGER_LIMIT=1 RDMPI_RNDV_PROTOCOL=$proto" 2 "$B/test/mpi/$prog" $(args_of "$prog")
        done
    done
}

# wireup "ENV": on a device whose whole suite ran under another wire-up,
# what the wire-up changes (when and how each QP is connected; the data path
# after it is the same code): the transport's contract under this wire-up
# ran already (unit), the connections themselves are peers' (first use
# only, all at once) and faults' and gone's; here the jobs that connect
# under load: every pair of 3 ranks at once inside the collectives (coll),
# 64 receives and sends at once per pair (p2p_storm), and rendezvous by
# RDMA read and by RDMA write on a connection made by the first message
# (p2p_large). The whole suite runs once, over PMIx on RoCE (rxe0); siw0
# (iWARP, rdma_cm) and rxe0 over rdma_cm run this: test/README.md,
# "The verbs suite", says why once is enough.
wireup() {
    local proto
    p2p_check "$1" 3 "$B/test/mpi/coll"
    # shellcheck disable=SC2086 # the arguments are words
    p2p_check "$1" 2 "$B/test/mpi/p2p_storm" $STORM_ARGS
    for proto in get put; do
        # shellcheck disable=SC2046
        p2p_check "$1 RDMPI_EAGER_LIMIT=1 RDMPI_RNDV_PROTOCOL=$proto" 2 "$B/test/mpi/p2p_large" $(args_of p2p_large)
    done
}

# log_count RANK REGEX: lines of rank RANK's verbs debug log in P2P_OUT matching REGEX
log_count() { printf '%s\n' "$P2P_OUT" | grep -cE "^rdmpi\[$1\] verbs debug: $2"; }
log_count_p2p() { printf '%s\n' "$P2P_OUT" | grep -cE "^rdmpi\[$1\] p2p debug: $2"; }

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

# rma "ENV" DEV: one-sided windows over verbs (runtime/rma/rdma.c), every
# target forced onto the network's paths (the VM's ranks share a node):
# Put and Get by RDMA write and read; where the device has atomics (rxe),
# accumulates on 8-byte elements and the passive-target locks by them
# (every rank reaches itself by a loopback QP), and then with them off
# (RDMPI_RMA_HW_ATOMICS=no: active messages); the active-message path
# forced once. Exact values throughout: rma_atomic (4 x 10,000
# Fetch_and_op by the device, every fetched value once, 200 where they go
# by messages; a CAS lock loses no update; derived accumulates),
# rma_core (every call), and passive progress on a
# busy target (rma_core_progress) with no progress thread where locks are
# the device's atomics (no target CPU), with it where they are messages.
rma() {
    local env="$1 RDMPI_RMA_PATH=rdma" dev=$2 atom hw
    rma_row() { printf '%s\n' "$P2P_OUT" | grep -m1 'rdmpi\[0\] rma debug: window 0 (flavour 2)'; }
    p2p_check "$env RDMPI_LOG=debug:rma" 3 "$B/test/mpi/rma_core"
    atom=$(printf '%s\n' "$P2P_OUT" | grep -m1 'rdmpi\[0\] rma debug: window 0: RDMA by verbs (atomics: ' |
        sed 's/.*(atomics: \([a-z]*\)).*/\1/')
    ok $([ -n "$atom" ]; echo $?) "$dev: windows by RDMA on verbs (the device's atomics: ${atom:-?})"
    hw=no
    # iWARP has no loopback QP (its QPs connect through rdma_cm only)
    [ "$atom" = yes ] && ! is_iwarp "$dev" && hw=yes
    if [ "$hw" = yes ]; then
        like "$(rma_row)" '0:self[+]hw-atomic 1:hw-atomic 2:hw-atomic$' \
            "$dev: rank 0's path table: RDMA and the device's atomics, itself by its loopback QP"
        # 4 x 10,000 Fetch_and_op by the device (the 32-bit counter, whose
        # elements go by messages, and the rest cut to 100 rounds: the
        # emulated device is slow)
        p2p_check "$env" 4 "$B/test/mpi/rma_atomic" 10000 100
        p2p_check "$env" 3 "$B/test/mpi/rma_core_progress"
        p2p_check "$env RDMPI_RMA_HW_ATOMICS=no RDMPI_LOG=debug:rma" 4 "$B/test/mpi/rma_atomic" 200 50
        like "$(rma_row)" '0:self 1:rdma 2:rdma 3:rdma$' "$dev: RDMPI_RMA_HW_ATOMICS=no: RDMA, accumulates and locks by messages"
    else
        like "$(rma_row)" '0:self 1:rdma 2:rdma$' "$dev: rank 0's path table: RDMA, accumulates and locks by messages"
        p2p_check "$env" 4 "$B/test/mpi/rma_atomic" 100 30
        p2p_check "$env RDMPI_RMA_PROGRESS_THREAD=yes" 3 "$B/test/mpi/rma_core_progress"
    fi
}

# peers "ENV": rdma_cm connects on first use only, and simultaneous connects
peers() {
    local r
    p2p_check "$1 RDMPI_VERBS_CM=rdmacm RDMPI_LOG=debug:verbs" 4 "$B/test/mpi/p2p_peers" pairs
    for r in 0 1 2 3; do
        is "$(log_count $r 'rdma_cm: connected to rank')" 1 "$1 pairs: rank $r connected to its one peer only"
    done
    if ! is_iwarp "$dev"; then
        # auto: a job of at least RDMPI_VERBS_LAZY_MIN ranks connects on first use
        p2p_check "$1 RDMPI_VERBS_CM=auto RDMPI_VERBS_LAZY_MIN=4 RDMPI_LOG=debug:verbs" 4 "$B/test/mpi/p2p_peers" pairs
        for r in 0 1 2 3; do
            is "$(log_count $r 'rdma_cm: connected to rank'):$(log_count $r 'pmix wire-up')" 1:0 \
                "$1 auto, 4 ranks >= RDMPI_VERBS_LAZY_MIN=4: rank $r connects on first use, to its one peer"
        done
        p2p_check "$1 RDMPI_VERBS_CM=auto RDMPI_VERBS_LAZY_MIN=5 RDMPI_LOG=debug:verbs" 4 "$B/test/mpi/p2p_peers" pairs
        for r in 0 1 2 3; do
            is "$(log_count $r 'pmix wire-up: 3 QPs connected')" 1 \
                "$1 auto, 4 ranks < RDMPI_VERBS_LAZY_MIN=5: rank $r wires its 3 QPs up at start-up"
        done
    fi
    if is_iwarp "$dev"; then
        # siw's connection set-up had races that hit now and then (the
        # accepting side's first message, data before its socket is the
        # QP's): everyone connecting at once, a few more times
        local i
        for i in 1 2 3 4; do
            p2p_check "$1 RDMPI_VERBS_CM=rdmacm" 4 "$B/test/mpi/p2p_peers" all
        done
    fi
    p2p_check "$1 RDMPI_VERBS_CM=rdmacm RDMPI_LOG=debug:verbs" 4 "$B/test/mpi/p2p_peers" all
    # every rank posted its sends before anything progressed: each pair
    # connects both ways at once, and the lower rank's request is the one
    # (the higher one's is refused, or dropped once it is not needed)
    for r in 0 1 2 3; do
        is "$(log_count $r 'rdma_cm: connected to rank'):$(log_count $r 'rdma_cm: accepted rank')" "3:$r" \
            "$1 all at once: rank $r has one connection to each of 3 peers, accepting the $r lower ranks' requests"
        ok "$([ "$(log_count $r "rdma_cm: rank [0-9]+'s request refused")" -le $((3 - r)) ]; echo $?)" \
            "$1 all at once: rank $r refuses only higher ranks' requests"
    done
}

# report "ENV" DEV: a deadlock over verbs (test/mpi/hang cycle): rrun's
# report, asked for (rrun --report-pending) once both ranks wait in their
# receive, shows the transport's state on each rank. (That the --timeout
# prints the same report before it ends a job is rrun_report.sh's: it is the
# launcher's, not the transport's.) The job is then ended by SIGTERM. Asking
# rather than waiting out a --timeout long enough for a loaded VM to reach
# the deadlock (45 s) costs a few seconds, and the ranks' waits sleep
# between polls (RDMPI_WAIT_SLEEP) instead of keeping the VM's cores busy.
report() {
    local out='' rc r rp dir i
    dir=$(mktemp -d "${TMPDIR:-/tmp}/verbs-report.XXXXXX")
    # shellcheck disable=SC2086
    env $1 RDMPI_WAIT_SLEEP=1000 RRUN_TEST_DIR="$dir" rrun --timeout "$(limit 120)" -np 2 "$B/test/mpi/hang" cycle \
        >/dev/null 2>&1 &
    rp=$!
    # (env execs rrun: rp is rrun's pid) both ranks marked ready just before
    # their receive; ask until the report shows both in MPI_Recv (bounded:
    # the job's own --timeout)
    for ((i = 0; i < $(limit 120) * 10; i++)); do
        if [ -e "$dir/ready.0" ] && [ -e "$dir/ready.1" ]; then
            out=$(rrun --report-pending "$rp" 2>&1)
            [ "$(printf '%s\n' "$out" | grep -cE '^rrun:   rank [01] \(pid [0-9]+\) in MPI_Recv')" = 2 ] && break
        fi
        kill -0 "$rp" 2>/dev/null || break
        sleep 0.1
    done
    kill -TERM "$rp" 2>/dev/null
    wait "$rp"; rc=$?
    rm -rf "$dir"
    is "$(printf '%s\n' "$out" | grep -cE '^rrun:   rank [01] \(pid [0-9]+\) in MPI_Recv')" 2 \
        "$1: a deadlock over verbs: both ranks wait in MPI_Recv"
    is "$(printf '%s\n' "$out" | grep -cE "^rrun:       verbs on $2, (PMIx|rdma_cm) wire-up: [0-9]+ receive buffers on the shared receive queue; ")" 2 \
        "$1: each rank's report says what verbs holds"
    for r in 0 1; do
        like "$out" "rrun:       verbs to rank $((1 - r)): connected, QP [0-9]+.*; credits: [0-9]+ of [0-9]+ in use \\(rank $((1 - r))'s credit word says [0-9]+ taken of our [0-9]+ sent\\)" \
            "$1: rank $r's endpoint to rank $((1 - r)): connected, its QP and credits"
    done
    like "$out" "rrun: likely cycle: rank 0 waits to receive from 1, tag 7; rank 1 waits to receive from 0, tag 7" \
        "$1: the cycle is named"
    ok "$([ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && [ "$rc" -ne 137 ]; echo $?)" \
        "$1: SIGTERM to rrun ends the deadlocked job (rrun's status $rc)"
    is "$(pgrep -f "$B/test/mpi/hang" | wc -l)" 0 "$1: no rank left behind"
    [ -n "$out" ] || diag "no report"
}

# unit "ENV": the transport contract test (test/unit/tl_contract_verbs),
# its points as ours
unit() {
    local out rc line
    # shellcheck disable=SC2086
    out=$(env $1 timeout -k 10 "$(limit 180)" "$B/test/unit/tl_contract_verbs" 2>&1); rc=$?
    while IFS= read -r line; do
        case "$line" in
        "ok "*) ok 0 "$1 ${line#ok [0-9]* - }" ;;
        "not ok "*) ok 1 "$1 ${line#not ok [0-9]* - }" ;;
        "# "*) echo "$line" ;;
        esac
    done <<<"$out"
    is "$rc" 0 "$1: tl_contract_verbs's exit status"
    [ "$rc" = 0 ] || diag "$(printf '%s\n' "$out" | grep -v '^ok' | tail -n 10)"
}

# faults "ENV" DEV-KIND: each failure, provoked on one rank, ends the job
# (expected messages: one line per fault, "KIND:RANK PROTOCOL REGEX")
faults_rxe='qp_error:1 get rdmpi\[1\] verbs error: RDMA read from rank 0 failed: Work Request Flushed Error
bad_rkey:1 get rdmpi\[1\] verbs error: RDMA read from rank 0 failed: remote access error
lost_peer:1 get rdmpi\[1\] verbs error: RDMA read from rank 0 failed: transport retry counter exceeded
qp_error:0 put rdmpi\[0\] verbs error: RDMA write to rank 1 failed: Work Request Flushed Error
bad_rkey:0 put rdmpi\[0\] verbs error: RDMA write to rank 1 failed: remote access error
lost_peer:0 put rdmpi\[0\] verbs error: RDMA write to rank 1 failed: transport retry counter exceeded'
# iWARP: a QP error or a bad key tears the connection down (either side may
# tell first, and on the failing side whichever work request completes
# first with an error: the RDMA operation, or a message queued behind it,
# as seen once in 3 runs of bad_rkey by put on siw0)
iw='rdmpi\[[01]\] verbs error: (rdma_cm: the connection to rank [01] broke|the QP to rank [01] failed: [a-z]|(RDMA (read from|write to)|send to) rank [01] failed: [A-Za-z])'
faults_iwarp="qp_error:1 get $iw
bad_rkey:1 get $iw
lost_peer:1 get $iw
qp_error:0 put $iw
bad_rkey:0 put $iw
lost_peer:0 put $iw"
faults() {
    local env="$1 RDMPI_EAGER_LIMIT=1 RDMPI_VERBS_TIMEOUT=12 RDMPI_VERBS_RETRY_COUNT=2" f proto want out rc label
    while read -r f proto want; do
        label="$1 RDMPI_VERBS_FAULT=$f RDMPI_RNDV_PROTOCOL=$proto"
        # shellcheck disable=SC2086
        local t1=$SECONDS
        out=$(env $env RDMPI_VERBS_FAULT=$f RDMPI_RNDV_PROTOCOL=$proto timeout -k 10 "$(limit 60)" rrun --timeout "$(limit 50)" -np 2 \
            "$B/test/mpi/p2p_large" 1 1 2>&1); rc=$?
        diag "$label: $((SECONDS - t1)) s"
        ok "$([ $rc -ne 0 ] && [ $rc -ne 124 ] && [ $rc -ne 137 ]; echo $?)" \
            "$label: the job ends with an error, not a hang (rrun's status $rc)"
        like "$out" "$want" "$label: the failing operation, the peer's rank and the verbs status"
        like "$out" "rrun: rank [01] \(pid [0-9]+\) called MPI_Abort with code [0-9]+: ." \
            "$label: the launcher ends the job for the rank that failed"
        is "$(pgrep -f "$B/test/mpi/p2p_large" | wc -l)" 0 "$label: no rank left behind"
        [ $rc -ne 0 ] && [ $rc -ne 124 ] || diag "$(printf '%s\n' "$out" | grep -v '^ok' | grep -v '^rrun:       [a-z]' | tail -n 8)"
        [ $rc -ne 124 ] || diag "$(printf '%s\n' "$out" | grep -E '^rrun:   rank |^rrun:       verbs' | head -n 12)"
    done
}

# gone "ENV" DEV CM: the device removed while ranks 0 and 1 exchange messages
gone() {
    local env="$1 RDMPI_VERBS_CM=$3" dev=$2 cm=$3 line out='' rc rp kind fifo
    kind=rxe; is_iwarp "$dev" && kind=siw
    fifo=$(mktemp -u "${TMPDIR:-/tmp}/verbs-gone.XXXXXX")
    mkfifo "$fifo" || return
    # shellcheck disable=SC2086
    env $env timeout -k 10 "$P2P_TIMEOUT" rrun -np 2 "$B/test/mpi/p2p_loop" "$([ "$cm" = pmix ] && echo 4 || echo 100)" \
        >"$fifo" 2>&1 &
    rp=$!
    exec 3<"$fifo"
    rm -f "$fifo"
    # once the first round trip is done, the device goes
    while IFS= read -r line <&3; do
        out="$out$line"$'\n'
        [ "$line" = "# [rank 0] exchanging" ] && break
    done
    rdma link delete "$dev"
    while IFS= read -r line <&3; do out="$out$line"$'\n'; done
    exec 3<&-
    wait $rp; rc=$?
    if [ "$cm" = pmix ]; then
        # rxe cannot be taken from a process (no disassociation): the kernel
        # waits for the job to close the device
        is "$rc" 0 "$env: $dev removed under the job: the removal waits for the job, which ends well"
        is "$(printf '%s' "$out" | grep -c '^done \[rank [01]\] 1 checks, 0 failed$')" 2 "$env: both ranks' messages all as sent"
    else
        ok "$([ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && [ "$rc" -ne 137 ]; echo $?)" \
            "$env: $dev removed under the job: it ends with an error, not a hang (rrun's status $rc)"
        # (an operation in flight may fail first: then it names the peer)
        like "$out" "rdmpi\\[[01]\\] verbs error: (rdma_cm: device $dev removed|(RDMA (read from|write to)|send to) rank [01] failed: [A-Za-z]|the QP to rank [01] failed: [a-z])" \
            "$env: the message says the device went, or which operation with which peer failed"
        like "$out" "rrun: rank [01] \\(pid [0-9]+\\) called MPI_Abort" "$env: the launcher ends the job"
    fi
    [ "$rc" = 0 ] && [ "$cm" != pmix ] && diag "$(printf '%s' "$out" | grep -v '^ok' | tail -n 8)"
    is "$(pgrep -f "$B/test/mpi/p2p_loop" | wc -l)" 0 "$env: no rank left behind"
    rdma link add "$dev" type $kind netdev "rdmavm_$kind"
    ok $? "$dev added again"
}

# The device that runs the whole program suite: the first that is not
# iWARP (its wire-up by PMIx), else the first. The others, and the other
# wire-up, run what the device and the wire-up change (wireup).
suite_dev=
for dev in $devices; do is_iwarp "$dev" || { suite_dev=$dev; break; }; done
[ -n "$suite_dev" ] || suite_dev=${devices%% *}
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
        part unit || continue
        diag "$dev, $cm: the transport alone ($(since))"
        unit "$base RDMPI_VERBS_CM=$cm"
    done
    for cm in $modes; do
        part suite || continue
        if [ "$dev" = "$suite_dev" ] && [ "$cm" = "${modes%% *}" ]; then
            diag "$dev, wire-up by $cm: the suite ($(since))"
            suite "$base RDMPI_VERBS_CM=$cm"
        else
            diag "$dev, wire-up by $cm: what the wire-up changes ($(since))"
            wireup "$base RDMPI_VERBS_CM=$cm"
        fi
    done
    # the registration cache and a hung job's report: the data path's, on
    # the suite's device only
    if part reuse && [ "$dev" = "$suite_dev" ]; then
        diag "$dev: registration cache ($(since))"
        reuse "$base"
    fi
    if part peers; then
        diag "$dev: connections ($(since))"
        peers "$base"
    fi
    if part rma; then
        diag "$dev: one-sided windows ($(since))"
        rma "$base" "$dev"
        if [ "$dev" = "$suite_dev" ]; then
            p2p_check "$base RDMPI_RMA_PATH=am" 4 "$B/test/mpi/rma_atomic" 200 50
        fi
    fi
    if part report && [ "$dev" = "$suite_dev" ]; then
        diag "$dev: a hung job's report ($(since))"
        report "$base" "$dev"
    fi
    for cm in $modes; do
        part faults || continue
        diag "$dev, $cm: failures ($(since))"
        if is_iwarp "$dev"; then
            faults "$base RDMPI_VERBS_CM=$cm" <<<"$faults_iwarp"
        else
            faults "$base RDMPI_VERBS_CM=$cm" <<<"$faults_rxe"
        fi
    done
done
# No RDMPI_VERBS_DEVICE: every rank takes a device of the same, best kind
# (the VM has RoCE rxe0 and iWARP siw0: rxe0 for all)
if part peers && [ "${RDMA_VM:-}" = 1 ] && [ -e /sys/class/infiniband/siw0 ]; then
    p2p_check "RDMPI_TRANSPORTS=verbs RDMPI_LOG=debug:verbs" 3 "$B/test/mpi/p2p_peers" all
    for r in 0 1 2; do
        is "$(log_count $r 'device rxe0 port 1 \(RoCE\)')" 1 "no device named: rank $r takes rxe0 (RoCE before iWARP)"
    done
fi
# Two "hosts" (rrun's daemons started here by a local launch agent), nothing
# forced: shm between the ranks of a host, verbs between hosts, and no other
# network transport opened
if part peers; then
    # (every rank to every other: p2p_peers all; the collectives on two levels)
    for prog in "p2p_peers all" coll; do
        read -r pname pargs <<<"$prog"
        # shellcheck disable=SC2086 # the arguments are words
        RD_P2P_LAUNCHER="rrun --host a:2,b:2 --launch-agent $RD_SRCDIR/test/launcher/agent_local.sh -np" \
            p2p_check "RDMPI_LOG=debug:p2p" 4 "$B/test/mpi/$pname" $pargs
        for r in 0 1 2 3; do
            mate=$((r ^ 1))
            via=$(printf '%s\n' "$P2P_OUT" | sed -n "s/^rdmpi\[$r\] p2p debug: rank \([0-9]\) via \([a-z]*\):.*/\1 \2/p" | sort)
            is "$(printf '%s\n' "$via" | tr '\n' ' ')" \
                "$(printf '%s\n' "$via" | while read -r p _; do [ "$p" = $mate ] && echo "$p shm" || echo "$p verbs"; done | tr '\n' ' ')" \
                "2 hosts, $prog: rank $r reaches its host's rank by shm, the other host's by verbs"
            like "$via" "verbs" "2 hosts, $prog: rank $r talked to the other host"
            is "$(log_count_p2p $r 'transport (ucx|ofi) not opened')" 2 "2 hosts, $prog: rank $r opens no other network transport"
        done
    done
fi
# Removing a device: only the VM's own soft devices
if ! part gone; then
    :
elif [ "${RDMA_VM:-}" = 1 ]; then
    # rxe0's network device without its address: rdma_cm has nothing to
    # listen on, and auto wires up through PMIx even in a "large" job
    if [ -e /sys/class/infiniband/rxe0 ] && ip addr del "$RDMA_VM_RXE_IP/24" dev rdmavm_rxe; then
        p2p_check "RDMPI_TRANSPORTS=verbs RDMPI_VERBS_DEVICE=rxe0 RDMPI_VERBS_LAZY_MIN=2 RDMPI_LOG=debug:verbs" 3 \
            "$B/test/mpi/p2p_peers" all
        for r in 0 1 2; do
            is "$(log_count $r 'no rdma_cm address for connections on first use: PMIx wire-up'):$(log_count $r 'pmix wire-up: 2 QPs connected')" \
                1:1 "rxe0 without an IP address, auto in a job above RDMPI_VERBS_LAZY_MIN: rank $r wires up through PMIx"
        done
        ip addr add "$RDMA_VM_RXE_IP/24" dev rdmavm_rxe
        ok $? "rxe0's address back"
    fi
    for dev in $devices; do
        for cm in $(is_iwarp "$dev" && echo rdmacm || echo pmix rdmacm); do
            diag "$dev, $cm: device removal ($(since))"
            gone "RDMPI_TRANSPORTS=verbs RDMPI_VERBS_DEVICE=$dev" "$dev" "$cm"
        done
    done
else
    skip "device removal: only tested in the RDMA VM (this machine's devices are real)"
fi
[ "$ndev" -gt 0 ] || ok 1 "a verbs device to test (devices: '$devices')"
if [ "${RDMA_VM:-}" = 1 ] && [ ! -e /sys/class/infiniband/siw0 ]; then
    skip "siw0 (soft-iWARP) missing in the VM: building siw.ko needs linux-source, linux-headers-amd64, gcc, make"
fi
diag "verbs suite: $_tap_n test points in $(since)"
[ "${VB_SUITE_NO_PLAN:-0}" = 1 ] && exit 0
done_testing
