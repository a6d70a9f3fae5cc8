#!/bin/bash
# (rdmpi's copy of the project's shared VM runner, kept in the repository so
# that CI, which clones only the repository, can run the verbs tests;
# test/mpi/verbs.sh uses it unless RDMPI_TEST_RDMA_VM names another.)
#
# run-in-rdma-vm.sh - run one command inside a throw-away QEMU VM that boots
# Debian's own kernel (package linux-image-amd64) and has working soft-RoCE
# (rdma_rxe, device rxe0) and soft-iWARP (siw, device siw0) verbs devices.
#
#   run-in-rdma-vm.sh [--] COMMAND [ARG...]
#   run-in-rdma-vm.sh --prepare     only build the cache below (vmlinux,
#                                   siw.ko, initramfs) and exit: quickstart
#                                   runs it while the build's single-threaded
#                                   steps leave a core free
#
# The guest sees the host's whole filesystem (read-only 9p export of "/", with
# a tmpfs overlay on top, so writes anywhere succeed but vanish), so binaries
# built on the host run unchanged.  The directories in RDMA_VM_RW (default:
# the current directory) are shared read-write, so results written there reach
# the host.  The command runs as root in the same working directory with the
# caller's environment; its stdout/stderr are streamed back and its exit
# status is returned.  stdin is /dev/null.
#
# Inside the guest:
#   rxe0  on netdev rdmavm_rxe (dummy, 192.0.2.1/24),  RoCE v2 GID index 1
#   siw0  on netdev rdmavm_siw (dummy, 198.51.100.1/24)
#   exported: RDMA_VM=1 RDMA_VM_RXE_DEV RDMA_VM_RXE_IP RDMA_VM_RXE_GID_INDEX
#             RDMA_VM_SIW_DEV RDMA_VM_SIW_IP
#   (the addresses are documentation ranges on dummy devices inside the VM;
#    the VM has no network card, nothing leaves it.)
#
# Exit status: the command's; 124 on RDMA_VM_TIMEOUT; 125 when the VM itself
# failed (the guest console log is then printed on stderr).
#
# Settings (environment):
#   RDMA_VM_KVER     guest kernel version (default: newest /boot/vmlinuz-*
#                    whose /lib/modules/<ver> has rdma_rxe)
#   RDMA_VM_CACHE    cache dir for vmlinux/initramfs/siw.ko
#                    (default ${XDG_CACHE_HOME:-$HOME/.cache}/rdma-vm); the
#                    first run builds it (~50 s with the siw build), later
#                    runs reuse it
#   RDMA_VM_MEM      guest RAM (default 2G)
#   RDMA_VM_CPUS     guest vCPUs (default 2)
#   RDMA_VM_RW       ':'-separated host dirs shared read-write (default: $PWD;
#                    empty string = none)
#   RDMA_VM_SIW      auto (default: build/load siw if possible) | 1 (required) | 0
#   RDMA_VM_TIMEOUT  seconds before the VM is killed (default 0 = no limit)
#   RDMA_VM_ACCEL    tcg (default) | kvm  (kvm needs a real KVM host; the
#                    nested kvm_pvm /dev/kvm of some cloud sandboxes cannot run
#                    Debian's kernel: "KVM internal error ... emulation failure")
#   RDMA_VM_CPU      QEMU -cpu model under TCG (default qemu64: the x86-64
#                    baseline, so the guest's libraries take their SSE2 code;
#                    with max they take AVX2 code, which TCG emulates at a
#                    higher cost: the verbs suite's program part took 220
#                    CPU-seconds with max, 164 with qemu64; binaries built
#                    with -march=native need a model with their features)
#   RDMA_VM_APPEND   extra guest kernel command line
#   RDMA_VM_VERBOSE  1 = copy the guest console log to stderr at the end
#   RDMA_VM_CONSOLE  file to copy the guest console log to
#
# Host packages needed (Debian 12):
#   qemu-system-x86 linux-image-amd64 busybox-static iproute2 xz-utils cpio kmod
#   (no KVM needed: runs under TCG software emulation)
#   for siw (Debian's kernels are built without CONFIG_RDMA_SIW; the module is
#   built once from source and cached): linux-source linux-headers-amd64 gcc make
#   for verbs programs inside the guest: rdma-core ibverbs-providers
#   libibverbs1 librdmacm1 (+ ibverbs-utils rdmacm-utils perftest for tools)
set -u -o pipefail

die() { echo "run-in-rdma-vm: $*" >&2; exit 125; }
note() { echo "run-in-rdma-vm: $*" >&2; }

