#!/bin/sh
# agent_netns.sh - a launch agent for rrun whose "hosts" are network
# namespaces (test/netns.sh): `agent_netns.sh HOST CMD...` runs CMD inside
# the namespace named HOST, as `ssh HOST CMD...` would run it on HOST.
# nsenter, not `ip netns exec`: the latter remounts /sys.
ns=$1
shift
exec nsenter --net="/run/netns/$ns" -- "$@"
