#!/bin/sh
# Makes profiles/ (make-profiles.c over Debian 12's liblcms2-dev 2.14). Frost makes none of them.
# Run from this folder: sh make.sh
set -e
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O2 -Wall -o "$tmp/make-profiles" make-profiles.c -llcms2
mkdir -p profiles
"$tmp/make-profiles"
