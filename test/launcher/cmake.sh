#!/bin/sh
# cmake.sh - CMake's FindMPI, given MPI_C_COMPILER=<build>/launcher/rdmpicc,
# finds rdmpi (not Open MPI or MPICH): include dir, library, MPI 3.1; the
# target it builds with MPI::MPI_C runs under rrun.
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

mkdir src build
cp "$RD_SRCDIR/examples/hello.c" src/hello.c
cat >src/CMakeLists.txt <<'EOF'
cmake_minimum_required(VERSION 3.10)
project(rdmpi_findmpi C)
find_package(MPI REQUIRED COMPONENTS C)
add_executable(hello hello.c)
target_link_libraries(hello MPI::MPI_C)
file(WRITE "${CMAKE_BINARY_DIR}/mpi-vars.txt"
  "MPI_C_FOUND=${MPI_C_FOUND}\n"
  "MPI_C_COMPILER=${MPI_C_COMPILER}\n"
  "MPI_C_INCLUDE_DIRS=${MPI_C_INCLUDE_DIRS}\n"
  "MPI_C_LIBRARIES=${MPI_C_LIBRARIES}\n"
  "MPI_C_VERSION=${MPI_C_VERSION}\n")
EOF
var() { sed -n "s|^$1=||p" build/mpi-vars.txt; }

plan 10

# A sanitizer build's wrappers add -fsanitize=... to the compile and the
# link flags; FindMPI keeps the compile flags but, of the link flags, only
# -L, -l and -Wl,: the project links its programs with the sanitizer's
# runtime itself, as any CMake project must with such a build.
san=$(sed -n 's/^RD_SAN_FLAGS = //p' "$RD_BUILDDIR/Makefile")
(cd build && timeout 120 "$cmake" -DMPI_C_COMPILER="$RD_BUILDDIR/launcher/rdmpicc" \
    ${san:+"-DCMAKE_EXE_LINKER_FLAGS=$san"} ../src) >configure.log 2>&1
rc=$?
ok $rc "cmake configures a project with find_package(MPI REQUIRED COMPONENTS C)"
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

done_testing
