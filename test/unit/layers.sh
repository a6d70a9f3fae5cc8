#!/bin/bash
# The layer rule (test/tools/layers.sh): no floor includes or calls one
# above it, in the tree as built; no circle of calls among rrun's files
# nor among the verbs plug-in's (test/tools/cycles.sh); and each check
# finds what it looks for in a small made-up tree.
. "$RD_SRCDIR/test/tap.sh"
check="$RD_SRCDIR/test/tools/layers.sh"
cycles="$RD_SRCDIR/test/tools/cycles.sh"
tap_tmpdir
T=$TAP_TMP
cd "$RD_BUILDDIR" || exit 1
mapfile -t objs < <(find runtime transports collectives -path '*/.libs/*.o' | sort)
n=${#objs[@]}
ok $([ "$n" -ge 60 ]; echo $?) "the library's objects are there to read ($n)"
out=$("$check" "$RD_SRCDIR" "${objs[@]}")
rc=$?
is "$out" "" "no floor includes or calls a floor above it"
is "$rc" 0 "the check exits 0"
for f in runtime/base runtime/objects runtime/p2p runtime/rma runtime/api collectives transports; do
    c=$(printf '%s\n' "${objs[@]}" | grep -c "^$f/")
    ok $([ "$c" -gt 0 ]; echo $?) "objects of $f are checked ($c)"
done
# A made-up tree with one breach of each kind, and uses that are allowed.
mk() { mkdir -p "$T/src/$(dirname "$1")"; printf '%s\n' "$2" >"$T/src/$1"; }
mk runtime/base/low.c '#include "runtime/base/low.h"
#include "runtime/api/top.h"'
mk runtime/base/low.h '/* nothing */'
mk runtime/api/top.c '#include "runtime/base/low.h"
#include "collectives/coll.h"
#include "runtime/io/io.h"'
mk runtime/io/io.c '#include "runtime/rma/rma.h"
#include "runtime/api/check.h"'
mk transports/t.c '#include "runtime/objects/comm.h"'
mk launcher/rrun/main.c '#include "runtime/base/params.h"
#include "runtime/p2p/p2p.h"'
mk collectives/c.c '  #  include "runtime/p2p/p2p.h"'
mkdir -p "$T/o/runtime/objects/.libs" "$T/o/collectives/.libs" "$T/o/runtime/api/.libs" "$T/o/transports/x/.libs"
cc_o() { printf '%s\n' "$2" | cc -x c -c -o "$T/o/$1" -; }
cc_o runtime/objects/.libs/librdmpi_la-comm.o 'void rd_up(void); void rd_obj(void) { rd_up(); }'
cc_o collectives/.libs/librdmpi_la-hier.o 'void rd_obj(void); void rd_up(void) { rd_obj(); }'
cc_o runtime/api/.libs/librdmpi_la-graph.o 'void rd_up(void); void rd_api(void) { rd_up(); }'
# a plug-in's own symbol of the same name is another unit's: not a breach
cc_o transports/x/.libs/rdmpi_tl_x_la-x.o 'void rd_api(void); void rd_t(void) { rd_api(); }'
out=$(cd "$T/o" && "$check" "$T/src" runtime/objects/.libs/librdmpi_la-comm.o \
    collectives/.libs/librdmpi_la-hier.o runtime/api/.libs/librdmpi_la-graph.o \
    transports/x/.libs/rdmpi_tl_x_la-x.o)
rc=$?
is "$out" "launcher/rrun/main.c:2 includes runtime/p2p/p2p.h
runtime/base/low.c:2 includes runtime/api/top.h
runtime/io/io.c:2 includes runtime/api/check.h
transports/t.c:1 includes runtime/objects/comm.h
runtime/objects/comm calls rd_up (collectives/hier)" "a made-up tree: each breach found, once, and nothing else"
is "$rc" 1 "a breach makes the check exit 1"

# rrun's files form layers (launcher/README.md, "rrun's layers"), and so do
# the verbs plug-in's: no file calls, directly or round a loop, a file
# that calls it.
cd "$RD_BUILDDIR" || exit 1
# objects whose source is still there (a build tree keeps those of files
# since removed or renamed, whose symbols would be taken twice)
live() {
    while read -r o; do
        d=$(dirname "$o"); d=${d%/.libs}
        b=$(basename "$o" .o); b=${b#*_la-}; b=${b#rrun-}
        [ -f "$RD_SRCDIR/$d/$b.c" ] && printf '%s\n' "$o"
    done
}
mapfile -t robjs < <(find launcher/rrun -name 'rrun-*.o' | sort | live)
ok $([ "${#robjs[@]}" -ge 16 ]; echo $?) "rrun's objects are there to read (${#robjs[@]})"
out=$("$cycles" "${robjs[@]}")
rc=$?
is "$out" "" "no circle of calls among rrun's files"
is "$rc" 0 "the check exits 0 on rrun"
mapfile -t vobjs < <(find transports/verbs -path '*/.libs/rdmpi_tl_verbs_la-*.o' | sort | live)
if [ "${#vobjs[@]}" -gt 0 ]; then
    out=$("$cycles" "${vobjs[@]}")
    rc=$?
    is "$out" "" "no circle of calls among the verbs plug-in's files (${#vobjs[@]})"
    is "$rc" 0 "the check exits 0 on verbs"
else
    skip "no circle among the verbs plug-in's files: not built (no libibverbs)"
    skip "the check exits 0 on verbs: not built"
fi
# A made-up program: a circle of three files, one of two, a file called
# from a circle that calls nothing back, and a file calling itself.
mkdir -p "$T/c/launcher/rrun"
cc_c() { printf '%s\n' "$2" | cc -x c -c -o "$T/c/launcher/rrun/rrun-$1.o" -; }
cc_c a 'void rb(void); void rd(void); void ra(void) { rb(); rd(); }'
cc_c b 'void rc(void); void rb(void) { rc(); }'
cc_c c 'void ra(void); void rc(void) { ra(); }'
cc_c d 'void rd2(void) { } void rd(void) { rd2(); }'
cc_c e 'void rf(void); void re(void) { rf(); }'
cc_c f 'void re(void); void rf(void) { re(); }'
out=$(cd "$T/c" && "$cycles" launcher/rrun/rrun-?.o)
rc=$?
is "$out" "cycle: launcher/rrun/a launcher/rrun/b launcher/rrun/c
  launcher/rrun/a -> launcher/rrun/b: rb
  launcher/rrun/b -> launcher/rrun/c: rc
  launcher/rrun/c -> launcher/rrun/a: ra
cycle: launcher/rrun/e launcher/rrun/f
  launcher/rrun/e -> launcher/rrun/f: rf
  launcher/rrun/f -> launcher/rrun/e: re" "a made-up program: each circle named with its files and calls, nothing else"
is "$rc" 1 "a circle makes the check exit 1"
out=$(cd "$T/c" && "$cycles" launcher/rrun/rrun-a.o launcher/rrun/rrun-b.o launcher/rrun/rrun-d.o)
rc=$?
is "$out/$rc" "/0" "without the file that closes it, no circle: no output, exit 0"
done_testing
