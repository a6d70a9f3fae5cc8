#!/bin/bash
# fortran.sh - the Fortran bindings: mpif.h's handle values are the
# library's (test/fortran/fhandles), librdmpifort exports pmpi_x_ and a
# weak mpi_x_ for each function of runtime/api/mpi.api, mpi_f08's
# specifics and == /=, and nothing else,
# the rdmpifort wrapper (flags, RDMPI_FC, its rdmpif90 / rdmpif77 links),
# the mpi module (its constants are mpif.h's; a program passing a REAL
# count to MPI_SEND does not compile), a fixed-form and four free-form
# programs on mpif.h, one on `use mpi` and one on `use mpi_f08` (whose
# constants are mpif.h's too; a REAL count does not compile either) run on
# 2 ranks, f08_coll (mpi_f08: every collective, MPI_Comm_split, Cartesian
# topologies, subarray / vector / resized types of Fortran arrays) on 3
# (their "ok [rank R]" lines become test points: test/mpi/lib.sh),
# io and io08 (files: open, explicit offsets beyond 2**32 of
# KIND=MPI_OFFSET_KIND, the individual pointer, Fortran file error
# handlers on MPI_FILE_NULL and a file; io08: TYPE(MPI_File)) on 2,
# io_datarep (use mpi, and the same source on mpif.h) and io_datarep08
# (mpi_f08): MPI_REGISTER_DATAREP with Fortran conversion and extent
# functions, MPI_CONVERSION_FN_NULL, on 2,
# examples/jacobi gives one exact result on 1, 2 and 4 ranks and the same
# when built by Open MPI's and MPICH's mpifort, and
# MPI_ABORT(MPI_COMM_WORLD, 7) from Fortran makes rrun exit 7.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"

grep -q '^RD_HAVE_FORTRAN = yes$' "$RD_BUILDDIR/Makefile" ||
    skip_all "this build has no Fortran bindings (configure found no Fortran compiler, or --disable-fortran)"
tap_tmpdir
cd "$TAP_TMP" || exit 1

# ------------------------------------------------------------ mpif.h, librdmpifort
mpifh="$RD_BUILDDIR/runtime/fortran/mpif.h"
nh=$(sed -n '/^! Handles/,/^! Special/p' "$mpifh" | grep -c '^      PARAMETER')
out=$("$RD_BUILDDIR/test/fortran/fhandles"); rc=$?
is "$rc:$out" "0:$nh handles, 0 wrong" "fhandles: each of mpif.h's $nh handle PARAMETERs is MPI_*_c2f of its C handle, and back"
is "$(awk 'length > 72' "$mpifh" | head -n 3)" "" "mpif.h: no line longer than 72 columns (fixed form)"
is "$(grep -v '^!' "$mpifh" | grep -cv '^      [A-Z]')" 0 "mpif.h: every statement starts in column 7, every comment with ! in column 1"

# the mpi module: the same constant, handle and special-object lines as
# mpif.h (gen.awk writes both with one function)
modsrc="$RD_BUILDDIR/runtime/fortran/mpi.f90"
consts() { sed -n '/^! Integer constants/,/^! \(Functions\|MPI_SIZEOF\)/p' "$1" | grep -v '^!'; }
nc=$(consts "$mpifh" | grep -c PARAMETER)
is "$(consts "$modsrc" | diff - <(consts "$mpifh") && echo same)" same \
    "mpi.f90 declares mpif.h's $nc PARAMETERs and its special objects' common blocks, line for line"
ok "$([ -s "$RD_BUILDDIR/runtime/fortran/mpi.mod" ]; echo $?)" "mpi.mod is built beside mpif.h"
# mpi_f08: the same constants (handles as TYPE(MPI_X) PARAMETERs), but
# MPI_SUBARRAYS_SUPPORTED .TRUE. (sections are datatypes there)
f08src="$RD_BUILDDIR/runtime/fortran/mpi_f08_types.f90"
p77=$(sed -n 's/^      PARAMETER (\(.*\))$/\1/p' "$mpifh" | sort)
p08=$(sed -n -e 's/^      [A-Z]*, PARAMETER :: \([A-Z0-9_]*\) = \(.*\)$/\1=\2/p' \
    -e 's/^      TYPE(MPI_[A-Za-z]*), PARAMETER :: \([A-Z0-9_]*\) = MPI_[A-Za-z]*(\([0-9]*\))$/\1=\2/p' "$f08src" | sort)