PREPARE=0
[ "${1:-}" = "--prepare" ] && { PREPARE=1; shift; }
[ "${1:-}" = "--" ] && shift
[ $PREPARE = 1 ] || [ $# -ge 1 ] || die "usage: $0 [--] COMMAND [ARG...] | $0 --prepare"

CACHE=${RDMA_VM_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/rdma-vm}
MEM=${RDMA_VM_MEM:-2G}
CPUS=${RDMA_VM_CPUS:-2}
SIW_MODE=${RDMA_VM_SIW:-auto}
TIMEOUT=${RDMA_VM_TIMEOUT:-0}
ACCEL=${RDMA_VM_ACCEL:-tcg}
RW_DIRS=${RDMA_VM_RW-$PWD}

QEMU=$(command -v qemu-system-x86_64) || die "qemu-system-x86_64 missing (apt-get install qemu-system-x86)"
for t in cpio xz modprobe; do command -v $t >/dev/null || die "$t missing"; done
BUSYBOX=
for b in /bin/busybox /usr/bin/busybox; do
  if [ -x "$b" ] && ! ldd "$b" >/dev/null 2>&1; then BUSYBOX=$b; break; fi
done
[ -n "$BUSYBOX" ] || die "static busybox missing (apt-get install busybox-static)"
RDMA_TOOL=$(command -v rdma) || die "rdma tool missing (apt-get install iproute2)"

# ---------------------------------------------------------------- kernel
if [ -n "${RDMA_VM_KVER:-}" ]; then
  KVER=$RDMA_VM_KVER
else
  KVER=
  for v in $(ls /boot/vmlinuz-* 2>/dev/null | sed 's|/boot/vmlinuz-||' | sort -V); do
    [ -n "$(find /lib/modules/$v/kernel/drivers/infiniband/sw/rxe -name 'rdma_rxe.ko*' 2>/dev/null)" ] && KVER=$v
  done
  [ -n "$KVER" ] || die "no /boot/vmlinuz-* with rdma_rxe in /lib/modules (apt-get install linux-image-amd64)"
fi
VMLINUZ=/boot/vmlinuz-$KVER
[ -r "$VMLINUZ" ] || die "$VMLINUZ missing"
[ -d /lib/modules/$KVER ] || die "/lib/modules/$KVER missing"

mkdir -p "$CACHE" || die "cannot create $CACHE"
exec 9>"$CACHE/.lock"
flock 9

# Uncompressed ELF vmlinux boots through PVH and skips the in-guest
# decompressor (worth ~1 s under TCG).  Fall back to the bzImage.
KERNEL=$CACHE/vmlinux-$KVER
if [ ! -s "$KERNEL" ] || [ "$KERNEL" -ot "$VMLINUZ" ]; then
  off=$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$VMLINUZ" 2>/dev/null | head -n1 | cut -d: -f1)
  # (xz stops after the first stream; tail then dies of SIGPIPE: status ignored)
  [ -n "$off" ] && { tail -c +$((off + 1)) "$VMLINUZ" | xz -dc --single-stream > "$KERNEL.tmp"; } 2>/dev/null
  if [ -n "$off" ] && [ "$(head -c4 "$KERNEL.tmp" | od -An -tx1 | tr -d ' \n')" = 7f454c46 ]; then
    mv "$KERNEL.tmp" "$KERNEL"
  else
    rm -f "$KERNEL.tmp"; KERNEL=$VMLINUZ
  fi
fi

# siw: use the kernel's own module if it has one, else build it once.
SIW_KO=
if [ "$SIW_MODE" != 0 ]; then
  if modprobe -S "$KVER" --show-depends siw >/dev/null 2>&1; then
    SIW_KO=builtin-modules
  else
    SIW_KO=$CACHE/siw-$KVER.ko
    if [ ! -s "$SIW_KO" ]; then
      src=$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -n1)
      if [ -n "$src" ] && [ -d /lib/modules/$KVER/build ]; then
        note "building siw.ko for $KVER from $src (once)"
        bd=$(mktemp -d)
        if tar -xJf "$src" -C "$bd" --wildcards '*/drivers/infiniband/sw/siw/*' &&
           d=$(dirname "$(find "$bd" -name siw_main.c | head -n1)") &&
           make -s -C /lib/modules/$KVER/build M="$d" CONFIG_RDMA_SIW=m modules >"$bd/build.log" 2>&1 &&
           strip --strip-debug "$d/siw.ko" -o "$SIW_KO.tmp"; then
          mv "$SIW_KO.tmp" "$SIW_KO"
        else
          note "siw build failed:"; tail -n 20 "$bd/build.log" >&2 2>/dev/null
        fi
        rm -rf "$bd"
      fi
    fi
    if [ ! -s "$SIW_KO" ]; then
      SIW_KO=
      msg="no siw module (needs: apt-get install linux-source linux-headers-amd64 gcc make)"
      [ "$SIW_MODE" = 1 ] && die "$msg"
      note "$msg; continuing with rxe only"
    fi
  fi
