#!/bin/sh
# info.sh - rdmpi_info: the version (from mpi.h), the MPI version, the
# configured transports (config.h) and optional libraries (configure's
# findings); --params lists every declared parameter (the params.def files), by its
# RDMPI_ name, with its doc; --help, --version, bad arguments.
. "$RD_SRCDIR/test/tap.sh"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/rdmpi-info.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

info="$RD_BUILDDIR/launcher/rdmpi_info"
# Run it with no RDMPI_* variable but the ones given.
clean() { env -i PATH="$PATH" "$@"; }

mpih="$RD_SRCDIR/include/mpi.h"
version=$(sed -n 's/^#define RDMPI_VERSION_STRING "\(.*\)"$/\1/p' "$mpih")
mpiver=$(sed -n 's/^#define MPI_VERSION \([0-9]*\)$/\1/p' "$mpih").$(sed -n 's/^#define MPI_SUBVERSION \([0-9]*\)$/\1/p' "$mpih")
transports=$(sed -n 's/^#define RD_CONFIGURED_TRANSPORTS "\(.*\)"$/\1/p' "$RD_BUILDDIR/config.h")
# found: yes when configure found the library (its _LIBS is not empty)
found() {
    v=$(sed -n "s/^$1_LIBS = *//p" "$RD_BUILDDIR/Makefile")
    if [ -n "$v" ]; then echo yes; else echo no; fi
}

# Every parameter the components declare (their params.def files, as the
# build joins them: the library's, then the tools') as
# RDMPI_NAME<tab>type<tab>doc (adjacent string literals joined; an ENUM's
# doc starts with its choices in lower case).
perl -0777 -ne '
    my $str = qr/(?:"(?:[^"\\]|\\.)*"\s*)+/;
    my $num = qr/[-\w]+/;
    sub text { my $d = shift; $d =~ s/"\s*"//g; $d =~ s/^\s*"//; $d =~ s/"\s*$//; $d =~ s/\\(.)/$1/g; $d }
    while (/^RD_PARAM_(\w+)\(\s*(\w+)\s*,(.*?)\)\s*$/msg) {
        my ($t, $n, $rest) = (lc $1, uc $2, $3);
        my $doc;
        if ($t eq "enum") {
            $rest =~ /^\s*\w+\s*,\s*$str,\s*($str),\s*([\w\s,]+)$/s or die "bad ENUM $n";
            my ($d, $c) = ($1, $2);
            $c =~ s/\s+//g;
            $doc = lc(join("|", split(/,/, $c))) . ": " . text($d);
        } elsif ($t eq "int" || $t eq "size") {
            $rest =~ /^\s*$str,\s*$num\s*,\s*$num\s*,\s*($str)$/s or die "bad $t $n";
            $doc = text($1);
        } else {
            $rest =~ /^\s*$str,\s*($str)$/s or die "bad $t $n";
            $doc = text($1);
        }
        print "RDMPI_$n\t$t\t$doc\n";
    }' "$RD_BUILDDIR/runtime/base/params_lib.def" "$RD_BUILDDIR/runtime/base/params_tools.def" >params.txt
nparams=$(wc -l <params.txt)

plan $((25 + 2 * nparams))

# ------------------------------------------------------------ the summary
out=$(clean "$info"); rc=$?
is "$rc" 0 "rdmpi_info exits 0"
printf '%s\n' "$out" >info.txt
field() { sed -n "s/^$1: *//p" info.txt; }
is "$(head -n 1 info.txt)" "rdmpi $version" "the first line is the rdmpi version of mpi.h ($version)"
is "$(field 'MPI version')" "$mpiver" "the MPI version of mpi.h"
is "$(field transports)" "$transports" "the transports of config.h's RD_CONFIGURED_TRANSPORTS"
like "$(field PMIx)" '^yes \([0-9]+\.[0-9]+\.[0-9]+\)$' "PMIx: yes, with its version"
is "$(field hwloc)" "yes" "hwloc: yes"
is "$(field UCX)" "$(found UCX)" "UCX: as configure found it"
is "$(field libfabric)" "$(found OFI)" "libfabric: as configure found it"
is "$(field libibverbs)" "$(found IBVERBS)" "libibverbs: as configure found it"
is "$(field librdmacm)" "$(found RDMACM)" "librdmacm: as configure found it"
like "$(field libucm)" "^$(found UCM) \(" "libucm: as configure found it, with what it is for"
is "$(clean "$info" --version)" "rdmpi $version" "--version"
out=$(clean "$info" --help); rc=$?
is "$rc:$(printf '%s\n' "$out" | head -n 1)" "0:usage: rdmpi_info [--params | --mpit | --help | --version]" \
    "--help: usage, exit 0"
clean "$info" --bogus >out.txt 2>err.txt; rc=$?
is "$rc:$(head -n 1 err.txt):$(cat out.txt)" "2:rdmpi_info: unknown argument '--bogus':" \
    "a bad argument: message and usage on stderr, exit 2"

# ------------------------------------------------------------ --params
is "$nparams" "$(cat "$RD_BUILDDIR"/runtime/base/params_{lib,tools}.def | grep -c '^RD_PARAM_')" \
    "the test read every declared parameter"
clean "$info" --params >params.out 2>err.txt; rc=$?
is "$rc:$(cat err.txt)" "0:" "--params exits 0 and says nothing on stderr"
is "$(grep -c '^RDMPI_' params.out)" "$nparams" "--params lists as many parameters as are declared"
tab=$(printf '\t')
while IFS="$tab" read -r name type doc; do
    # the line that starts with the name, and the one after it (the doc)
    entry=$(awk -v n="$name" '$1 == n { print; getline; print; exit }' params.out)
    like "$(printf '%s\n' "$entry" | head -n 1)" "^$name +$type +default=" "--params lists $name ($type)"
    is "$(printf '%s\n' "$entry" | sed -n '2s/^ *//p')" "$doc" "--params gives the doc of $name"
done <params.txt
like "$(clean RDMPI_LOG=debug "$info" --params | grep '^RDMPI_LOG ')" ' current=debug$' \
    "--params shows a value set in the environment"
clean RDMPI_BOGUS=1 "$info" --params >out.txt 2>err.txt; rc=$?
like "$rc:$(cat err.txt)" '^0:rdmpi_info: warning: .*unknown parameter RDMPI_BOGUS' \
    "an unknown RDMPI_ variable: a warning, exit 0"
clean RDMPI_OVERSUBSCRIBED=maybe "$info" --params >out.txt 2>err.txt; rc=$?
like "$rc:$(cat err.txt)" "^1:rdmpi_info: error: .*RDMPI_OVERSUBSCRIBED='maybe'" \
    "a bad value: an error naming the variable, exit 1"

# ------------------------------------------------------------ --mpit
clean RDMPI_EAGER_LIMIT=123 RDMPI_RNDV_PROTOCOL=put "$info" --mpit >mpit.out 2>err.txt; rc=$?
is "$rc:$(cat err.txt)" "0:" "--mpit exits 0 and says nothing on stderr"
is "$(grep -c '^  cvar ' mpit.out)" "$nparams" "--mpit lists one control variable per declared parameter"
like "$(grep '^  cvar eager_limit ' mpit.out)" ' 123 \(unsigned long long, all, equal\)$' \
    "--mpit reads eager_limit's value from the environment"
like "$(grep '^  cvar rndv_protocol ' mpit.out)" ' put \(int, all, equal\)$' "--mpit names an enum's value"
like "$(grep '^  pvar p2p_sent_msgs ' mpit.out)" ' counter, unsigned long long$' "--mpit lists the counters"

done_testing
