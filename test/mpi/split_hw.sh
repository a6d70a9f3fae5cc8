#!/bin/bash
# MPI_Comm_split_type's hardware and resource splits (split_hw.c): on 1 to
# 4 ranks as rrun binds them; 2 ranks each bound to a core of its own
# (exact sizes: "Core" 1, the node and its one package all), the same 2
# unbound (rrun --bind-to none: "Core" gives MPI_COMM_NULL); 3 ranks bound
# to 2 cores (two share one); 4 ranks as 2 nodes (RDMPI_COLL_FAKE_NODES);
# and 2 ranks on a synthetic machine of 2 packages (HWLOC_XMLFILE, which
# the library's hwloc and the test's read alike); and when the topology
# is loaded.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
prog="$RD_BUILDDIR/test/mpi/split_hw"
tap_tmpdir
for np in 1 3 4; do
    mpi_check "$np" "$prog"
done
# (the exact sizes of "bound" need a core for each of the 2 ranks)
if [ "$(nproc)" -ge 2 ]; then
    RD_P2P_LAUNCHER="rrun --bind-to core -np" p2p_check "" 2 "$prog" bound
else
    RD_P2P_LAUNCHER="rrun --bind-to core -np" p2p_check "" 2 "$prog"
fi
RD_P2P_LAUNCHER="rrun --bind-to none -np" p2p_check "" 2 "$prog" unbound
RD_P2P_LAUNCHER="rrun --bind-to core -np" p2p_check "" 3 "$prog"
p2p_check "RDMPI_COLL_FAKE_NODES=2" 4 "$prog" fake2
xml=$TAP_TMP/2pkg.xml
"$prog" --write-xml "$xml"
is "$?" 0 "the synthetic topology of 2 packages is written"
if [ "$(nproc)" -ge 2 ]; then
    RD_P2P_LAUNCHER="rrun --bind-to core -np" p2p_check "HWLOC_XMLFILE=$xml HWLOC_THISSYSTEM=1" 2 "$prog" xml2pkg
fi
# hwloc's topology (tens of ms) is loaded at the first hardware split,
# once per process: never by a program that makes none (RDMPI_LOG says)
out=$(RDMPI_LOG=debug:hwtopo timeout -k 10 120 rrun -np 2 "$RD_BUILDDIR/examples/hello" 2>&1)
is "$(printf '%s\n' "$out" | grep -c 'hwtopo debug: hwloc topology loaded')" 0 \
    "examples/hello (no hardware split) never loads the topology"
out=$(RDMPI_LOG=debug:hwtopo timeout -k 10 120 rrun -np 2 "$prog" 2>&1)
for r in 0 1; do
    is "$(printf '%s\n' "$out" | grep -c "^rdmpi\[$r\] hwtopo debug: hwloc topology loaded")" 1 \
        "split_hw (dozens of hardware splits) loads the topology once on rank $r"
done
done_testing
