#!/bin/bash
# Non-overtaking across every protocol switch (0 B .. 4 MiB), blocking and
# nonblocking, one tag and several, specific and wildcard sources.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
. "$RD_SRCDIR/test/mpi/p2p_lib.sh"
p2p_suite p2p_order "2 3 4" 3

# Each peer's protocol table (runtime/p2p/peers.c), chosen once when the
# peer is connected and printed in one line (RDMPI_LOG=debug:p2p): exactly
# that line, once per peer, on both ranks of a shm pair, under the default
# choice and forced ones.
proto_table() {
    local envs=$1 want=$2 r
    p2p_check "$envs RDMPI_LOG=debug:p2p" 2 "$RD_BUILDDIR/test/mpi/p2p_order"
    for r in 0 1; do
        is "$(printf '%s\n' "$P2P_OUT" | sed -n "s/^rdmpi\[$r\] p2p debug: \(rank [0-9]* via .*\)/\1/p")" \
            "rank $((1 - r)) via shm: $want" "${envs:-defaults}: rank $r prints its peer's protocol table once"
    done
}
proto_table "" "eager <= 32768 B, rndv get 32769..65535 B, split 65536 B..inf, exchange put"
proto_table "RDMPI_EAGER_LIMIT=1 RDMPI_RNDV_PROTOCOL=put" "eager <= 1 B, rndv put 2 B..inf, exchange put"
proto_table "RDMPI_RNDV_PROTOCOL=split RDMPI_EAGER_LIMIT=4096" \
    "eager <= 4096 B, rndv split 4097 B..inf, exchange split"
# an eager limit beyond the largest active message (shm's default ring:
# 65536 B with the header) is cut to what fits
proto_table "RDMPI_EAGER_LIMIT=65536" "eager <= 65496 B, rndv get 65497..65535 B, split 65536 B..inf, exchange put"
proto_table "RDMPI_RNDV_SPLIT_MIN=1M" "eager <= 32768 B, rndv get 32769..1048575 B, split 1048576 B..inf, exchange put"
# without single copy (no RMA) only active messages move data
proto_table "RDMPI_SHM_CMA=0" "eager <= 32768 B, rndv pipeline 32769 B..inf, exchange pipeline"
# the transport's own rendezvous asked for where there is none: auto
proto_table "RDMPI_RNDV_PROTOCOL=transport" "eager <= 32768 B, rndv get 32769..65535 B, split 65536 B..inf, exchange put"
done_testing
