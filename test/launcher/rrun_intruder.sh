#!/bin/sh
# Another local user cannot join a job, read its data or end it
# (launcher/rrun/guard.c). The intruder (test/progs/rrun_intruder.c) runs as
# nobody, knows everything a rank's environment holds (the namespace and
# the PMIx server's address), claims the job owner's uid, and tries every
# rank before the real ranks have connected; the job must then run to its
# normal end. A control run shows the same intruder joining and ending the
# job when it runs as the job's own user, so the refusals are not an
# accident of the intruder. The same on one host and over two hosts (each
# host's daemon runs its own PMIx server).
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/launcher/rrun_lib.sh"
[ "$(id -u)" = 0 ] || skip_all "running the intruder as another user needs root"
command -v setpriv >/dev/null || skip_all "setpriv (util-linux) is missing"
AGENT="$RD_SRCDIR/test/launcher/agent_local.sh"
NOBODY=65534
# A directory the intruder can reach (the build tree may be private).
D=$(mktemp -d /tmp/rdmpi-intruder.XXXXXX)
trap 'rm -rf "$TAP_TMP" "$D"' EXIT
chmod 755 "$D"
cp "$PROGS/rrun_intruder" "$D/"
chmod 755 "$D/rrun_intruder"

# start_victims RRUN-ARGS...: a 3-rank job in the background whose ranks
# wait for $D/go; returns once every rank wrote its environment.
start_victims() {
    rm -f "$D"/env.* "$D"/go
    timeout "$HANG_GUARD" rrun "$@" -np 3 "$D/rrun_intruder" victim "$D" >"$T/out" 2>"$T/err" </dev/null &
    RRUN_PID=$!
    _i=0
    while [ "$(ls "$D" | grep -c '^env\.')" -lt 3 ] && [ $_i -lt 600 ]; do
        sleep 0.05
        _i=$((_i + 1))
    done
}
finish_victims() {
    touch "$D/go"
    wait "$RRUN_PID"
    RC=$?
    OUT=$(sort "$T/out")
    ERR=$(cat "$T/err")
}
as_nobody() { setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups "$@"; }

for hosts in "" "--host a:2,b:1 --launch-agent $AGENT"; do
    name=${hosts:+over two hosts}
    name=${name:-one host}
    # shellcheck disable=SC2086 # the options are words
    start_victims $hosts
    for r in 1 0 2; do
        is "$(as_nobody "$D/rrun_intruder" intrude "$D" $r 0 2>&1)" "refused" \
            "$name: uid $NOBODY claiming uid 0 and rank $r is refused"
    done
    finish_victims
    is "$RC" 0 "$name: the job ends normally"
    is "$OUT" "rank 0 ok
rank 1 ok
rank 2 ok" "$name: every rank connects and exchanges its data"
    like "$ERR" "^rrun: refused a connection to the job's PMIx server from uid $NOBODY \(only uid 0 may join\)$" \
        "$name: rrun says once that it refused another user"
    check_no_leftovers "$name"
done

# Control: as the job's own user, the same intruder joins and ends it.
start_victims
out=$("$D/rrun_intruder" intrude "$D" 1 0 2>&1)
finish_victims
like "$out" "^joined as rank 1" "control: the job's own user joins as rank 1"
is "$RC" 42 "control: the intruder's PMIx_Abort ends the job"
like "$ERR" "called MPI_Abort with code 42: the intruder ends the job" "control: rrun names the abort"
check_no_leftovers "control"
done_testing
