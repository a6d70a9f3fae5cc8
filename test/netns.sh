# netns.sh - "hosts" for multi-host tests on one machine: network
# namespaces joined by a bridge (sourced, POSIX sh; after test/tap.sh).
#
# Layout: a control namespace holds a bridge, br0, with address
# 10.200.0.254/24; host I (1..N) is a namespace whose interface eth0 (a veth
# whose other end is a port of br0) has 10.200.0.I/24. lo is up everywhere
# (PMIx servers bind 127.0.0.1). The addresses exist only inside these
# namespaces, so every port in them is free and no packet leaves them.
# Names carry the test's pid (rdmpi-PID-ctl, rdmpi-PID-h1, ...): parallel
# tests never collide, and netns_up removes the namespaces of tests that
# died without cleaning up (their pid no longer runs).
#
#   netns_up N      create N hosts (1..N) and the control namespace (0).
#                   Call it before the first test point: when the tests
#                   cannot run here (not root, no ip/nsenter/unshare, no
#                   namespaces or bridges in this kernel) it calls skip_all
#                   with the reason. It sets no trap: call netns_down from
#                   the script's EXIT trap (and make INT/TERM/HUP exit, e.g.
#                   trap 'exit 1' INT TERM HUP, so that the EXIT trap runs).
#   netns_down      stop every process still inside the namespaces (TERM,
#                   then KILL after at most 5 s), delete the namespaces and
#                   NETNS_DIR. Safe to call twice or after a partial netns_up.
#   netns_name I    the namespace's name (its file is /run/netns/NAME); 0 is
#                   the control namespace.
#   netns_addr I    the IPv4 address of host I (0: the bridge's).
#   netns_if I      the interface that carries it: eth0 on hosts, br0 on 0.
#   netns_pids I    the pids of the processes in host I's network namespace.
#   netns_exec [-h NAME] [-t] I CMD [ARG...]
#                   run CMD in host I's network namespace (nsenter --net,
#                   not `ip netns exec`, which remounts /sys: slurmd needs
#                   /sys/fs/cgroup). Its exit status is CMD's.
#                   -h NAME: in a private UTS namespace, with hostname NAME.
#                   -t: with a private, empty /tmp (a tmpfs in a private
#                   mount namespace, shared by everything CMD starts, gone
#                   when they have all exited); NETNS_DIR, TAP_TMP,
#                   RD_BUILDDIR, RD_SRCDIR and the directories listed in
#                   NETNS_KEEP stay visible at their paths.
#   NETNS_DIR       a private scratch directory of netns_up's.
#   NETNS_N         the number of hosts.
#
# A launch agent can enter a host the same way: nsenter --net=/run/netns/NAME.

NETNS_N=0
NETNS_PREFIX=
NETNS_DIR=
_netns_made=

_netns_skip() {
    if command -v skip_all >/dev/null 2>&1; then
        skip_all "$1"
    fi
    echo "netns: $1" >&2
    exit 77
}

netns_name() {
    if [ "$1" = 0 ]; then echo "${NETNS_PREFIX}ctl"; else echo "${NETNS_PREFIX}h$1"; fi
}
netns_addr() {
    if [ "$1" = 0 ]; then echo 10.200.0.254; else echo "10.200.0.$1"; fi
}
netns_if() {
    if [ "$1" = 0 ]; then echo br0; else echo eth0; fi
}
netns_pids() {
    ip netns pids "$(netns_name "$1")" 2>/dev/null
}

