#!/usr/bin/env bash
# make image-check: what a container engine does with deploy/Containerfile's build stage, without
# one (none runs on these machines). Its COPY lines' sources are copied into an empty folder named
# as its WORKDIR (Server/Package.swift names its path dependency after that folder), leaving out
# .containerignore's names; the build stage's packages are checked against the Makefile's -dev
# packages (the headers and pkg-config files the build needs); then its build steps run there.
#
# By default each `swift build` step runs with --print-manifest-job-graph: SwiftPM loads both
# manifests, resolves every dependency at its exact version, finds every target's folder and
# plans every compile and link command of frost and frost-serve without running them. That is
# what failed before ("Source files for target FrostCoreTests should be located under ..."): what
# can break an image whose sources compile in a checkout is what the COPY lines leave out, and the
# plan reads all of it. Compiling is then the checkout's own compile, which the tests run (the
# same sources, compiler and flags but --static-swift-stdlib, which `make build` uses). It takes
# about a minute (dependency checkouts from SwiftPM's cache); IMAGE_CHECK=full runs the steps as
# written, a release build of both products (~20 minutes on 2 cores) and checks that the runtime
# stage's COPY --from=build finds every file.
# Usage: deploy/image-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${IMAGE_CHECK:-plan}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The build stage (from its FROM to the next), continuation lines joined.
stage=$(awk '/^FROM .* AS build/ { on = 1; next } on && /^FROM / { exit } on' deploy/Containerfile | sed -e ':a' -e '/\\$/N; s/\\\n//; ta')
workdir=$(awk '$1 == "WORKDIR" { print $2 }' <<< "$stage" | tail -1)
[ -n "$workdir" ] || { echo "image-check: the build stage has no WORKDIR" >&2; exit 1; }
root=$work$workdir
mkdir -p "$root"
excludes=()
while read -r pattern; do
  [ -z "$pattern" ] || [[ $pattern == \#* ]] || excludes+=("--exclude=${pattern#\*\*/}")
done < .containerignore

# COPY SRC... DEST: a folder's contents into DEST, a file into DEST (a folder when it ends in /).
while read -r _ line; do
  read -ra words <<< "$line"
  dest=${words[-1]}
  [[ $dest == /* ]] || dest=$root/$dest
  [[ $dest == /* && $dest != $root* ]] && dest=$work$dest
  for src in "${words[@]:0:${#words[@]}-1}"; do
    [ -e "$src" ] || { echo "image-check: COPY $src: no such file in the repository" >&2; exit 1; }
    if [ -d "$src" ]; then
      mkdir -p "$dest"
      tar -C "$src" "${excludes[@]}" -cf - . | tar -C "$dest" -xf -
    elif [[ $dest == */ ]]; then
      mkdir -p "$dest" && cp "$src" "$dest"
    else
      mkdir -p "$(dirname "$dest")" && cp "$src" "$dest"
    fi
  done
done < <(grep '^COPY ' <<< "$stage" | grep -v -- '--from')

# Every -dev package the Makefile installs for building, and pkgconf, in the build stage.
installed=$(grep 'apt-get install' <<< "$stage" | tr ' ' '\n')
for package in $(sed -n 's/^APT_PACKAGES := //p' Makefile | tr ' ' '\n' | grep -E -- '-dev$|^pkgconf$'); do
  grep -qx -- "$package" <<< "$installed" || { echo "image-check: the build stage does not install $package" >&2; exit 1; }
done

# The build steps, in the assembled folder, /out/ under the work folder.
while read -r step; do
  command=${step#RUN }
  command=${command//\/out\//$work\/out\/}
  if [ "$mode" != full ]; then
    # Each step's builds planned (every `swift build` with --print-manifest-job-graph), not run.
    command=$(sed -E 's/(swift build[^&]*)/\1 --print-manifest-job-graph > \/dev\/null/g; s/&& install [^&]*//g' <<< "$command")
  fi
  echo "image-check: $command"
  (cd "$root" && sh -ec "$command")
done < <(grep '^RUN .*swift build' <<< "$stage")

if [ "$mode" = full ]; then
  for file in $(awk '/^COPY --from=build/ { for (i = 3; i < NF; i++) print $i }' deploy/Containerfile); do
    [ -x "$work$file" ] || { echo "image-check: the build made no $file" >&2; exit 1; }
  done
fi
echo "deploy/Containerfile: its COPY lines hold what its build steps need ($mode)"
