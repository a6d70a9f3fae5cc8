#!/bin/sh
# wrappers.sh - the compiler wrappers rdmpicc and rdmpicxx: the exact commands
# they run (-show, -showme..., -compile-info/-link-info), no link flags for
# compile-only runs, --version/-v, RDMPI_CC / RDMPI_CXX, programs built with
# them running under rrun, and the installed wrappers (a DESTDIR-staged
# install and a real one under a temporary prefix; rdmpifort and its links
# where the build has the Fortran bindings: test/fortran/fortran.sh tests
# the build tree's).
. "$RD_SRCDIR/test/tap.sh"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/rdmpi-wrappers.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

# What the build-tree wrappers must add: the configured compilers, mpi.h from
# the source tree, librdmpi from the build tree.
cc=$(sed -n 's/^CC = //p' "$RD_BUILDDIR/Makefile")
cxx=$(sed -n 's/^CXX = //p' "$RD_BUILDDIR/Makefile")
inc=$(cd "$RD_SRCDIR/include" && pwd)
libs="$RD_BUILDDIR/.libs"
# a sanitizer build adds its -fsanitize flags to both (X: empty otherwise)
san=$(sed -n 's/^RD_SAN_FLAGS = //p' "$RD_BUILDDIR/Makefile")
X=${san:+ $san}
link="-L$libs -Wl,-rpath,$libs -lrdmpi$X"
host=$(hostname)
hello_src="$RD_SRCDIR/examples/hello.c"
version=$(sed -n 's/^#define RDMPI_VERSION_STRING "\(.*\)"$/\1/p' "$RD_SRCDIR/include/mpi.h")

# expected_hello N: the lines of examples/hello.c run on N ranks, sorted.
expected_hello() {
    r=0
    while [ "$r" -lt "$1" ]; do
        echo "Hello from rank $r of $1 on $host"
        r=$((r + 1))
    done | LC_ALL=C sort
}

# A make that does not join the jobserver of the `make check` running us.
submake() {
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL timeout 600 make -C "$RD_BUILDDIR" "$@"
}

rrun_path=$(command -v rrun 2>/dev/null)
have_rrun=no
[ "$rrun_path" = "$RD_BUILDDIR/launcher/rrun/rrun" ] && [ -x "$rrun_path" ] && have_rrun=yes

plan 61

# ------------------------------------------------------------ what they run
is "$(command -v rdmpicc)" "$RD_BUILDDIR/launcher/rdmpicc" "rdmpicc from the build tree is first in PATH"
is "$(rdmpicc -show -O2 hello.c -o hello -lm)" "$cc -I$inc$X -O2 hello.c -o hello -lm $link" \
    "-show: compiler, -I<srcdir>/include, user args in order, -L/-rpath/-lrdmpi"
is "$(rdmpicc -showme foo.c bar.o -o app)" "$cc -I$inc$X foo.c bar.o -o app $link" "-showme: the same command"
is "$(rdmpicc --showme -g x.c)" "$cc -I$inc$X -g x.c $link" "--showme: the same command"
is "$(rdmpicc -show)" "$cc -I$inc$X $link" "-show without arguments"
is "$(rdmpicc -show 'a b.c' -DX='1 2')" "$cc -I$inc$X 'a b.c' '-DX=1 2' $link" "-show quotes arguments with spaces"
is "$(rdmpicc --showme:compile)" "-I$inc$X" "--showme:compile: only the compile flags"
is "$(rdmpicc -showme:compile)" "-I$inc$X" "-showme:compile: only the compile flags"
is "$(rdmpicc --showme:link)" "$link" "--showme:link: only the link flags"
is "$(rdmpicc -showme:link)" "$link" "-showme:link: only the link flags"
is "$(rdmpicc -showme:command)" "$cc" "-showme:command: the compiler"
is "$(rdmpicc -showme:incdirs) $(rdmpicc -showme:libdirs) $(rdmpicc -showme:libs)" "$inc $libs rdmpi" \
    "-showme:incdirs, libdirs, libs"
