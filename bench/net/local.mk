# bench/net/: the p2p benchmarks over the network transports (UCX, libfabric)
# against Open MPI on the same loopback TCP path. Never part of `make check`.
EXTRA_DIST += bench/net/run.sh
