#!/bin/bash
# The MPI-1 functions removed in MPI-3.0 that mpi.h still declares: each
# one's values, layouts, callbacks and error classes on 2 ranks
# (test/mpi/mpi1.c); and mpi.h hides them from a program that asks for the
# strict standard (RDMPI_NO_MPI1_COMPAT, Open MPI's
# OMPI_OMIT_MPI1_COMPAT_DECLS=1).
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
tap_tmpdir
# Declaring MPI_Address and MPI_DUP_FN as variables compiles only where
# mpi.h declares neither.
cat >"$TAP_TMP/strict.c" <<'EOC'
#include <mpi.h>
int MPI_Address = 1, MPI_Attr_get = 2, MPI_Type_struct = 3, MPI_Errhandler_set = 4;
int MPI_DUP_FN = 5;
typedef double MPI_Copy_function;
int main(void) { return MPI_Address + MPI_Attr_get + MPI_Type_struct + MPI_Errhandler_set + MPI_DUP_FN - 15; }
EOC
cc_strict() { rdmpicc -c "$TAP_TMP/strict.c" -o "$TAP_TMP/strict.o" "$@" >"$TAP_TMP/cc.txt" 2>&1; }
cc_strict -DRDMPI_NO_MPI1_COMPAT
ok $? "-DRDMPI_NO_MPI1_COMPAT: mpi.h declares none of MPI-1's removed names"
cc_strict -DOMPI_OMIT_MPI1_COMPAT_DECLS=1
ok $? "-DOMPI_OMIT_MPI1_COMPAT_DECLS=1 (Open MPI's macro): none either"
cc_strict -DOMPI_OMIT_MPI1_COMPAT_DECLS=0
is "$?" 1 "-DOMPI_OMIT_MPI1_COMPAT_DECLS=0: they are declared"
cc_strict
is "$?" 1 "by default: they are declared"
like "$(cat "$TAP_TMP/cc.txt")" "MPI_Address" "the compiler names MPI_Address's redeclaration"
mpi_check 2 "$RD_BUILDDIR/test/mpi/mpi1"
done_testing