is "$(rdmpicc -compile-info)" "$cc -I$inc$X" "-compile-info (MPICH): the compile command"
is "$(rdmpicc -link-info)" "$cc -I$inc$X $link" "-link-info (MPICH): the link command"
out=$(rdmpicc -showme:bogus 2>&1); rc=$?
is "$rc:$out" "1:rdmpicc: unknown option -showme:bogus (try -showme:help)" "an unknown -showme: option fails"

# ------------------------------------------------------------ compile only
nolink=""
for opt in -c -E -S -M -MM; do
    got=$(rdmpicc -show "$opt" hello.c)
    [ "$got" = "$cc -I$inc$X $opt hello.c" ] || nolink="$nolink $opt:[$got]"
done
is "$nolink" "" "-c, -E, -S, -M, -MM: no link flags"
is "$(rdmpicc -show -O2 -c hello.c -o hello.o -MD)" "$cc -I$inc$X -O2 -c hello.c -o hello.o -MD" \
    "-c anywhere among the arguments: no link flags"
rdmpicc -c "$hello_src" -o hello.o 2>err.txt
ok $? "rdmpicc -c compiles examples/hello.c"
is "$(LC_ALL=C readelf -h hello.o 2>/dev/null | sed -n 's/^ *Type: *\([A-Z]*\).*/\1/p')" "REL" \
    "rdmpicc -c makes an object file, not a program"
is "$(cat err.txt)" "" "rdmpicc -c prints nothing"

# ------------------------------------------------------------ versions
is "$(rdmpicc --version | head -n 1)" "rdmpicc: the rdmpi $version wrapper of $cc" "--version: the wrapper's line first"
is "$(rdmpicc --version | sed -n 2p)" "$($cc --version | head -n 1)" "--version: then the compiler's version"
out=$(rdmpicc -v 2>&1); rc=$?
is "$rc:$(printf '%s\n' "$out" | head -n 1)" "0:rdmpicc: the rdmpi $version wrapper of $cc" "-v: the wrapper's line, exit 0"
like "$out" "$(basename "$cc") version|clang version" "-v: then the compiler's -v output"
is "$(rdmpicxx --version | head -n 1)" "rdmpicxx: the rdmpi $version wrapper of $cxx" "rdmpicxx --version"

# ------------------------------------------------------------ programs
rdmpicc "$hello_src" -o hello 2>err.txt
ok $? "rdmpicc links examples/hello.c"
is "$(cat err.txt)" "" "rdmpicc prints nothing when linking"
like "$(LC_ALL=C readelf -d hello 2>/dev/null | grep -E 'RPATH|RUNPATH')" "\[$libs\]" \
    "the program carries the run path of librdmpi"
if [ "$have_rrun" = yes ]; then
    out=$(env -u LD_LIBRARY_PATH timeout 60 rrun -np 4 ./hello 2>err.txt); rc=$?
    is "$rc" 0 "rrun -np 4 ./hello exits 0 (without LD_LIBRARY_PATH)"
    is "$(printf '%s\n' "$out" | LC_ALL=C sort)" "$(expected_hello 4)" "rrun -np 4 ./hello: ranks 0..3 of 4"
    [ -s err.txt ] && diag "stderr: $(cat err.txt)"
else
    skip "rrun is not built yet ($RD_BUILDDIR/launcher/rrun/rrun)"
    skip "rrun is not built yet"
fi

