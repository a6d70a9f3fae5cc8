#!/bin/sh
# timed.sh SHELL SCRIPT: runs a test script (Makefile.am's SH_LOG_COMPILER),
# then adds a TAP comment with its wall time and CPU time to its log, so
# that the logs say where `make check`'s time goes (automake records none).
# The CPU time is the script's and every process it waited for (launchers
# and their ranks, the VM), from this shell's children's ticks in
# /proc/PID/stat (fields 16 and 17). Its exit status is the script's.
sh=$1
shift
start=$(date +%s)
"$sh" "$@"
rc=$?
cpu=$(awk -v hz="$(getconf CLK_TCK)" '{ printf "%.1f", ($16 + $17) / hz }' /proc/$$/stat 2>/dev/null)
echo "# $(basename "$1") took $(($(date +%s) - start)) s, CPU ${cpu:-?} s"
exit $rc
