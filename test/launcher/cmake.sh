#!/bin/sh
# cmake.sh - CMake's FindMPI, given MPI_C_COMPILER=<build>/launcher/rdmpicc,
# finds rdmpi (not Open MPI or MPICH): include dir, library, MPI 3.1; the
# target it builds with MPI::MPI_C runs under rrun. Where the build has the
# Fortran bindings, the same configure asks for the Fortran component too
# (MPI_Fortran_COMPILER=rdmpifort): mpif.h, the mpi and mpi_f08 modules found, their
# directory, the two libraries, and a target with MPI::MPI_Fortran
# (examples/jacobi.f90, a `use mpi` program) that runs and gives the result
# of the build's examples/jacobi.
. "$RD_SRCDIR/test/tap.sh"

cmake=${RD_CMAKE:-}
if [ -z "$cmake" ] || [ ! -x "$cmake" ]; then
    skip_all "cmake was not found by configure"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/rdmpi-cmake.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

inc=$(cd "$RD_SRCDIR/include" && pwd)
libs="$RD_BUILDDIR/.libs"
host=$(hostname)

fort=no
grep -q '^RD_HAVE_FORTRAN = yes$' "$RD_BUILDDIR/Makefile" && fort=yes
mkdir src build
cp "$RD_SRCDIR/examples/hello.c" src/hello.c
cp "$RD_SRCDIR/examples/jacobi.f90" src/jacobi.f90
if [ "$fort" = yes ]; then langs="C Fortran"; else langs=C; fi
cat >src/CMakeLists.txt <<EOF
cmake_minimum_required(VERSION 3.10)
project(rdmpi_findmpi $langs)
find_package(MPI REQUIRED COMPONENTS $langs)
EOF
cat >>src/CMakeLists.txt <<'EOF'
add_executable(hello hello.c)
target_link_libraries(hello MPI::MPI_C)
file(WRITE "${CMAKE_BINARY_DIR}/mpi-vars.txt"
  "MPI_C_FOUND=${MPI_C_FOUND}\n"
  "MPI_C_COMPILER=${MPI_C_COMPILER}\n"
  "MPI_C_INCLUDE_DIRS=${MPI_C_INCLUDE_DIRS}\n"
  "MPI_C_LIBRARIES=${MPI_C_LIBRARIES}\n"
  "MPI_C_VERSION=${MPI_C_VERSION}\n")
if(CMAKE_Fortran_COMPILER)
  add_executable(jacobi jacobi.f90)
  target_link_libraries(jacobi MPI::MPI_Fortran)
  file(APPEND "${CMAKE_BINARY_DIR}/mpi-vars.txt"
    "MPI_Fortran_FOUND=${MPI_Fortran_FOUND}\n"
    "MPI_Fortran_HAVE_F77_HEADER=${MPI_Fortran_HAVE_F77_HEADER}\n"
    "MPI_Fortran_HAVE_F90_MODULE=${MPI_Fortran_HAVE_F90_MODULE}\n"
    "MPI_Fortran_HAVE_F08_MODULE=${MPI_Fortran_HAVE_F08_MODULE}\n"
    "MPI_Fortran_INCLUDE_DIRS=${MPI_Fortran_INCLUDE_DIRS}\n"
    "MPI_Fortran_LIBRARIES=${MPI_Fortran_LIBRARIES}\n"
    "MPI_Fortran_VERSION=${MPI_Fortran_VERSION}\n")
endif()
EOF
var() { sed -n "s|^$1=||p" build/mpi-vars.txt; }

plan 16

# A sanitizer build's wrappers add -fsanitize=... to the compile and the
# link flags; FindMPI keeps the compile flags but, of the link flags, only
# -L, -l and -Wl,: the project links its programs with the sanitizer's
# runtime itself, as any CMake project must with such a build.
san=$(sed -n 's/^RD_SAN_FLAGS = //p' "$RD_BUILDDIR/Makefile")
fort_args=
[ "$fort" = yes ] && fort_args="-DMPI_Fortran_COMPILER=$RD_BUILDDIR/launcher/rdmpifort"
# shellcheck disable=SC2086 # fort_args: one word or none
(cd build && timeout 120 "$cmake" -DMPI_C_COMPILER="$RD_BUILDDIR/launcher/rdmpicc" $fort_args \
    ${san:+"-DCMAKE_EXE_LINKER_FLAGS=$san"} ../src) >configure.log 2>&1
