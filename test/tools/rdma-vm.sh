# shellcheck shell=bash
# rdma-vm.sh - what starting things in the RDMA VM needs beside the runner
# (test/tools/run-in-rdma-vm.sh); source it. Used by test/mpi/verbs.sh and
# the verbs benchmarks (bench/verbs/).

# rdma_vm_rw DIR...: the ':'-list of those DIRs the guest must be given
# read-write (the runner's RDMA_VM_RW). The guest sees the host's files
# read-only through an overlay, except /tmp and /run, where it mounts its
# own tmpfs: a tree there (a clone in /tmp) is shared explicitly.
# Elsewhere nothing is shared read-write, so the guest cannot write into
# the tree.
rdma_vm_rw() {
    local d rw=
    for d in "$@"; do
        d=$(cd "$d" && pwd -P) || continue
        case "$d" in /tmp | /tmp/* | /run | /run/*) rw=${rw:+$rw:}$d ;; esac
    done
    printf '%s' "$rw"
}

# rdma_vm_unless_device SRC BUILDDIR SCRIPT: where this machine has no
# verbs device (and this is not the VM already), run `bash SCRIPT BUILDDIR`
# in the VM instead of going on (the runner: $RDMPI_TEST_RDMA_VM, else
# SRC's copy); otherwise return.
rdma_vm_unless_device() {
    local src=$1 builddir=$2 script=$3 runner
    [ -z "$(ls /sys/class/infiniband 2>/dev/null)" ] && [ "${RDMA_VM:-}" != 1 ] || return 0
    runner=${RDMPI_TEST_RDMA_VM:-$src/test/tools/run-in-rdma-vm.sh}
    echo "# no verbs device here: $(basename "$script") runs in the RDMA VM ($runner)"
    cd "$builddir" && RDMA_VM_RW=$(rdma_vm_rw "$src" "$builddir") exec "$runner" bash "$script" "$builddir"
}