is "$(diff <(printf '%s\n' "$p77") <(printf '%s\n' "$p08") | grep '^[<>]' | tr '\n' ' ')" \
    "< MPI_SUBARRAYS_SUPPORTED=.FALSE. > MPI_SUBARRAYS_SUPPORTED=.TRUE. " \
    "mpi_f08_types.f90 has mpif.h's $(printf '%s\n' "$p77" | grep -c .) PARAMETERs, handles as TYPE(MPI_X), MPI_SUBARRAYS_SUPPORTED .TRUE."
bad=
for m in mpi_f08_types mpi_f08 pmpi_f08; do [ -s "$RD_BUILDDIR/runtime/fortran/$m.mod" ] || bad="$bad $m"; done
is "$bad" "" "mpi_f08_types.mod, mpi_f08.mod and pmpi_f08.mod are built beside mpif.h"

lib="$RD_BUILDDIR/.libs/librdmpifort.so"
syms=$(nm -D --defined-only "$lib")
fns=$(sed -n 's/^fn \([A-Za-z0-9_]*\).*/\1/p' "$RD_SRCDIR/runtime/api/mpi.api" | tr '[:upper:]' '[:lower:]')
bad=
for f in $fns; do
    p=$(printf '%s\n' "$syms" | awk -v s="pmpi_${f}_" '$3 == s && $2 == "T" {print $1}')
    m=$(printf '%s\n' "$syms" | awk -v s="mpi_${f}_" '$3 == s && $2 == "W" {print $1}')
    if [ -z "$p" ] || [ "$p" != "$m" ]; then bad="$bad $f"; fi
done
nf=$(printf '%s\n' "$fns" | grep -c .)
is "$(if [ "$nf" -ge 30 ]; then echo "$bad"; else echo "only $nf functions read"; fi)" "" "librdmpifort: each of the $nf functions of mpi.api is pmpi_x_ with a weak mpi_x_"
# mpi_f08's specifics: pmpi_x_f08ts_ (choice buffers) or pmpi_x_f08_, each
# with a weak mpi_x_..., for every function but those the standard removed
bad=
n08=0
for f in $fns; do
    case $f in
    keyval_create | keyval_free | attr_put | attr_get | attr_delete | address | type_extent | type_lb | \
        type_ub | type_hvector | type_hindexed | type_struct | errhandler_create | errhandler_set | \
        errhandler_get) continue ;;
    esac
    n08=$((n08 + 1))
    for s in f08ts f08; do
        p=$(printf '%s\n' "$syms" | awk -v s="pmpi_${f}_${s}_" '$3 == s && $2 == "T" {print $1}')
        [ -n "$p" ] && break
    done
    m=$(printf '%s\n' "$syms" | awk -v s="mpi_${f}_${s}_" '$3 == s && $2 == "W" {print $1}')
    if [ -z "$p" ] || [ "$p" != "$m" ]; then bad="$bad $f"; fi
done
is "$bad" "" "librdmpifort: mpi_f08's specific of each of the $n08 functions, pmpi_x_f08(ts)_ with a weak mpi_x_f08(ts)_"
others=$(printf '%s\n' "$syms" | awk '$2 ~ /^[TWDBR]$/ {print $3}' | grep -Ev '^(p?mpi|rd_mpi_f08)_[a-z0-9_]*_$' | tr '\n' ' ')
is "$others" "" "librdmpifort exports nothing else"
is "$(printf '%s\n' "$syms" | grep -c ' T rd_mpi_f08_[a-z]*_\(eq\|ne\)_$')" 22 \
    "librdmpifort: mpi_f08's == and /= for the 11 handle types (rd_mpi_f08_KIND_eq_, _ne_)"

