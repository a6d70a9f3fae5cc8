#!/bin/bash
# Circles of calls among the files of one program or library: files that
# call each other, directly or round a longer loop (a strongly connected
# component of the graph "file A calls a function that file B defines").
# Such files cannot be read, tested or changed one at a time; a program
# whose files form layers can (launcher/README.md: rrun's layers).
#
# usage: cycles.sh OBJECT...
# The objects are those of one linked unit (a program, or a library). A
# file is named by its object without automake's or libtool's per-target
# prefix (launcher/rrun/rrun-main.o and .libs/librdmpi_la-comm.o are
# launcher/rrun/main and comm). Prints, for each circle, one line with
# its files, then one line per call between two of them that closes it:
#   cycle: launcher/rrun/head launcher/rrun/spawn
#     launcher/rrun/head -> launcher/rrun/spawn: rrun_find_program
#     launcher/rrun/spawn -> launcher/rrun/head: rrun_head_signal
# and exits 1 if there is any; exits 0 with no output if there is none.
[ $# -gt 0 ] || { echo "usage: cycles.sh OBJECT..." >&2; exit 2; }
syms=$(for o in "$@"; do
    d=$(dirname "$o"); d=${d%/.libs}; d=${d#./}
    b=$(basename "$o" .o)
    case "$b" in
    *_la-*) b=${b#*_la-} ;;
    *-*) b=${b#*-} ;;
    esac
    nm "$o" | awk -v s="$d/$b" '
        NF == 3 && $2 ~ /^[TDBRVW]$/ {print "D", $3, s}
        NF == 2 && $1 == "U" {print "U", $2, s}'
    [ "${PIPESTATUS[0]}" -eq 0 ] || echo "ERR $o"
done)
if printf '%s\n' "$syms" | grep -q '^ERR '; then
    printf '%s\n' "$syms" | sed -n 's/^ERR /cycles.sh: cannot read /p' >&2
    exit 2
fi
out=$(printf '%s\n' "$syms" | awk '
    $1 == "D" && !($2 in def) {def[$2] = $3}
    $1 == "U" {use[$3 " " $2] = 1}
    END {
        # the edges between files, each with the functions it stands for
        for (k in use) {
            split(k, a, " "); from = a[1]; sym = a[2]
            if (!(sym in def) || def[sym] == from) continue
            to = def[sym]
            e = from " " to
            why[e] = (e in why) ? why[e] " " sym : sym
            node[from] = node[to] = 1
            if (!((from, to) in adj)) { adj[from, to] = 1; out[from] = out[from] " " to }
        }
        # reach[a, b]: b can be reached from a (a walk from every file)
        for (s in node) {
            n = 0; stack[++n] = s
            while (n > 0) {
                x = stack[n--]
                m = split(out[x], nb, " ")
                for (i = 1; i <= m; i++)
                    if (!((s, nb[i]) in reach)) { reach[s, nb[i]] = 1; stack[++n] = nb[i] }
            }
        }
        # a circle: the files that reach each other; named by its first file
        for (p in node) {
            if (!((p, p) in reach)) continue
            lead = p
            for (q in node)
                if ((p, q) in reach && (q, p) in reach && q < lead) lead = q
            circle[lead] = circle[lead] " " p
        }
        for (lead in circle) {
            m = split(circle[lead], f, " ")
            for (i = 1; i <= m; i++) in_c[f[i]] = lead
        }
        for (e in why) {
            split(e, a, " ")
            if (a[1] in in_c && a[2] in in_c && in_c[a[1]] == in_c[a[2]]) {
                m = split(why[e], fn, " ")
                # the functions in order, for a stable line
                for (i = 2; i <= m; i++)
                    for (j = i; j > 1 && fn[j - 1] > fn[j]; j--) { t = fn[j]; fn[j] = fn[j - 1]; fn[j - 1] = t }
                line = fn[1]
                for (i = 2; i <= m; i++) line = line " " fn[i]
                print in_c[a[1]] "\t1\t  " a[1] " -> " a[2] ": " line
            }
        }
        for (lead in circle) {
            m = split(circle[lead], f, " ")
            for (i = 2; i <= m; i++)
                for (j = i; j > 1 && f[j - 1] > f[j]; j--) { t = f[j]; f[j] = f[j - 1]; f[j - 1] = t }
            line = "cycle:"
            for (i = 1; i <= m; i++) line = line " " f[i]
            print lead "\t0\t" line
        }
    }') || { echo "cycles.sh: awk failed" >&2; exit 2; }
[ -z "$out" ] && exit 0
# each circle: its line, then its calls in order
printf '%s\n' "$out" | LC_ALL=C sort -t "$(printf '\t')" -k1,1 -k2,2n -k3 | cut -f3-
exit 1
