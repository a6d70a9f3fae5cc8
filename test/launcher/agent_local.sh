#!/bin/sh
# agent_local.sh - a launch agent for the rrun multi-host tests that starts
# the daemon on this machine, as `ssh HOST CMD...` would on HOST: the ranks
# it serves see RRUN_TEST_HOST=HOST, so a test can tell the "hosts" apart.
#   agent_local.sh HOST CMD [ARG...]
RRUN_TEST_HOST=$1
export RRUN_TEST_HOST
shift
exec "$@"
