#!/bin/bash
# sanitizers.sh - programs of a sanitizer build (--enable-sanitizers=
# address,undefined; this test is run only there):
#  - a program built with rdmpicc runs under rrun with LeakSanitizer on and
#    no suppressions of its own, and exits 0 with nothing on stderr:
#    librdmpi carries the suppressions of libpmix's leaks (runtime/base/lsan.supp);
#  - a leak of the program's own is reported, with its stack, and the rank
#    exits 1, which rrun reports as the job's failure; so is a heap
#    overflow;
#  - no pattern of runtime/base/lsan.supp matches a file of rdmpi's (the
#    library, its plug-ins, rrun, the sources, the build and install
#    directories), so that none of rdmpi's own leaks can be suppressed;
#  - undefined behaviour ends the program with UBSan's report (the tests'
#    UBSAN_OPTIONS), so that it fails its test;
#  - RDMPI_SHM_XMAP=1 turns the buffer mapping on under AddressSanitizer
#    (not silently off), so the forced xmap sets of coll.sh check it.
. "$RD_SRCDIR/test/tap.sh"
tap_tmpdir
cd "$TAP_TMP" || exit 1

cat >leak.c <<'EOF'
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* 4242 bytes nobody points at once this returns */
static __attribute__((noinline)) void lose_4242_bytes(void)
{
    volatile char *p = malloc(4242);
    p[0] = 1;
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc > 2 && rank == atoi(argv[2]) && argv[1][0] == 'l')
        lose_4242_bytes();
    if (argc > 2 && rank == atoi(argv[2]) && argv[1][0] == 'o') {
        volatile char *volatile p = malloc(24);
        p[24] = 1; /* one past the end */
        free((void *)p);
    }
    if (argc > 2 && rank == atoi(argv[2]) && argv[1][0] == 'u') {
        volatile int big = INT_MAX;
        printf("%d\n", big + argc); /* signed overflow */
    }
    printf("rank %d done\n", rank);
    MPI_Finalize();
    return 0;
}
EOF
plan 19
rdmpicc -g -o leak leak.c >build.log 2>&1
ok $? "rdmpicc builds a program with the sanitizers"
[ -s build.log ] && diag "$(cat build.log)"

# No suppressions of the test's own: only what librdmpi carries.
run() { # ENV... -- RRUN-ARGS...: sets RC, OUT, ERR
    local envs=()
    while [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    env "${envs[@]}" timeout -k 10 120 rrun "$@" >out 2>err </dev/null
    RC=$?
    OUT=$(LC_ALL=C sort out)
    ERR=$(cat err)
}
run LSAN_OPTIONS=print_suppressions=0 ASAN_OPTIONS=detect_leaks=1 -- -np 2 ./leak
is "$RC" 0 "no leak of its own: exit 0, LeakSanitizer on, no suppressions file (librdmpi's list covers libpmix)"
is "$OUT" "rank 0 done
rank 1 done" "both ranks ran to the end"
is "$ERR" "" "nothing on stderr"

run LSAN_OPTIONS=print_suppressions=0 ASAN_OPTIONS=detect_leaks=1 -- -np 2 ./leak leak 1
is "$RC" 1 "a leak of the program's own: the job fails with status 1"
like "$ERR" "ERROR: LeakSanitizer: detected memory leaks" "LeakSanitizer reports it"
like "$ERR" "Direct leak of 4242 byte\(s\) in 1 object\(s\) allocated from:" "the leak: its size"
like "$ERR" "in lose_4242_bytes .*leak\.c:9" "the leak: the program's frame"
like "$ERR" "rrun: rank 1 \(pid [0-9]+\) exited with status 1; ending the job" \
    "rrun names the rank whose leak check failed"

run LSAN_OPTIONS=print_suppressions=0 ASAN_OPTIONS=detect_leaks=1 -- -np 2 ./leak overflow 1
is "$RC" 1 "a heap overflow: the job fails with status 1"
like "$ERR" "ERROR: AddressSanitizer: heap-buffer-overflow" "AddressSanitizer reports it"
like "$ERR" "WRITE of size 1 " "the overflow: a write of one byte"
like "$ERR" "#0 .* in main .*leak\.c:22" "the overflow: the program's line"

run UBSAN_OPTIONS="${UBSAN_OPTIONS:-}" -- -np 2 ./leak ub 0
ok "$([ "$RC" -ne 0 ] && echo 0 || echo 1)" "undefined behaviour fails the job (status $RC)"
like "$ERR" "leak\.c:[0-9]+:[0-9]+: runtime error: signed integer overflow" "UBSan's report names the line"

run RDMPI_SHM_XMAP=1 RDMPI_LOG=debug:shm -- -np 2 ./leak
is "$RC" 0 "RDMPI_SHM_XMAP=1: the job runs clean"
like "$ERR" "rdmpi\[1\] shm debug: direct mapping of large collective buffers on" \
    "RDMPI_SHM_XMAP=1: the buffer mapping is on under AddressSanitizer"

# LeakSanitizer matches a pattern against the module path, function name
# and source file of every frame: none of rdmpi's may contain one.
libdir=$(sed -n 's/^libdir = //p' "$RD_BUILDDIR/Makefile")
prefix=$(sed -n 's/^prefix = //p' "$RD_BUILDDIR/Makefile")
libdir=${libdir//\$\{exec_prefix\}/$prefix}
ours=$(
    printf '%s\n' "$RD_BUILDDIR/.libs/librdmpi.so" "$RD_BUILDDIR/launcher/rrun/rrun" "$TAP_TMP/leak" \
        "$libdir/librdmpi.so" "$libdir/rdmpi/rdmpi_tl_ucx.so"
    ls "$RD_BUILDDIR"/.libs/rdmpi_tl_*.so 2>/dev/null
    # sources as the debug information names them: from the build
    # directory, and absolute
    srcs=$(cd "$RD_SRCDIR" && find . -name '*.[ch]' -not -path './build*' | sed 's|^\./||')
    printf '%s\n' "$srcs" | sed 's|^|../|'
    printf '%s\n' "$srcs" | sed "s|^|$RD_SRCDIR/|"
)
pats=$(sed -n 's/^leak://p' "$RD_SRCDIR/runtime/base/lsan.supp")
is "$(printf '%s\n' "$pats" | grep -c .)" "$(grep -c '^leak:/' "$RD_SRCDIR/runtime/base/lsan.supp")" \
    "every pattern starts with / (it cannot match a function name)"
hit=
while IFS= read -r p; do
    m=$(printf '%s\n' "$ours" | grep -F -- "$p" | head -1)
    [ -n "$m" ] && hit="$hit $p ($m)"
done <<<"$pats"
is "$hit" "" "no pattern matches a file of rdmpi's ($(printf '%s\n' "$ours" | wc -l) paths)"
done_testing