fi

# ---------------------------------------------------------------- initramfs
# /init below runs in the guest before the host filesystem is available; it
# only uses busybox, the modules and the rdma tool packed next to it.
read -r -d '' GUEST_INIT <<'INIT_EOF'
#!/bin/busybox sh
B=/bin/busybox
$B mount -t proc proc /proc
$B mount -t sysfs sysfs /sys
$B mount -t devtmpfs devtmpfs /dev
exec 3>/dev/ttyS0
log() { echo "rdma-vm-init: $*" >&3; }
up() { read -r t _ < /proc/uptime; log "t=$t $*"; }
up start
die() { log "FATAL: $*"; echo "rdma-vm-init: $*" >> /xfer/vmerror 2>/dev/null; $B sync; $B poweroff -f; }
DBG=; case " $(cat /proc/cmdline) " in *" rdmavm.debug "*) DBG=1;; esac
while read -r m args; do
  $B insmod /modules/$m.ko $args || log "insmod $m failed"
  [ -n "$DBG" ] && up "insmod $m"
done < /modules.order
up modules loaded
$B mkdir -p /xfer /lower /upper /newroot
O9=trans=virtio,version=9p2000.L,msize=512000
$B mount -t 9p -o $O9,cache=none xfer /xfer || die "mount xfer"
$B mount -t 9p -o $O9,ro,cache=loose hostroot /lower || die "mount hostroot"
$B mount -t tmpfs -o mode=0755 upper /upper
$B mkdir -p /upper/u /upper/w
$B mount -t overlay -o lowerdir=/lower,upperdir=/upper/u,workdir=/upper/w overlay /newroot || die "mount overlay"
$B mount -t tmpfs -o mode=1777 tmpfs /newroot/tmp
$B mount -t tmpfs -o mode=0755 tmpfs /newroot/run
$B mkdir -p /newroot/run/rdmavm /newroot/run/lock /newroot/run/rdmavm-ctl
X=/xfer
# small control files go to tmpfs: bash reads them byte by byte
$B cp $X/args $X/env $X/cwd $X/stage2.sh /newroot/run/rdmavm-ctl/
i=0
while IFS= read -r p; do
  [ -n "$p" ] || continue
  $B mkdir -p "/newroot$p"
  $B mount -t 9p -o $O9,cache=mmap rw$i "/newroot$p" || die "mount rw$i at $p"
  i=$((i + 1))
done < $X/rw.list
up filesystems mounted
# network + RDMA devices
$B ip link set lo up
$B ip link add rdmavm_rxe type dummy && $B ip addr add 192.0.2.1/24 dev rdmavm_rxe && $B ip link set rdmavm_rxe up || die "rxe netdev"
R="/rdma/ld.so --library-path /rdma /rdma/rdma"
$R link add rxe0 type rxe netdev rdmavm_rxe || die "rdma link add rxe0"
if [ -e /modules/siw.ko ]; then
  $B ip link add rdmavm_siw type dummy && $B ip addr add 198.51.100.1/24 dev rdmavm_siw && $B ip link set rdmavm_siw up || die "siw netdev"
  $R link add siw0 type siw netdev rdmavm_siw || die "rdma link add siw0"
fi
$B hostname rdma-vm
up rdma devices ready
for d in proc sys dev; do $B mount --move /$d /newroot/$d || die "move $d"; done
$B mkdir -p /newroot/dev/pts /newroot/dev/shm
$B mount -t devpts -o mode=620,ptmxmode=666 devpts /newroot/dev/pts
$B mount -t tmpfs -o mode=1777 tmpfs /newroot/dev/shm
$B mount --move /xfer /newroot/run/rdmavm || die "move xfer"
exec $B switch_root /newroot /bin/bash /run/rdmavm-ctl/stage2.sh
INIT_EOF

