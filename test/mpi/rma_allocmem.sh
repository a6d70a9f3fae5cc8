#!/bin/bash
# MPI_Alloc_mem in node memory (test/mpi/rma_allocmem.c): the allocator's
# semantics and errors, and windows made by MPI_Win_create over its memory,
# on 1-4 ranks and with the active-message path forced; the path table
# (RDMPI_LOG=debug:rma): node peers reach a window over Alloc_mem memory
# by loads and stores, one over malloc'd memory by single copies.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
prog="$RD_BUILDDIR/test/mpi/rma_allocmem"
for np in 1 2 3 4; do
    p2p_check "" "$np" "$prog"
done
p2p_check "RDMPI_RMA_PATH=am" 3 "$prog"
# the split Get and the non-temporal copy of the node path (off by default)
p2p_check "RDMPI_RMA_SPLIT_GET=1k" 2 "$prog"
p2p_check "RDMPI_RMA_SPLIT_GET=1k" 4 "$RD_BUILDDIR/test/mpi/rma_core"
p2p_check "RDMPI_RMA_NT_COPY=1k" 2 "$prog"
p2p_check "RDMPI_RMA_NT_COPY=1k" 2 "$RD_BUILDDIR/test/mpi/rma_core"
out=$(RDMPI_LOG=debug:rma timeout -k 10 120 rrun -np 2 "$prog" 2>&1)
like "$(printf '%s\n' "$out" | grep -m1 'rdmpi\[0\] rma debug: window 0 (flavour 1)')" '0:self 1:cma$' \
    "Win_create over malloc'd memory: a node peer by single copies"
like "$(printf '%s\n' "$out" | grep -m1 'rdmpi\[0\] rma debug: window 1 (flavour 1)')" '0:self 1:node$' \
    "Win_create over MPI_Alloc_mem memory: a node peer by loads and stores"
like "$(printf '%s\n' "$out" | grep -m1 'rdmpi\[1\] rma debug: window 1 (flavour 1)')" '0:node 1:self$' \
    "Win_create over MPI_Alloc_mem memory: the same from rank 1"
done_testing
