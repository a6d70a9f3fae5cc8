#!/bin/bash
# p2p_reuse: buffers freed and allocated again (malloc, mmap at the same
# address, heap) between large messages, under every protocol setting;
# the verbs test runs it over RDMA with the registration cache.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
p2p_suite p2p_reuse "2" 2
done_testing