is "$(rdmpicxx -show -O2 app.cc -o app)" "$cxx -I$inc$X -O2 app.cc -o app $link" "rdmpicxx -show: the C++ compiler"
cat >hello.cc <<'EOF'
#include <mpi.h>
#include <iostream>
#include <string>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = -1, size = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    std::string who = "C++ rank " + std::to_string(rank) + " of " + std::to_string(size);
    std::cout << who << std::endl;
    MPI_Finalize();
    return 0;
}
EOF
rdmpicxx -Wall -Werror hello.cc -o hello_cxx 2>err.txt
ok $? "rdmpicxx builds a C++ program that includes <mpi.h> (-Wall -Werror)"
[ -s err.txt ] && diag "$(cat err.txt)"
if [ "$have_rrun" = yes ]; then
    out=$(env -u LD_LIBRARY_PATH timeout 60 rrun -np 2 ./hello_cxx 2>err.txt); rc=$?
    is "$rc:$(printf '%s\n' "$out" | LC_ALL=C sort | tr '\n' ';')" "0:C++ rank 0 of 2;C++ rank 1 of 2;" \
        "the C++ program runs under rrun -np 2"
else
    skip "rrun is not built yet"
fi

# ------------------------------------------------------------ RDMPI_CC, RDMPI_CXX
cat >logcc <<EOF
#!/bin/sh
echo "cc \$*" >>"$tmp/compiler.log"
exec $cc "\$@"
EOF
cat >logcxx <<EOF
#!/bin/sh
echo "cxx \$*" >>"$tmp/compiler.log"
exec $cxx "\$@"
EOF
chmod +x logcc logcxx
RDMPI_CC="$tmp/logcc" rdmpicc -c "$hello_src" -o hello2.o &&
    RDMPI_CC="$tmp/logcc" rdmpicc hello2.o -o hello2
ok $? "RDMPI_CC: compiles and links through the given compiler"
RDMPI_CXX="$tmp/logcxx" rdmpicxx -c hello.cc -o hello_cxx.o
ok $? "RDMPI_CXX: compiles through the given compiler"
is "$(cat compiler.log)" "cc -I$inc$X -c $hello_src -o hello2.o
cc -I$inc$X hello2.o -o hello2 $link
cxx -I$inc$X -c hello.cc -o hello_cxx.o" "RDMPI_CC / RDMPI_CXX get exactly the wrapper's arguments"
is "$(RDMPI_CC=/bin/mycc rdmpicc -show x.c)" "/bin/mycc -I$inc$X x.c $link" "-show names RDMPI_CC"
is "$(RDMPI_CC='' rdmpicc -showme:command)" "$cc" "an empty RDMPI_CC means the configured compiler"
is "$(RDMPI_CC='ccache gcc' rdmpicc -show -c x.c)" "ccache gcc -I$inc$X -c x.c" "RDMPI_CC may hold a command with arguments"

# ------------------------------------------------------------ staged install (DESTDIR)
p=/opt/rdmpi-test
dirs="prefix=$p exec_prefix=$p bindir=$p/bin libdir=$p/lib includedir=$p/include"
# shellcheck disable=SC2086 # $dirs is a list of make variables
submake install DESTDIR="$tmp/stage" $dirs >stage.log 2>&1
rc=$?
ok $rc "make install DESTDIR=... prefix=$p"
[ "$rc" -eq 0 ] || diag "$(tail -n 20 stage.log)"
s="$tmp/stage$p"
missing=""
for f in bin/rdmpicc bin/rdmpicxx bin/rdmpi_info include/mpi.h lib/librdmpi.so; do
    [ -e "$s/$f" ] || missing="$missing $f"
done
is "$missing" "" "staged: bin/rdmpicc, bin/rdmpicxx, bin/rdmpi_info, include/mpi.h, lib/librdmpi.so"
is "$("$s/bin/rdmpicc" -show x.c -o x)" "$cc -I$p/include$X x.c -o x -L$p/lib -Wl,-rpath,$p/lib -lrdmpi$X" \
    "the staged rdmpicc uses the install paths"
is "$("$s/bin/rdmpicxx" -show x.cc)" "$cxx -I$p/include$X x.cc -L$p/lib -Wl,-rpath,$p/lib -lrdmpi$X" \
    "the staged rdmpicxx uses the install paths"
