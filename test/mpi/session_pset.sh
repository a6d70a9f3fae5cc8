#!/bin/bash
# The launcher's process sets in sessions (test/mpi/session_pset.c): 4
# ranks under rrun --pset even=0,2 --pset odd=1,3 --pset all=0-3 (five sets
# on every rank, their sizes, groups and communicators), the same over two
# "hosts" (--host a:2,b:2 with the local launch agent: each host's daemon
# defines the sets and answers its ranks), then without --pset (the two
# built-in sets only). rrun's usage errors for --pset are
# test/launcher/rrun_options.sh's.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
prog=$RD_BUILDDIR/test/mpi/session_pset
sets="--pset even=0,2 --pset odd=1,3 --pset all=0-3"
RRUN_OPTS=$sets mpi_check 4 "$prog" sets
# (ranks on different "hosts" talk through a network transport: loopback
# only, as test/launcher/rrun_hosts.sh)
RRUN_OPTS="--host a:2,b:2 --launch-agent $RD_SRCDIR/test/launcher/agent_local.sh $sets" \
    p2p_check "FI_PROVIDER=tcp FI_TCP_IFACE=lo UCX_TLS=tcp UCX_NET_DEVICES=lo" 4 "$prog" sets
mpi_check 4 "$prog" none
done_testing
