#!/bin/sh
# ompi_mpirun.sh - a program built with rdmpicc runs under Open MPI's mpirun:
# rdmpi is a PMIx client, and Open MPI's launcher is a PMIx server.
. "$RD_SRCDIR/test/tap.sh"

mpirun=${RD_OMPI_MPIRUN:-}
[ -n "$mpirun" ] || skip_all "Open MPI's mpirun (mpirun.openmpi) was not found by configure"
[ -x "$mpirun" ] || skip_all "Open MPI's mpirun $mpirun is not executable"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/rdmpi-ompi.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
host=$(hostname)

plan 4

rdmpicc "$RD_SRCDIR/examples/hello.c" -o hello 2>err.txt
ok $? "rdmpicc builds examples/hello.c"
[ -s err.txt ] && diag "$(cat err.txt)"

out=$(env -u LD_LIBRARY_PATH timeout 60 "$mpirun" --allow-run-as-root --oversubscribe \
    --mca oob_tcp_if_include lo -np 4 ./hello 2>err.txt)
rc=$?
is "$rc" 0 "Open MPI's mpirun -np 4 ./hello exits 0"
[ "$rc" -eq 0 ] || diag "stderr: $(cat err.txt)"
is "$(printf '%s\n' "$out" | LC_ALL=C sort)" "Hello from rank 0 of 4 on $host
Hello from rank 1 of 4 on $host
Hello from rank 2 of 4 on $host
Hello from rank 3 of 4 on $host" "4 distinct ranks 0..3, each of size 4"
is "$(printf '%s\n' "$out" | sed -n 's/^Hello from rank \([0-9]*\) of .*/\1/p' | LC_ALL=C sort -u | tr '\n' ' ')" \
    "0 1 2 3 " "the ranks are 0, 1, 2, 3, each once"

done_testing