is "$(cat "$s/bin/rdmpicc" "$s/bin/rdmpicxx" | grep -c -e "$tmp" -e "$RD_BUILDDIR")" 0 \
    "the staged wrappers name neither DESTDIR nor the build tree"
# the Fortran bindings (configure's default when a Fortran compiler works)
if grep -q '^RD_HAVE_FORTRAN = yes$' "$RD_BUILDDIR/Makefile"; then
    fc=$(sed -n 's/^FC = //p' "$RD_BUILDDIR/Makefile")
    fflags=$(sed -n 's/^RD_FC_WRAPPER_FLAGS = //p' "$RD_BUILDDIR/Makefile")
    got=
    for f in bin/rdmpifort include/mpif.h include/mpi.mod include/mpi_f08.mod include/pmpi_f08.mod \
        include/mpi_f08_types.mod lib/librdmpifort.so; do [ -e "$s/$f" ] && got="$got $f"; done
    for f in rdmpif90 rdmpif77; do [ "$(readlink "$s/bin/$f")" = rdmpifort ] && got="$got $f"; done
    # shellcheck disable=SC2016 # the .pc file's own variables
    grep -qx 'Libs: -L${libdir} -Wl,-rpath,${libdir} -lrdmpifort' "$s/lib/pkgconfig/rdmpi-fort.pc" 2>/dev/null &&
        grep -qx 'Requires: rdmpi' "$s/lib/pkgconfig/rdmpi-fort.pc" && got="$got rdmpi-fort.pc"
    is "$got" " bin/rdmpifort include/mpif.h include/mpi.mod include/mpi_f08.mod include/pmpi_f08.mod include/mpi_f08_types.mod lib/librdmpifort.so rdmpif90 rdmpif77 rdmpi-fort.pc" \
        "staged: bin/rdmpifort, include/mpif.h, the modules mpi, mpi_f08, pmpi_f08, mpi_f08_types, lib/librdmpifort.so, rdmpif90 and rdmpif77 linked to rdmpifort, rdmpi-fort.pc"
    is "$("$s/bin/rdmpif90" -show x.f90)" \
        "$fc -I$p/include${fflags:+ $fflags}$X x.f90 -L$p/lib -Wl,-rpath,$p/lib -lrdmpifort -lrdmpi$X" \
        "the staged rdmpif90 uses the install paths"
else
    skip "this build has no Fortran bindings"
    skip "this build has no Fortran bindings"
fi
is "$(rdmpicc -showme:libdirs)" "$libs" "the build-tree rdmpicc is unchanged by the install"

# ------------------------------------------------------------ real install
i="$tmp/inst"
dirs="prefix=$i exec_prefix=$i bindir=$i/bin libdir=$i/lib includedir=$i/include"
# shellcheck disable=SC2086
submake install $dirs >inst.log 2>&1
rc=$?
ok $rc "make install prefix=$i"
[ "$rc" -eq 0 ] || diag "$(tail -n 20 inst.log)"
is "$("$i/bin/rdmpicc" -show hello.c)" "$cc -I$i/include$X hello.c -L$i/lib -Wl,-rpath,$i/lib -lrdmpi$X" \
    "the installed rdmpicc uses the install paths"
"$i/bin/rdmpicc" "$hello_src" -o hello_inst 2>err.txt
ok $? "the installed rdmpicc builds examples/hello.c"
is "$(env -u LD_LIBRARY_PATH ldd ./hello_inst | sed -n 's/^[[:space:]]*librdmpi\.so[^ ]* => \([^ ]*\) .*/\1/p')" \
    "$i/lib/$(LC_ALL=C readelf -d "$i/lib/librdmpi.so" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')" \
    "the program finds the installed librdmpi"