# stage2 runs as PID 1 from the host's filesystem, under the host's bash.
read -r -d '' GUEST_STAGE2 <<'STAGE2_EOF'
X=/run/rdmavm
exec </dev/null >>$X/stdout 2>>$X/stderr
C=/run/rdmavm-ctl
read -r t _ < /proc/uptime; echo "rdma-vm-stage2: t=$t start" > /dev/ttyS0
mapfile -d '' -t RDMAVM_ARGS < $C/args
IFS= read -r -d '' RDMAVM_CWD < $C/cwd
while IFS= read -r -d '' kv; do
  case ${kv%%=*} in PWD|OLDPWD|SHLVL|_|HOSTNAME|BASH_ENV|ENV|BASH_FUNC_*) continue;; esac
  export -- "$kv" 2>/dev/null
done < $C/env
export RDMA_VM=1 RDMA_VM_RXE_DEV=rxe0 RDMA_VM_RXE_IP=192.0.2.1 RDMA_VM_RXE_GID_INDEX=1
if [ -e /sys/class/infiniband/siw0 ]; then export RDMA_VM_SIW_DEV=siw0 RDMA_VM_SIW_IP=198.51.100.1; fi
ulimit -l unlimited
cd "$RDMAVM_CWD" || { echo "run-in-rdma-vm: cannot cd to $RDMAVM_CWD" >&2; echo 125 > $X/rc; echo o > /proc/sysrq-trigger; exec /bin/sleep 1000; }
read -r t _ < /proc/uptime; echo "rdma-vm-stage2: t=$t running command" > /dev/ttyS0
"${RDMAVM_ARGS[@]}"
echo $? > $X/rc
read -r t _ < /proc/uptime; echo "rdma-vm-stage2: t=$t command done" > /dev/ttyS0
/bin/sync
echo o > /proc/sysrq-trigger
exec /bin/sleep 1000
STAGE2_EOF

# crypto-crc32/crc32c: rxe and siw request them at device creation, before any modprobe exists
TOP_MODULES="virtio_pci 9pnet_virtio 9p overlay dummy crypto-crc32 crypto-crc32c libcrc32c rdma_rxe ib_uverbs rdma_ucm"
ID=$( { echo "$KVER"; echo "$GUEST_INIT"; echo "$TOP_MODULES"; echo "$SIW_KO";
        [ -f "$SIW_KO" ] && md5sum < "$SIW_KO"; md5sum < "$BUSYBOX"; md5sum < "$RDMA_TOOL"; } | md5sum | cut -c1-12)
INITRD=$CACHE/initramfs-$KVER-$ID.cpio
if [ ! -s "$INITRD" ]; then
  st=$(mktemp -d)
  mkdir -p "$st"/{bin,modules,rdma,proc,sys,dev}
  cp "$BUSYBOX" "$st/bin/busybox"
  printf '%s\n' "$GUEST_INIT" > "$st/init"; chmod 755 "$st/init"
  : > "$st/modules.order"
  mods=$TOP_MODULES
  [ "$SIW_KO" = builtin-modules ] && mods="$mods siw"
  modprobe -S "$KVER" -a --show-depends $mods 2>"$st/err" | while read -r kw path args; do
    [ "$kw" = insmod ] || continue
    name=$(basename "$path"); name=${name%%.ko*}
    grep -q "^$name\( \|$\)" "$st/modules.order" && continue
    case $path in
      *.ko.xz)  xz -dc "$path" > "$st/modules/$name.ko" ;;
      *.ko.zst) zstd -qdc "$path" > "$st/modules/$name.ko" ;;
      *.ko.gz)  gzip -dc "$path" > "$st/modules/$name.ko" ;;
      *)        cp "$path" "$st/modules/$name.ko" ;;
    esac
    echo "$name $args" >> "$st/modules.order"
  done
  grep -q '^rdma_rxe' "$st/modules.order" || { cat "$st/err" >&2; rm -rf "$st"; die "module list for $KVER incomplete"; }
  if [ -f "$SIW_KO" ]; then cp "$SIW_KO" "$st/modules/siw.ko"; echo siw >> "$st/modules.order"; fi
  cp "$RDMA_TOOL" "$st/rdma/rdma"
  ldd "$RDMA_TOOL" | awk '/=>/ {print $3} /^\t\/.*ld-linux/ {print $1}' | while read -r lib; do
    [ -f "$lib" ] && cp -L "$lib" "$st/rdma/"
  done
  cp -L "$(ldd "$RDMA_TOOL" | awk '/ld-linux/ {for(i=1;i<=NF;i++) if ($i ~ /^\//) {print $i; exit}}')" "$st/rdma/ld.so"
  (cd "$st" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) > "$INITRD.tmp" && mv "$INITRD.tmp" "$INITRD"
  rm -rf "$st"
  [ -s "$INITRD" ] || die "initramfs build failed"
