# tap.sh - TAP helpers for the shell tests (sourced).
#   plan N | ok COND_STATUS "name" | is GOT EXPECTED "name" | like GOT REGEX "name"
#   skip_all "reason" | diag "text" | done_testing
# Every test is run by automake's tap-driver; a test script exits 0 after
# printing its results (the driver counts "not ok" lines as failures).
_tap_n=0
_tap_fail=0
plan() { echo "1..$1"; _tap_planned=1; }
diag() { printf '%s\n' "$*" | sed 's/^/# /'; }
ok() { # ok STATUS NAME: STATUS 0 means pass
    _tap_n=$((_tap_n + 1))
    if [ "$1" -eq 0 ]; then echo "ok $_tap_n - $2"; else echo "not ok $_tap_n - $2"; _tap_fail=$((_tap_fail + 1)); fi
}
is() { # is GOT EXPECTED NAME
    if [ "$1" = "$2" ]; then ok 0 "$3"; else ok 1 "$3"; diag "got:      '$1'" "expected: '$2'"; fi
}
like() { # like GOT EXTENDED-REGEX NAME
    if printf '%s' "$1" | grep -Eq -- "$2"; then ok 0 "$3"; else ok 1 "$3"; diag "got: '$1'" "expected to match: $2"; fi
}
skip() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n # SKIP $1"; }
skip_all() { echo "1..0 # SKIP $1"; exit 0; }
done_testing() { [ -n "${_tap_planned:-}" ] || echo "1..$_tap_n"; exit 0; }
# A private scratch directory in $TAP_TMP, removed when the script exits.
# Call it directly (not in $(...)): tap_tmpdir; cd "$TAP_TMP"
tap_tmpdir() { TAP_TMP=$(mktemp -d "${TMPDIR:-/tmp}/rdmpi-test.XXXXXX"); trap 'rm -rf "$TAP_TMP"' EXIT; }
