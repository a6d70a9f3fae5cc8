#!/bin/sh
# Binding: rank i runs on core i (by default and with --bind-to core);
# when ranks outnumber cores every rank gets RDMPI_OVERSUBSCRIBED=1, and
# the default leaves them unbound while --bind-to core wraps them around
# (core i modulo the cores); --bind-to none leaves the full mask.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/launcher/rrun_lib.sh"

# The CPUs this test may use, one per line ("0-3,6" expanded).
allowed_cpus() {
    grep '^Cpus_allowed_list:' /proc/self/status | awk '{print $2}' | tr ',' '\n' |
        awk -F- '{ hi = ($2 == "") ? $1 : $2; for (c = $1; c <= hi; c++) print c }'
}
CPUS=$(allowed_cpus)
NCPU=$(printf '%s\n' "$CPUS" | grep -c '')
FULL=$(printf '%s\n' "$CPUS" | paste -sd, -)
for c in $CPUS; do
    f=/sys/devices/system/cpu/cpu$c/topology/thread_siblings_list
    if [ -r "$f" ] && [ "$(cat "$f")" != "$c" ]; then
        skip_all "CPU $c shares its core (SMT): the exact-mask checks assume one CPU per core"
    fi
done

expected_bound() { # N: rank i on the i-th allowed CPU
    printf '%s\n' "$CPUS" | head -n "$1" | awk '{ print "rank " NR - 1 " cpus " $1 " oversubscribed unset" }'
}
expected_wrapped() { # N: rank i on allowed CPU i modulo NCPU, oversubscribed
    _r=0
    while [ $_r -lt "$1" ]; do
        echo "rank $_r cpus $(printf '%s\n' "$CPUS" | sed -n "$((_r % NCPU + 1))p") oversubscribed 1"
        _r=$((_r + 1))
    done
}
expected_unbound() { # N OVERSUBSCRIBED
    _r=0
    while [ $_r -lt "$1" ]; do
        echo "rank $_r cpus $FULL oversubscribed $2"
        _r=$((_r + 1))
    done
}

run_rrun -np "$NCPU" "$PROGS/rrun_probe" affinity
is "$RC" 0 "default binding: exit status 0"
is "$(printf '%s\n' "$OUT" | sort -k2n)" "$(expected_bound "$NCPU")" \
    "default with -np $NCPU: rank i bound to core i exactly"

run_rrun -np 1 --bind-to core "$PROGS/rrun_probe" affinity
is "$OUT" "$(expected_bound 1)" "--bind-to core -np 1: rank 0 on the first core"

run_rrun -np "$NCPU" --bind-to none "$PROGS/rrun_probe" affinity
is "$(printf '%s\n' "$OUT" | sort -k2n)" "$(expected_unbound "$NCPU" unset)" \
    "--bind-to none: full mask, not oversubscribed"

NOVER=$((NCPU * 2))
run_rrun -np "$NOVER" "$PROGS/rrun_probe" affinity
is "$RC" 0 "oversubscribed: runs without any flag"
is "$(printf '%s\n' "$OUT" | sort -k2n)" "$(expected_unbound "$NOVER" 1)" \
    "oversubscribed -np $NOVER by default: unbound (the kernel may move ranks off a busy core), RDMPI_OVERSUBSCRIBED=1 everywhere"

run_rrun -np "$NOVER" --bind-to core "$PROGS/rrun_probe" affinity
is "$(printf '%s\n' "$OUT" | sort -k2n)" "$(expected_wrapped "$NOVER")" \
    "oversubscribed with --bind-to core: rank i on core i mod $NCPU, RDMPI_OVERSUBSCRIBED=1 everywhere"

run_rrun -np "$NOVER" --bind-to none "$PROGS/rrun_probe" affinity
is "$(printf '%s\n' "$OUT" | sort -k2n)" "$(expected_unbound "$NOVER" 1)" \
    "oversubscribed with --bind-to none: full mask, RDMPI_OVERSUBSCRIBED=1 everywhere"

# Only the cores rrun may use count: under taskset, core 0 is that CPU.
if [ "$NCPU" -ge 2 ]; then
    LAST=$(printf '%s\n' "$CPUS" | tail -n 1)
    timeout "$HANG_GUARD" taskset -c "$LAST" rrun -np 1 "$PROGS/rrun_probe" affinity >"$T/out" 2>&1
    is "$(cat "$T/out")" "rank 0 cpus $LAST oversubscribed unset" \
        "under taskset -c $LAST: rank 0 bound to CPU $LAST"
    timeout "$HANG_GUARD" taskset -c "$LAST" rrun -np 2 "$PROGS/rrun_probe" affinity >"$T/out" 2>&1
    is "$(sort "$T/out")" "rank 0 cpus $LAST oversubscribed 1
rank 1 cpus $LAST oversubscribed 1" "under taskset -c $LAST: -np 2 is oversubscribed"
else
    skip "one CPU only: no taskset check"
    skip "one CPU only: no taskset check"
fi

check_no_leftovers "binding"
done_testing