# Namespaces of tests whose process is gone: rdmpi-PID[x]-*.
_netns_sweep() {
    for _f in /run/netns/rdmpi-*; do
        [ -e "$_f" ] || continue
        _sn=${_f#/run/netns/}
        _p=$(printf '%s\n' "$_sn" | sed -n 's/^rdmpi-\([0-9][0-9]*\)[a-z]*-.*/\1/p')
        [ -n "$_p" ] || continue
        kill -0 "$_p" 2>/dev/null && continue
        for _q in $(ip netns pids "$_sn" 2>/dev/null); do kill -KILL "$_q" 2>/dev/null; done
        ip netns del "$_sn" 2>/dev/null
    done
}

# _netns_try "what" CMD...: run CMD; on failure undo everything and skip.
_netns_try() {
    _what=$1
    shift
    if ! _err=$("$@" 2>&1); then
        netns_down
        _netns_skip "cannot $_what: $_err"
    fi
}

netns_up() {
    NETNS_N=$1
    [ "$(id -u)" = 0 ] || _netns_skip "network namespaces need root"
    for _t in ip nsenter unshare; do
        command -v "$_t" >/dev/null 2>&1 || _netns_skip "$_t not found (apt-get install iproute2 util-linux)"
    done
    _netns_sweep
    NETNS_PREFIX=rdmpi-$$-
    for _s in a b c d e f g h; do
        [ -e "/run/netns/$(netns_name 0)" ] || break
        NETNS_PREFIX=rdmpi-$$$_s-
    done
    NETNS_DIR=$(mktemp -d "${TMPDIR:-/tmp}/rdmpi-netns.XXXXXX") || _netns_skip "mktemp failed"
    _c=$(netns_name 0)
    _netns_try "create a network namespace" ip netns add "$_c"
    _netns_made=$_c
    _netns_try "set up the control namespace" ip -n "$_c" link set lo up
    _netns_try "create a bridge" ip -n "$_c" link add br0 type bridge
    _netns_try "set up the bridge" ip -n "$_c" addr add "$(netns_addr 0)/24" dev br0
    _netns_try "set up the bridge" ip -n "$_c" link set br0 up
    _i=1
    while [ "$_i" -le "$NETNS_N" ]; do
        _h=$(netns_name "$_i")
        _netns_try "create a network namespace" ip netns add "$_h"
        _netns_made="$_netns_made $_h"
        _netns_try "set up host $_i" ip -n "$_h" link set lo up
        _netns_try "create a veth pair" ip -n "$_c" link add "vh$_i" type veth peer name eth0 netns "$_h"
        _netns_try "set up host $_i" ip -n "$_c" link set "vh$_i" master br0 up
        _netns_try "set up host $_i" ip -n "$_h" addr add "$(netns_addr "$_i")/24" dev eth0
        _netns_try "set up host $_i" ip -n "$_h" link set eth0 up
        _i=$((_i + 1))
    done
    # every link carries traffic before anyone uses it (up to 5 s)
    _i=1
    while [ "$_i" -le "$NETNS_N" ]; do
        _k=0
        until ip -n "$(netns_name "$_i")" -o link show eth0 2>/dev/null | grep -q 'LOWER_UP' &&
              ip -n "$_c" -o link show "vh$_i" 2>/dev/null | grep -q 'LOWER_UP'; do
            _k=$((_k + 1))
            if [ "$_k" -gt 100 ]; then
                netns_down
                _netns_skip "the link of host $_i does not come up"
            fi
            sleep 0.05
        done
        _i=$((_i + 1))
    done
}

netns_down() {
    # everything still running inside: TERM, up to 5 s, then KILL
    for _h in $_netns_made; do
        for _q in $(ip netns pids "$_h" 2>/dev/null); do kill -TERM "$_q" 2>/dev/null; done
    done
    _k=0
    for _h in $_netns_made; do
        while [ -n "$(ip netns pids "$_h" 2>/dev/null)" ] && [ "$_k" -lt 100 ]; do
            _k=$((_k + 1))
            sleep 0.05
        done
        for _q in $(ip netns pids "$_h" 2>/dev/null); do kill -KILL "$_q" 2>/dev/null; done
    done
    for _h in $_netns_made; do
        ip netns del "$_h" 2>/dev/null
    done
    _netns_made=
    [ -n "$NETNS_DIR" ] && rm -rf "$NETNS_DIR"
    NETNS_DIR=
}

netns_exec() {
    _uts= _tmp=
    while :; do
        case "$1" in
        -h) _uts=$2; shift 2 ;;
        -t) _tmp=1; shift ;;
        *) break ;;
        esac
    done
    _ns=/run/netns/$(netns_name "$1")
    shift
    if [ -z "$_uts$_tmp" ]; then
        nsenter --net="$_ns" -- "$@"
        return
    fi
    # shellcheck disable=SC2016 # expanded by the inner shell
    nsenter --net="$_ns" -- unshare ${_uts:+-u} ${_tmp:+-m --propagation private} -- sh -c '
        uts=$1 tmp=$2 dir=$3 keep=$4
        shift 4
        if [ -n "$uts" ]; then hostname "$uts" || exit 126; fi
        if [ -n "$tmp" ]; then
            m=$(mktemp -d "$dir/tmp.XXXXXX") || exit 126
            mount -t tmpfs -o mode=1777 rdmpi-tmp "$m" || exit 126
            for p in $keep; do
                case "$p" in /tmp/?*) ;; *) continue ;; esac
                [ -d "$p" ] || continue
                mkdir -p "$m/${p#/tmp/}" && mount --bind "$p" "$m/${p#/tmp/}" || exit 126
            done
            mount --move "$m" /tmp || exit 126
        fi
        exec "$@"' sh "$_uts" "$_tmp" "$NETNS_DIR" "$NETNS_DIR ${TAP_TMP:-} ${RD_BUILDDIR:-} ${RD_SRCDIR:-} ${NETNS_KEEP:-}" "$@"
}