fi
flock -u 9
[ $PREPARE = 1 ] && exit 0

# ---------------------------------------------------------------- per run
X=$(mktemp -d "${TMPDIR:-/tmp}/rdma-vm.XXXXXX") || die "mktemp"
QPID=
cleanup() {
  [ -n "$QPID" ] && kill "$QPID" 2>/dev/null && wait "$QPID" 2>/dev/null
  [ -n "${TPIDS:-}" ] && kill $TPIDS 2>/dev/null
  rm -rf "$X"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

printf '%s\0' "$@" > "$X/args"
printf '%s' "$PWD" > "$X/cwd"
env -0 > "$X/env"
printf '%s\n' "$GUEST_STAGE2" > "$X/stage2.sh"
: > "$X/stdout"; : > "$X/stderr"; : > "$X/rw.list"
qesc() { printf '%s' "${1//,/,,}"; }
FSDEVS=()
i=0
IFS=: read -r -a rwarr <<< "$RW_DIRS"
# shallow paths first, so nested shares are mounted on top of their parents
for p in $(for d in "${rwarr[@]}"; do [ -n "$d" ] && readlink -f "$d"; done | awk '{print length($0) " " $0}' | sort -n | cut -d' ' -f2-); do
  [ -d "$p" ] || die "RDMA_VM_RW: $p is not a directory"
  [ "$p" != / ] || die "RDMA_VM_RW: / cannot be shared read-write"
  FSDEVS+=(-fsdev "local,id=rw$i,path=$(qesc "$p"),security_model=none,multidevs=remap"
           -device "virtio-9p-pci,fsdev=rw$i,mount_tag=rw$i")
  printf '%s\n' "$p" >> "$X/rw.list"
  i=$((i + 1))
done

case $ACCEL in
  kvm) ACCEL_ARGS=(-accel kvm -cpu host) ;;
  *)   ACCEL_ARGS=(-accel tcg,thread=multi -cpu "${RDMA_VM_CPU:-qemu64}") ;;
esac

TO=()
[ "$TIMEOUT" != 0 ] && TO=(timeout "$TIMEOUT")
"${TO[@]}" "$QEMU" "${ACCEL_ARGS[@]}" -smp "$CPUS" -m "$MEM" \
  -nodefaults -no-user-config -display none -no-reboot \
  -kernel "$KERNEL" -initrd "$INITRD" \
  -append "console=ttyS0 quiet panic=-1 rdinit=/init mitigations=off cryptomgr.notests ${RDMA_VM_APPEND:-}" \
  -serial "file:$X/console.log" \
  -fsdev "local,id=hostroot,path=/,readonly=on,security_model=none,multidevs=remap" \
  -device virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot \
  -fsdev "local,id=xfer,path=$(qesc "$X"),security_model=none" \
  -device virtio-9p-pci,fsdev=xfer,mount_tag=xfer \
  "${FSDEVS[@]}" </dev/null >"$X/qemu.log" 2>&1 &
QPID=$!

tail -q -s 0.2 --pid=$QPID -c +1 -f "$X/stdout" & TPIDS=$!
tail -q -s 0.2 --pid=$QPID -c +1 -f "$X/stderr" >&2 & TPIDS="$TPIDS $!"

wait $QPID; qrc=$?
QPID=
wait $TPIDS 2>/dev/null; TPIDS=
timed_out=0
[ "$TIMEOUT" != 0 ] && [ $qrc = 124 ] && [ ! -s "$X/rc" ] && timed_out=1

[ -n "${RDMA_VM_CONSOLE:-}" ] && cp "$X/console.log" "$RDMA_VM_CONSOLE" 2>/dev/null
if [ "${RDMA_VM_VERBOSE:-0}" = 1 ]; then
  echo "---- guest console ----" >&2; cat "$X/console.log" "$X/qemu.log" >&2
fi
if [ $timed_out = 1 ]; then
  note "timed out after ${TIMEOUT}s"; exit 124
fi
if [ -s "$X/rc" ]; then
  exit "$(cat "$X/rc")"
fi
note "VM failed (qemu exit $qrc), no exit status from guest"
[ -s "$X/vmerror" ] && cat "$X/vmerror" >&2
echo "---- guest console (tail) ----" >&2; tail -n 40 "$X/console.log" >&2
cat "$X/qemu.log" >&2
exit 125