# ------------------------------------------------------------ the wrapper
fc=$(sed -n 's/^FC = //p' "$RD_BUILDDIR/Makefile")
fflags=$(sed -n 's/^RD_FC_WRAPPER_FLAGS = //p' "$RD_BUILDDIR/Makefile")
san=$(sed -n 's/^RD_SAN_FLAGS = //p' "$RD_BUILDDIR/Makefile")
X=${san:+ $san}
inc="$RD_BUILDDIR/runtime/fortran"
libs="$RD_BUILDDIR/.libs"
cflags="-I$inc${fflags:+ $fflags}$X"
link="-L$libs -Wl,-rpath,$libs -lrdmpifort -lrdmpi$X"
is "$(command -v rdmpifort)" "$RD_BUILDDIR/launcher/rdmpifort" "rdmpifort from the build tree is first in PATH"
is "$(rdmpifort -show -O2 x.f90 -o x)" "$fc $cflags -O2 x.f90 -o x $link" \
    "rdmpifort -show: the Fortran compiler, mpif.h's directory, -lrdmpifort -lrdmpi"
is "$(rdmpifort --showme:compile)|$(rdmpifort --showme:link)|$(rdmpifort -showme:libs)" \
    "$cflags|$link|rdmpifort rdmpi" "rdmpifort --showme:compile, --showme:link, -showme:libs"
is "$(rdmpifort -show -c x.f)" "$fc $cflags -c x.f" "rdmpifort -c: no link flags"
is "$(rdmpif90 -showme:command)|$(rdmpif77 -showme:command)" "$fc|$fc" "rdmpif90 and rdmpif77 run the same compiler"
is "$(rdmpif90 -showme:bogus 2>&1)" "rdmpif90: unknown option -showme:bogus (try -showme:help)" \
    "rdmpif90 names itself"
is "$(RDMPI_FC=/bin/myfc rdmpifort -show -c x.f)" "/bin/myfc $cflags -c x.f" "RDMPI_FC names another compiler"
is "$(readlink "$RD_BUILDDIR/launcher/rdmpif90")" rdmpifort "rdmpif90 is a symbolic link to rdmpifort"

# ------------------------------------------------------------ programs
src="$RD_SRCDIR/test/fortran"
compile() { # compile WHAT WRAPPER ARGS...: compile, one point, the compiler's output as comments
    local what=$1
    shift
    "$@" >cc.txt 2>&1
    ok $? "$what"
    [ -s cc.txt ] && diag "$(head -n 20 cc.txt)"
}
compile "rdmpifort -c compiles the test helper (free form)" rdmpifort -Wall -c "$src/mtest.f90" -o mtest.o
compile "rdmpif77 builds a fixed-form program on mpif.h" rdmpif77 -Wall "$src/f77_p2p.f" mtest.o -o f77_p2p
compile "rdmpif90 builds a free-form program on mpif.h" rdmpif90 -Wall "$src/f90_coll.f90" mtest.o -o f90_coll
compile "rdmpif90 builds the program of mpi.api's other functions" rdmpif90 -Wall "$src/f90_more.f90" mtest.o -o f90_more
compile "rdmpif90 builds the program of more functions" rdmpif90 -Wall "$src/f90_ext.f90" mtest.o -o f90_ext
compile "rdmpif90 builds the one-sided program" rdmpif90 -Wall "$src/f90_rma.f90" mtest.o -o f90_rma
compile "rdmpif90 builds the program of Fortran callbacks" rdmpif90 -Wall "$src/f90_cb.f90" mtest.o -o f90_cb
compile "rdmpif90 builds the program of MPI-1's removed calls and MPI_COMM_IDUP" rdmpif90 -Wall "$src/f90_mpi1.f90" mtest.o -o f90_mpi1
compile "rdmpifort builds the MPI_ABORT program" rdmpifort -Wall "$src/f90_abort.f90" -o f90_abort
compile "rdmpif90 builds a program on the mpi module (use mpi)" rdmpif90 -Wall "$src/f90_mod.f90" mtest.o -o f90_mod
compile "rdmpif90 builds a program on the mpi_f08 module (use mpi_f08, pmpi_f08)" rdmpif90 -Wall "$src/f08.f90" mtest.o -o f08
compile "rdmpif90 builds the collectives / topologies / array types program on mpi_f08" rdmpif90 -Wall "$src/f08_coll.f90" mtest.o -o f08_coll
compile "rdmpif90 builds the files program on the mpi module" rdmpif90 -Wall "$src/io.f90" mtest.o -o io
compile "rdmpif90 builds the files program on mpi_f08" rdmpif90 -Wall "$src/io08.f90" mtest.o -o io08
compile "rdmpif90 builds the data representations program on the mpi module" \
    rdmpif90 -Wall "$src/io_datarep.f90" mtest.o -o io_datarep
