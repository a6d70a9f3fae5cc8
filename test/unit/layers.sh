#!/bin/bash
# The layer rule (test/tools/layers.sh): no floor includes or calls one
# above it, in the tree as built; and the check itself finds a breach of
# each kind in a small made-up tree.
. "$RD_SRCDIR/test/tap.sh"
check="$RD_SRCDIR/test/tools/layers.sh"
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
for f in runtime/base runtime/objects runtime/p2p runtime/api collectives transports; do
    c=$(printf '%s\n' "${objs[@]}" | grep -c "^$f/")
    ok $([ "$c" -gt 0 ]; echo $?) "objects of $f are checked ($c)"
done
# A made-up tree with one breach of each kind, and uses that are allowed.
mk() { mkdir -p "$T/src/$(dirname "$1")"; printf '%s\n' "$2" >"$T/src/$1"; }
mk runtime/base/low.c '#include "runtime/base/low.h"
#include "runtime/api/top.h"'
mk runtime/base/low.h '/* nothing */'
mk runtime/api/top.c '#include "runtime/base/low.h"
#include "collectives/coll.h"'
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
transports/t.c:1 includes runtime/objects/comm.h
runtime/objects/comm calls rd_up (collectives/hier)" "a made-up tree: each breach found, once, and nothing else"
is "$rc" 1 "a breach makes the check exit 1"
done_testing
