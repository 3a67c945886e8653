#!/usr/bin/env bash
# Whether two builds analyse the real captures alike: runs `messages --json`, `flows --json`, `summary`,
# `dissect -V`, `ops --json` and `check --report json` of each build on every capture in
# ../shared/captures and ../shared/captures-hard, and names every output that differs. What a
# performance change must leave alone (issue 18: "every real-capture result byte for byte the same").
#
#   benchmarks/compare-builds.sh A B     A, B: directories holding a launcher ./rdmascope (a checkout, or a
#                                         copy of one's launcher and cli/target, e.g. the starting build's)
#   CAPTURES="DIR..." overrides the capture directories.
#
# Exit status 0 when nothing differs, 1 when something does, 2 on a usage error. Each launcher runs once
# before the comparison, so that a build or a start-up archive it makes says so there, not in an output.

set -euo pipefail

die() { printf 'compare-builds: %s\n' "$*" >&2; exit 2; }

[[ $# -eq 2 ]] || die "usage: $0 BUILD_A BUILD_B"
a=$1
b=$2
for build in "$a" "$b"; do
  [[ -x $build/rdmascope ]] || die "no launcher at $build/rdmascope"
done
root=$(cd -P -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
read -r -a dirs <<< "${CAPTURES:-$root/../shared/captures $root/../shared/captures-hard}"

"$a/rdmascope" --version > /dev/null 2>&1
"$b/rdmascope" --version > /dev/null 2>&1

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
captures=0
differences=0
for dir in "${dirs[@]}"; do
  [[ -d $dir ]] || { echo "compare-builds: SKIPPED $dir (absent)"; continue; }
  for capture in "$dir"/*; do
    [[ -f $capture ]] || continue
    case $capture in *.md|*.txt) continue ;; esac
    captures=$((captures + 1))
    for verb in "messages --json" "flows --json" "summary" "dissect -V" "ops --json"; do
      # shellcheck disable=SC2086 # the verb and its option are two words on purpose
      "$a/rdmascope" $verb "$capture" > "$work/a" 2>&1 || true
      # shellcheck disable=SC2086
      "$b/rdmascope" $verb "$capture" > "$work/b" 2>&1 || true
      cmp -s "$work/a" "$work/b" || { echo "DIFF $verb $capture"; differences=$((differences + 1)); }
    done
    rm -f "$work/a.json" "$work/b.json" # a check that writes no report must not be compared with the last one's
    "$a/rdmascope" check --report json -o "$work/a.json" "$capture" > /dev/null 2>&1 || true
    "$b/rdmascope" check --report json -o "$work/b.json" "$capture" > /dev/null 2>&1 || true
    cmp -s "$work/a.json" "$work/b.json" || { echo "DIFF check --report json $capture"; differences=$((differences + 1)); }
  done
done
echo "$captures captures, $differences differences"
[[ $differences -eq 0 ]]