compile "rdmpif90 builds the data representations program on mpi_f08" \
    rdmpif90 -Wall "$src/io_datarep08.f90" mtest.o -o io_datarep08
# (the same on mpif.h: each scope's `use mpi` becomes include 'mpif.h')
sed -e '/^ *use mpi$/d' -e "s/^\( *\)implicit none$/\1implicit none\n\1include 'mpif.h'/" \
    "$src/io_datarep.f90" >f_io_datarep.f90
compile "rdmpif90 builds the data representations program on mpif.h" \
    rdmpif90 -Wall f_io_datarep.f90 mtest.o -o f_io_datarep

# use mpi: each argument but the choice buffers is checked by the compiler
cat >bad.f90 <<'EOF'
program bad
  use mpi
  implicit none
  integer :: buf(2), ierr
  call MPI_SEND(buf, 1.5, MPI_INTEGER, 0, 0, MPI_COMM_WORLD, ierr)
end program bad
EOF
LC_ALL=C rdmpifort -c bad.f90 -o bad.o >bad.txt 2>&1; rc=$?
is "$rc:$([ -e bad.o ] && echo bad.o)" 1: "use mpi: MPI_SEND with a REAL count does not compile"
like "$(cat bad.txt)" "Type mismatch in argument .count. at \\(1\\); passed REAL\\(4\\) to INTEGER\\(4\\)" \
    "use mpi: the compiler names the argument count and the types"
sed -e '/use mpi/d' -e '/implicit none/a\  include "mpif.h"' bad.f90 >bad77.f90
rdmpifort -c bad77.f90 -o bad77.o >bad.txt 2>&1
ok $? "the same call through mpif.h compiles (no interface: rdmpifort allows the mismatch)"
# use mpi_f08: the same (the generic has no specific for a REAL count); the
# call with an INTEGER count compiles
sed -e "s/use mpi$/use mpi_f08/" bad.f90 >bad08.f90
LC_ALL=C rdmpifort -c bad08.f90 -o bad08.o >bad.txt 2>&1; rc=$?
is "$rc:$([ -e bad08.o ] && echo bad08.o)" 1: "use mpi_f08: MPI_Send with a REAL count does not compile"
like "$(cat bad.txt)" "There is no specific subroutine for the generic .mpi_send. at \\(1\\)" \
    "use mpi_f08: the compiler finds no specific MPI_Send for it"
sed -e 's/use mpi$/use mpi_f08/' -e 's/call MPI_SEND(buf, 1.5, /call MPI_Send(buf, 1, /' bad.f90 >good08.f90
LC_ALL=C rdmpifort -c good08.f90 -o good08.o >bad.txt 2>&1
ok $? "use mpi_f08: the same call with an INTEGER count compiles"
[ -s bad.txt ] && diag "$(head -n 20 bad.txt)"
# the mpif.h programs, made `use mpi` programs, compile unchanged: the
# interfaces take every call they make (over 200 functions), buffers of
# mixed types, MPI_BOTTOM, MPI_IN_PLACE, the IGNOREs, MPI_UNWEIGHTED
bad=
for f in f90_coll f90_more f90_ext f90_rma f90_cb f90_mpi1; do
    sed -e "/^ *include 'mpif.h'/d" -e "0,/^ *implicit none/s//  use mpi\n  implicit none/" "$src/$f.f90" >"m_$f.f90"
    if ! grep -q '^  use mpi$' "m_$f.f90" || ! rdmpifort -c "m_$f.f90" -o "m_$f.o" >cc.txt 2>&1; then
        bad="$bad $f"
        [ -s cc.txt ] && diag "$(head -n 20 cc.txt)"
    fi
done
is "$bad" "" "f90_coll, f90_more, f90_ext, f90_rma, f90_cb, f90_mpi1 compile on use mpi instead of mpif.h"

