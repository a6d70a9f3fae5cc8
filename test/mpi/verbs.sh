#!/bin/bash
# verbs.sh - the verbs transport's tests (test/mpi/verbs_suite.sh).
#
# Where this machine has a verbs device, the suite runs here, on it.
# Otherwise it runs inside a throw-away QEMU VM with soft-RoCE (rxe0) and
# soft-iWARP (siw0): the runner is $RDMPI_TEST_RDMA_VM if set, else the
# repository's copy, test/tools/run-in-rdma-vm.sh. Under software
# emulation that is slow, so the whole suite is one VM run. Skips, saying
# which packages are missing, when the build has no verbs transport or
# when there is no device and the VM cannot be built
# (./quickstart check installs them all).
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"

"$RD_BUILDDIR/launcher/rdmpi_info" | grep -q "^transports:.* verbs\( \|\$\)" ||
    skip_all "the verbs transport is not built (configure found no rdma-core: apt-get install libibverbs-dev librdmacm-dev)"

if [ -n "$(ls /sys/class/infiniband 2>/dev/null)" ]; then
    diag "verbs devices here: $(ls /sys/class/infiniband | tr '\n' ' ')"
    exec bash "$RD_SRCDIR/test/mpi/verbs_suite.sh"
fi

# No device: the VM. What it needs (Debian packages in parentheses).
runner=${RDMPI_TEST_RDMA_VM:-$RD_SRCDIR/test/tools/run-in-rdma-vm.sh}
missing=
need() { command -v "$1" >/dev/null 2>&1 || missing="$missing $2"; }
need qemu-system-x86_64 qemu-system-x86
need cpio cpio
need xz xz-utils
need modprobe kmod
need rdma iproute2
need ibv_devinfo ibverbs-utils
static_busybox=
for b in /bin/busybox /usr/bin/busybox; do
    [ -x "$b" ] && ! ldd "$b" >/dev/null 2>&1 && static_busybox=$b
done
[ -n "$static_busybox" ] || missing="$missing busybox-static"
ls /lib/modules/*/kernel/drivers/infiniband/sw/rxe/rdma_rxe.ko* >/dev/null 2>&1 || missing="$missing linux-image-amd64"
ls /usr/lib/*/libibverbs/librxe-rdmav*.so >/dev/null 2>&1 || missing="$missing ibverbs-providers"
ls /usr/src/linux-source-*.tar.xz >/dev/null 2>&1 || missing="$missing linux-source"
ls -d /lib/modules/*/build >/dev/null 2>&1 || missing="$missing linux-headers-amd64"
[ -x "$runner" ] || missing="$missing (the runner $runner)"
[ -z "$missing" ] || skip_all "no verbs device here, and the RDMA test VM needs:$missing"

tap_tmpdir
# shellcheck source=test/tools/rdma-vm.sh
. "$RD_SRCDIR/test/tools/rdma-vm.sh"
vm_rw=$(rdma_vm_rw "$RD_SRCDIR" "$RD_BUILDDIR") # a tree under /tmp or /run
start=$SECONDS
n=0
# The guest prints the suite's points; they pass through as they come.
while IFS= read -r line; do
    printf '%s\n' "$line"
    case "$line" in
    "ok "* | "not ok "*) n=$(printf '%s\n' "$line" | sed -n 's/^\(not \)\{0,1\}ok \([0-9]*\).*/\2/p') ;;
    esac
done < <(cd "$RD_BUILDDIR" && RDMA_VM_RW=$vm_rw RDMA_VM_TIMEOUT=${RDMPI_TEST_RDMA_VM_TIMEOUT:-3600} \
    VB_SUITE_NO_PLAN=1 "$runner" bash "$RD_SRCDIR/test/mpi/verbs_suite.sh" 2>"$TAP_TMP/vm.err"
    echo $? >"$TAP_TMP/vm.rc")
_tap_n=$n
rc=$(cat "$TAP_TMP/vm.rc")
is "$rc" 0 "the VM ran the suite to its end (exit status of the runner)"
[ "$rc" = 0 ] || diag "$(tail -n 40 "$TAP_TMP/vm.err")"
diag "the VM part took $((SECONDS - start)) s"
done_testing
