# shellcheck shell=bash
# lib.sh - shell helpers shared by the benchmark scripts (source it).

# busy: percentage of the machine's CPU time used (by anything) over 1 s
busy() {
    local a b
    read -r -a a < <(grep '^cpu ' /proc/stat 2>/dev/null) || { echo "?"; return; }
    sleep 1
    read -r -a b < <(grep '^cpu ' /proc/stat)
    local total=0 i
    for ((i = 1; i < ${#a[@]}; i++)); do total=$((total + b[i] - a[i])); done
    local idle=$((b[4] - a[4] + b[5] - a[5]))
    [ "$total" -gt 0 ] && echo $((100 - 100 * idle / total)) || echo "?"
}

# check_idle WHEN: say how busy the machine is, and warn when something
# else uses the cores (the figures would be noise)
check_idle() {
    local pct
    pct=$(busy)
    echo "# machine $pct% busy $1 (load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null))"
    case $pct in
    [0-9] | '?') ;;
    *) echo "# WARNING: other processes use the cores ($pct% busy $1): the figures are not trustworthy" ;;
    esac
}
