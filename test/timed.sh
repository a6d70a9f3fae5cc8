#!/bin/sh
# timed.sh SHELL SCRIPT: runs a test script (Makefile.am's SH_LOG_COMPILER),
# then adds a TAP comment with its wall time to its log, so that the logs
# say where `make check`'s time goes (automake records none).
# Its exit status is the script's.
sh=$1
shift
start=$(date +%s)
"$sh" "$@"
rc=$?
echo "# $(basename "$1") took $(($(date +%s) - start)) s"
exit $rc
