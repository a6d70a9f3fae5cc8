#!/bin/bash
# mpi.h against the standard's list of C functions (runtime/api/mpi41.functions):
# what it declares, what is still to do, and nothing else.
. "$RD_SRCDIR/test/tap.sh"
list="$RD_SRCDIR/runtime/api/mpi41.functions"
declared=$(sed -n 's/^RD_MPI_PROTO([^,]*, *\([A-Za-z0-9_]*\),.*/\1/p' "$RD_SRCDIR/include/mpi.h" | sort -u)
std=$(grep -v '^#' "$list" | awk 'NF {print $1}' | sort -u)
todo=$(grep -v '^#' "$list" | awk '$2 == "todo" {print $1}' | sort -u)
done_=$(grep -v '^#' "$list" | awk 'NF && $2 != "todo" {print $1}' | sort -u)
nstd=$(printf '%s\n' "$std" | grep -c .)
ntodo=$(printf '%s\n' "$todo" | grep -c .)
ok $([ "$nstd" -ge 600 ]; echo $?) "the list holds $nstd functions of MPI 4.1"
is "$(comm -23 <(printf '%s\n' "$done_") <(printf '%s\n' "$declared") | tr '\n' ' ')" "" \
    "every function of the list not marked todo is declared in mpi.h"
is "$(comm -12 <(printf '%s\n' "$todo") <(printf '%s\n' "$declared") | tr '\n' ' ')" "" \
    "no function marked todo is declared (implemented: drop its todo)"
mpi1="Address Attr_delete Attr_get Attr_put Errhandler_create Errhandler_get Errhandler_set Keyval_create Keyval_free Type_extent Type_hindexed Type_hvector Type_lb Type_struct Type_ub "
is "$(comm -13 <(printf '%s\n' "$std") <(printf '%s\n' "$declared") | tr '\n' ' ')" "$mpi1" \
    "mpi.h declares nothing else but the 15 MPI-1 calls MPI-3.0 removed"
diag "MPI 4.1: $((nstd - ntodo)) of $nstd functions present, $ntodo to do"
done_testing