mpi_check 2 ./f77_p2p
p2p_check "RD_FTEST_HOST=$(hostname)" 2 ./f90_coll
mpi_check 2 ./f90_more
mpi_check 2 ./f90_ext
mpi_check 2 ./f90_rma
mpi_check 2 ./f90_mod
mpi_check 2 ./f90_cb
mpi_check 2 ./f90_mpi1
p2p_check "RD_FTEST_HOST=$(hostname)" 2 ./f08
mpi_check 3 ./f08_coll
mpi_check 2 ./io
mpi_check 2 ./io08
mpi_check 2 ./io_datarep
mpi_check 2 ./f_io_datarep
mpi_check 2 ./io_datarep08
is "$(ls -A | grep '^io_f' | tr '\n' ' ')" "" "the files programs left no file"

# ------------------------------------------------------------ examples/jacobi
# quickstart's Fortran example (built by make with rdmpifort -O2), on a
# 25 x 25 grid (blocks of 12 and 13 points; 2105 sweeps: ~0.3 s a run) for
# time: the same result line on 1, 2 and 4 ranks, and the one x86-64's
# arithmetic gives (no fused multiply-add at -O2 without -march: another
# machine may differ in the last digits)
jacobi_line="sweeps 2105 change 9.9852966173319402E-11 error 1.3595282982725720E-08 sum 1.8722259597936286E+01"
first=
for np_dims in "1 1 x 1" "2 2 x 1" "4 2 x 2"; do
    np=${np_dims%% *}
    out=$(timeout -k 10 60 rrun -np "$np" "$RD_BUILDDIR/examples/jacobi" 25 2>&1); rc=$?
    is "$rc:$(printf '%s\n' "$out" | head -n 1)" \
        "0:jacobi: 25 x 25 points on $np ranks (${np_dims#* }), tolerance 1.0000000000000000E-10" \
        "examples/jacobi on $np ranks: exit 0, its grid of ranks"
    line=$(printf '%s\n' "$out" | grep '^sweeps ')
    [ -n "$first" ] || first=$line
    is "$line" "$first" "examples/jacobi on $np ranks: the result line of 1 rank"
done
if [ "$(uname -m)" = x86_64 ]; then
    is "$first" "$jacobi_line" "examples/jacobi: 2105 sweeps, the last change, the error and the sum to the last digit"
else
    skip "examples/jacobi's exact digits are x86-64's (this is $(uname -m))"
fi

# the same source built by Open MPI's and MPICH's mpifort from Debian
# (when configure found them) gives the same line: a Fortran program
# written for them builds with rdmpifort unchanged and answers the same
peer_jacobi() { # tag name mpifort launcher...
    local tag=$1 name=$2 fc=$3; shift 3
    if [ -z "$fc" ] || [ -z "$1" ]; then
        skip "$name's mpifort or launcher was not found by configure"
        return
    fi
    "$fc" -O2 -o "jacobi_$tag" "$RD_SRCDIR/examples/jacobi.f90" 2>"fc_$tag.err"
    is "$?" 0 "examples/jacobi.f90 builds with $name's mpifort"
    out=$(timeout -k 10 60 "$@" -np 2 "./jacobi_$tag" 25 2>&1)
    is "$(printf '%s\n' "$out" | grep '^sweeps ')" "$first" "examples/jacobi built with $name on 2 ranks: rdmpi's result line"
}
peer_jacobi ompi "Open MPI" "${RD_OMPI_MPIFORT:-}" ${RD_OMPI_MPIRUN:+"$RD_OMPI_MPIRUN" --allow-run-as-root --oversubscribe}
peer_jacobi mpich MPICH "${RD_MPICH_MPIFORT:-}" ${RD_MPICH_MPIEXEC:+"$RD_MPICH_MPIEXEC"}

out=$(timeout -k 10 60 rrun -np 2 ./f90_abort 2>&1); rc=$?
is "$rc" 7 "MPI_ABORT(MPI_COMM_WORLD, 7) from Fortran: rrun exits 7"
like "$out" '^rank 1 calls MPI_ABORT' "MPI_ABORT: rank 1's flushed line came out"
like "$out" '^rrun: rank 1 \(pid [0-9]+\) called MPI_Abort with code 7' "MPI_ABORT: rrun names rank 1 and code 7"
is "$(printf '%s\n' "$out" | grep -c 'went on after MPI_ABORT')" 0 "MPI_ABORT: no rank went on"
[ "$rc" -eq 7 ] || diag "$out"
done_testing