is "$("$i/bin/rdmpi_info" --version)" "rdmpi $version" "the installed rdmpi_info runs"
if [ -x "$i/bin/rrun" ]; then
    out=$(env -u LD_LIBRARY_PATH PATH="$i/bin:/usr/bin:/bin" timeout 60 "$i/bin/rrun" -np 4 ./hello_inst 2>err.txt)
    rc=$?
    is "$rc" 0 "the installed rrun -np 4 runs it, exit 0"
    is "$(printf '%s\n' "$out" | LC_ALL=C sort)" "$(expected_hello 4)" "the installed rrun: ranks 0..3 of 4"
    [ -s err.txt ] && diag "stderr: $(cat err.txt)"
else
    skip "rrun is not installed (not built yet?)"
    skip "rrun is not installed"
fi
# a Fortran program of the installed rdmpifort, on the installed mpi and
# mpi_f08 modules (examples/jacobi.f90, and a `use mpi_f08` program):
# librdmpifort finds the installed librdmpi beside it
if grep -q '^RD_HAVE_FORTRAN = yes$' "$RD_BUILDDIR/Makefile" && [ -x "$i/bin/rrun" ]; then
    "$i/bin/rdmpif90" "$RD_SRCDIR/examples/jacobi.f90" -o jacobi 2>err.txt
    ok $? "the installed rdmpif90 builds examples/jacobi.f90 (use mpi: the installed mpi.mod)"
    # its result: the build's examples/jacobi's (one binary's on 1 rank)
    ref=$(timeout 60 rrun -np 1 "$RD_BUILDDIR/examples/jacobi" 12 | grep '^sweeps ') ||
        ref="(the build's examples/jacobi failed)"
    out=$(env -u LD_LIBRARY_PATH PATH="$i/bin:/usr/bin:/bin" timeout 60 "$i/bin/rrun" -np 2 ./jacobi 12 2>err.txt)
    is "$?:$(printf '%s\n' "$out" | sed -n '1,2p' | tr '\n' ';')" \
        "0:jacobi: 12 x 12 points on 2 ranks (2 x 1), tolerance 1.0000000000000000E-10;$ref;" \
        "the installed rrun -np 2 runs it (librdmpifort finds the installed librdmpi): the build's result"
    [ -s err.txt ] && diag "stderr: $(cat err.txt)"
    cat >f08.f90 <<'EOF'
program f08
  use mpi_f08
  implicit none
  type(MPI_Comm) :: c
  call MPI_Init()
  call MPI_Comm_dup(MPI_COMM_WORLD, c)
  if (c == MPI_COMM_NULL) call MPI_Abort(MPI_COMM_WORLD, 3)
  call MPI_Comm_free(c)
  call MPI_Finalize()
end program f08
EOF
    "$i/bin/rdmpif90" f08.f90 -o f08 2>err.txt
    ok $? "the installed rdmpif90 builds a use mpi_f08 program (the installed mpi_f08.mod, mpi_f08_types.mod)"
    env -u LD_LIBRARY_PATH PATH="$i/bin:/usr/bin:/bin" timeout 60 "$i/bin/rrun" -np 1 ./f08 >err.txt 2>&1
    ok $? "the installed rrun runs it"
    [ -s err.txt ] && diag "stderr: $(cat err.txt)"
else
    skip "no Fortran bindings, or rrun is not installed"
    skip "no Fortran bindings, or rrun is not installed"
    skip "no Fortran bindings, or rrun is not installed"
    skip "no Fortran bindings, or rrun is not installed"
fi
# shellcheck disable=SC2086
submake uninstall $dirs >uninst.log 2>&1
ok $? "make uninstall"
left=""
for f in bin/rdmpicc bin/rdmpicxx bin/rdmpi_info; do
    [ -e "$i/$f" ] && left="$left $f"
done
is "$left" "" "make uninstall removes the wrappers and rdmpi_info"
left=$(cd "$i" && ls bin/rdmpif* include/mpif.h include/*.mod lib/librdmpifort* lib/pkgconfig/rdmpi-fort.pc 2>/dev/null | tr '\n' ' ')
is "$left" "" "make uninstall removes the Fortran wrappers, links, mpif.h, the .mod files and librdmpifort"

done_testing
