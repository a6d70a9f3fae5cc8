#!/bin/sh
# Regenerate the build system (configure, Makefile.in, build-aux/).
set -e
cd "$(dirname "$0")"
mkdir -p m4 build-aux
autoreconf --install --force >/dev/null