rc=$?
ok $rc "cmake configures a project with find_package(MPI REQUIRED COMPONENTS $langs)"
[ "$rc" -eq 0 ] || diag "$(tail -n 30 configure.log)"
is "$(var MPI_C_FOUND)" "TRUE" "MPI_C_FOUND"
is "$(var MPI_C_COMPILER)" "$RD_BUILDDIR/launcher/rdmpicc" "MPI_C_COMPILER is rdmpicc"
is "$(var MPI_C_INCLUDE_DIRS)" "$inc" "MPI_C_INCLUDE_DIRS is rdmpi's include/ and nothing else"
is "$(var MPI_C_LIBRARIES)" "$libs/librdmpi.so" "MPI_C_LIBRARIES is librdmpi and nothing else"
is "$(var MPI_C_VERSION)" "3.1" "MPI_C_VERSION"
like "$(grep -c -i -e openmpi -e mpich build/mpi-vars.txt build/CMakeCache.txt | tr '\n' ' ')" \
    '^[^ ]*:0 [^ ]*:0 $' "neither Open MPI nor MPICH appears in what FindMPI found"

(timeout 120 "$cmake" --build build) >build.log 2>&1
rc=$?
ok $rc "cmake --build builds the MPI::MPI_C target"
[ "$rc" -eq 0 ] || diag "$(tail -n 30 build.log)"

if [ -x "$RD_BUILDDIR/launcher/rrun/rrun" ]; then
    out=$(env -u LD_LIBRARY_PATH timeout 60 rrun -np 2 ./build/hello 2>err.txt); rc=$?
    is "$rc" 0 "rrun -np 2 runs the CMake-built program, exit 0"
    is "$(printf '%s\n' "$out" | LC_ALL=C sort)" "Hello from rank 0 of 2 on $host
Hello from rank 1 of 2 on $host" "it prints ranks 0 and 1 of 2"
    [ -s err.txt ] && diag "stderr: $(cat err.txt)"
else
    skip "rrun is not built yet ($RD_BUILDDIR/launcher/rrun/rrun)"
    skip "rrun is not built yet"
fi

if [ "$fort" = yes ]; then
    is "$(var MPI_Fortran_FOUND):$(var MPI_Fortran_HAVE_F77_HEADER):$(var MPI_Fortran_HAVE_F90_MODULE):$(var MPI_Fortran_HAVE_F08_MODULE):$(var MPI_Fortran_VERSION)" \
        "TRUE:TRUE:TRUE:TRUE:3.1" \
        "Fortran: MPI_Fortran_FOUND, MPI_Fortran_HAVE_F77_HEADER (mpif.h), MPI_Fortran_HAVE_F90_MODULE (mpi), MPI_Fortran_HAVE_F08_MODULE (mpi_f08), MPI_Fortran_VERSION"
    is "$(var MPI_Fortran_INCLUDE_DIRS)" "$RD_BUILDDIR/runtime/fortran" "MPI_Fortran_INCLUDE_DIRS is mpif.h's and mpi.mod's directory"
    is "$(var MPI_Fortran_LIBRARIES)" "$libs/librdmpifort.so;$libs/librdmpi.so" "MPI_Fortran_LIBRARIES: librdmpifort, librdmpi"
    ok "$([ -x build/jacobi ]; echo $?)" "cmake --build builds the MPI::MPI_Fortran target (examples/jacobi.f90: use mpi)"
    # its result: the build's examples/jacobi's (one binary's on 1 rank)
    ref=$(timeout 60 rrun -np 1 "$RD_BUILDDIR/examples/jacobi" 12 | grep '^sweeps ') ||
        ref="(the build's examples/jacobi failed)"
    out=$(env -u LD_LIBRARY_PATH timeout 60 rrun -np 2 ./build/jacobi 12 2>err.txt); rc=$?
    is "$rc:$(printf '%s\n' "$out" | sed -n '1,2p' | tr '\n' ';')" \
        "0:jacobi: 12 x 12 points on 2 ranks (2 x 1), tolerance 1.0000000000000000E-10;$ref;" \
        "rrun -np 2 runs the CMake-built Fortran program: the result of the build's examples/jacobi"
    [ -s err.txt ] && diag "stderr: $(cat err.txt)"
    is "$(grep -c -i -e openmpi -e mpich build/mpi-vars.txt)" 0 "neither Open MPI nor MPICH in what FindMPI found for Fortran"
else
    for _ in 1 2 3 4 5 6; do skip "this build has no Fortran bindings"; done
fi

done_testing
