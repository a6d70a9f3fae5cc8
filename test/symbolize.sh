#!/bin/bash
# symbolize.sh LOG... - the sanitizers' reports in test logs, with their
# functions and source lines (the logs are rewritten in place).
#
# The tests of a sanitizer build run with ASAN_OPTIONS=symbolize=0: the
# leak check at every exit symbolizes the sanitizer runtime's own frame of
# each leak it then suppresses (libpmix's), which costs about a second per
# process, and most of the sanitizer pass's time. A frame is then written
# as "#3 0x7f1234567890  (/path/librdmpi.so.0+0x4a1c2)"; make
# check-sanitizers hands the logs of the tests that failed to this script,
# which appends " in FUNCTION FILE:LINE" from addr2line (binutils).
for log in "$@"; do
    [ -f "$log" ] || continue
    grep -qE '#[0-9]+ 0x[0-9a-f]+ +\(.+\+0x[0-9a-f]+\)$' "$log" || continue
    while IFS= read -r line; do
        if [[ $line =~ \#([0-9]+)\ 0x[0-9a-f]+\ +\((.+)\+(0x[0-9a-f]+)\)$ ]]; then
            n=${BASH_REMATCH[1]} mod=${BASH_REMATCH[2]} off=${BASH_REMATCH[3]}
            # a caller's frame holds the return address: its call is just before
            [ "$n" -gt 0 ] && off=$(printf '0x%x' $((off - 1)))
            where=$(addr2line -f -C -e "$mod" "$off" 2>/dev/null | paste -sd ' ')
            case $where in
            '' | '?? ??:0' | '?? ??:?') printf '%s\n' "$line" ;;
            *) printf '%s in %s\n' "$line" "$where" ;;
            esac
        else
            printf '%s\n' "$line"
        fi
    done <"$log" >"$log.sym" && mv -f "$log.sym" "$log"
done
