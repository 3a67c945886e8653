#!/usr/bin/env bash
# Kept for its old name: the `dissect -T fields` comparison with tshark now lives in vs-tshark.sh,
# which also compares `summary` with `tshark -q -z io,phs` and `dissect -Y` with `tshark -Y`. This
# runs only the -T fields part, with the same environment as before:
#   FRAMES=200000 RUNS=5 benchmarks/dissect-vs-tshark.sh
exec "$(dirname "$0")/vs-tshark.sh" --only fields "$@"
