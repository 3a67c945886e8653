#!/usr/bin/env bash
# Times `rdmascope dissect -T fields` against `tshark -T fields` with the same arguments on the same
# generated RoCEv2 capture, alternating the two tools run by run, and prints medians and the ratio.
# Also checks once that both print the same bytes. Usage:
#   benchmarks/dissect-vs-tshark.sh            # 1,000,000 frames, 3 runs each
#   FRAMES=200000 RUNS=5 benchmarks/dissect-vs-tshark.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
frames=${FRAMES:-1000000}
runs=${RUNS:-3}
work="$root/benchmarks/target/vs-tshark"
mkdir -p "$work"
capture="$work/mixed_large_${frames}.pcap"
command -v tshark >/dev/null || { echo "tshark is not installed (apt-get install tshark)" >&2; exit 2; }

if [ ! -f "$capture" ]; then
  echo "generating $frames frames..." >&2
  "$root/rdmascope" generate --scenario mixed_large --frames "$frames" --out "$work" >&2
  mv "$work/mixed_large.pcap" "$capture"
fi
fields=(-T fields -e frame.number -e infiniband.bth.opcode -e infiniband.bth.destqp -e infiniband.bth.psn)

ms() { date +%s%N; }
time_cmd() { # prints elapsed milliseconds of "$@" with stdout to /dev/null
  local t0 t1
  t0=$(ms); "$@" > /dev/null 2>&1; t1=$(ms)
  echo $(( (t1 - t0) / 1000000 ))
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2)}'; }

# Warm the launcher (build if sources changed) and the page cache, and check both outputs agree.
"$root/rdmascope" dissect -r "$capture" "${fields[@]}" > "$work/ours.txt"
tshark -r "$capture" "${fields[@]}" 2>/dev/null > "$work/theirs.txt"
if cmp -s "$work/ours.txt" "$work/theirs.txt"; then same="identical"; else same="DIFFERENT"; fi

ours=(); theirs=()
for ((i = 0; i < runs; i++)); do
  ours+=("$(time_cmd "$root/rdmascope" dissect -r "$capture" "${fields[@]}")")
  theirs+=("$(time_cmd tshark -r "$capture" "${fields[@]}")")
done
our_median=$(printf '%s\n' "${ours[@]}" | median)
their_median=$(printf '%s\n' "${theirs[@]}" | median)
ratio=$(awk -v a="$their_median" -v b="$our_median" 'BEGIN {printf "%.1f", a / (b > 0 ? b : 1)}')
echo "capture: $capture ($frames frames, $(stat -c %s "$capture") bytes)"
echo "command: dissect -r FILE ${fields[*]}"
echo "rdmascope runs (ms): ${ours[*]}   median $our_median"
echo "tshark    runs (ms): ${theirs[*]}   median $their_median"
echo "outputs: $same"
echo "ratio (tshark / rdmascope): ${ratio}x"
