#!/bin/sh
# rrun runs N ranks that see their rank and size through PMIx, forwards
# their output whole lines at a time, sets -x variables, tags output, feeds
# stdin to rank 0, and exits 0 only when every rank exits 0.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/launcher/rrun_lib.sh"

HOST=$(hostname)

# PMIx: rank, size, local rank, hostname, and every peer's key after a fence.
hello_expected() {
    _r=0
    while [ $_r -lt "$1" ]; do
        echo "rank $_r size $1 local_rank $_r host $HOST peers ok"
        _r=$((_r + 1))
    done
}
for n in 1 2 3 4; do
    run_rrun -np $n "$PROGS/rrun_hello"
    is "$RC" 0 "hello -np $n: exit status 0"
    is "$(printf '%s\n' "$OUT" | sort)" "$(hello_expected $n)" "hello -np $n: every rank's view"
    is "$ERR" "" "hello -np $n: nothing on stderr"
    check_no_leftovers "hello -np $n"
done

# The fence upcall path: with the local-only shortcut off, libpmix hands
# every fence to rrun's fence_nb.
export PMIX_MCA_pmix_server_fence_localonly_opt=0
run_rrun -np 3 "$PROGS/rrun_hello"
unset PMIX_MCA_pmix_server_fence_localonly_opt
is "$RC" 0 "hello through rrun's fence_nb: exit status 0"
is "$(printf '%s\n' "$OUT" | sort)" "$(hello_expected 3)" "hello through rrun's fence_nb: every rank's view"

# A program that never connects to PMIx is fine.
run_rrun -np 4 /bin/true
is "$RC" 0 "/bin/true -np 4: exit status 0"
is "$OUT$ERR" "" "/bin/true -np 4: no output"

# -x VAR=value sets, -x VAR copies rrun's value, an unset VAR stays unset.
export RRUN_T_COPY="copied value" RRUN_T_SET=old
unset RRUN_T_UNSET
run_rrun -np 2 -x RRUN_T_SET=new=1 -x RRUN_T_COPY \
    -x RRUN_T_UNSET "$PROGS/rrun_probe" env RRUN_T_SET RRUN_T_COPY RRUN_T_UNSET
is "$RC" 0 "-x: exit status 0"
is "$(printf '%s\n' "$OUT" | sort)" "rank 0 RRUN_T_COPY=copied value
rank 0 RRUN_T_SET=new=1
rank 0 RRUN_T_UNSET unset
rank 1 RRUN_T_COPY=copied value
rank 1 RRUN_T_SET=new=1
rank 1 RRUN_T_UNSET unset" "-x: values as set"

# --tag-output
run_rrun -np 3 --tag-output "$PROGS/rrun_probe" env RRUN_T_NONE
is "$(printf '%s\n' "$OUT" | sort)" "[0] rank 0 RRUN_T_NONE unset
[1] rank 1 RRUN_T_NONE unset
[2] rank 2 RRUN_T_NONE unset" "--tag-output prefixes every line with [rank]"

# stdout and stderr stay apart, and lines stay whole although the ranks
# write them in pieces (small stdio buffers) all at once.
N=3000
run_rrun -np 4 "$PROGS/rrun_probe" lines $N
is "$RC" 0 "lines: exit status 0"
PAY='[a-d]{300}'
is "$(grep -c '' "$T/out")" $((4 * N)) "lines: all stdout lines arrive"
is "$(grep -c '' "$T/err")" $((4 * N)) "lines: all stderr lines arrive"
is "$(grep -Evc "^out rank ([0-3]) line [0-9]+ $PAY end$" "$T/out")" 0 \
    "lines: every stdout line is whole and from stdout"
is "$(grep -Evc "^err rank ([0-3]) line [0-9]+ $PAY end$" "$T/err")" 0 \
    "lines: every stderr line is whole and from stderr"
# Per rank, in order, payload letter matching the rank.
bad=$(awk -v n=$N '{ r = $3; if ($5 != next_line[r] + 0 || substr($6, 1, 1) != substr("abcd", r + 1, 1)) bad++; next_line[r]++ }
        END { for (r = 0; r < 4; r++) if (next_line[r] != n) bad++; print bad + 0 }' "$T/out")
is "$bad" 0 "lines: each rank's lines complete and in order"

# --tag-output keeps lines whole too.
run_rrun -np 2 --tag-output "$PROGS/rrun_probe" lines 500
is "$(grep -Evc '^\[([01])\] out rank \1 line [0-9]+ [ab]{300} end$' "$T/out")" 0 \
    "lines with --tag-output: every line whole and tagged with its rank"

# A last line without newline is flushed at the end (as a line of its own).
run_rrun -np 2 "$PROGS/rrun_probe" partial
is "$(printf '%s\n' "$OUT" | sort)" "rank 0 no newline
rank 1 no newline" "a last line without newline is flushed"

# Rank 0 reads rrun's stdin; the others read /dev/null.
printf 'line one\nline two\n' | timeout "$HANG_GUARD" rrun -np 2 "$PROGS/rrun_probe" stdin \
    >"$T/out" 2>"$T/err"
is "$?" 0 "stdin: exit status 0"
is "$(grep -c 'line' "$T/out")" 2 "stdin: rank 0 got rrun's stdin, once"
is "$(sort "$T/out")" "line one
line two
rank 0 stdin done
rank 1 stdin done" "stdin: rank 1 read /dev/null"

# Exit status: 0 when every rank exits 0; the failing rank's code otherwise.
run_rrun -np 3 "$PROGS/rrun_probe" exit 0
is "$RC" 0 "all ranks exit 0: rrun exits 0"
is "$ERR" "" "all ranks exit 0: no message"
run_rrun -np 1 "$PROGS/rrun_probe" exit 42
is "$RC" 42 "a rank exits 42: rrun exits 42"
like "$ERR" '^rrun: rank 0 \(pid [0-9]+\) exited with status 42; ending the job$' \
    "a rank exits 42: one message"

check_no_leftovers "basic"
done_testing
