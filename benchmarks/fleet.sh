#!/usr/bin/env bash
# The Spark job (rdmascope fleet, issue 21) against single-machine `check` on the same data: a generated
# directory of VANTAGES vantages (mixed_large traffic, a different seed each: 64 QPs over 8 hosts with
# loss, NAKs and retransmissions), each split into RINGS ring files; the job runs embedded in local[2]
# (this machine's two cores), `check --report json` replays the same vantages unsplit in one JVM.
# Prints both elapsed times and frames/s, both processes' CPU time (user + sys, the JVM's every thread)
# and the job's executor CPU time (Spark's task metrics: the tasks' own work), the shuffle bytes per
# frame Spark's task metrics count, the load average before and after (others' builds skew the
# figures), and whether the job's summary.json has check's counts and verdict.
#
# Usage:
#   benchmarks/fleet.sh                      # 1,000,000 frames, 4 vantages, 4 ring files each
#   benchmarks/fleet.sh 10000000             # 10 M frames (about 2.3 GB of captures in benchmarks/target)
#   VANTAGES=8 RINGS=2 benchmarks/fleet.sh   # another layout
#   MASTER='local[*]' benchmarks/fleet.sh    # another Spark master
# The first run builds the spark module through the launcher (downloading Spark once).
set -euo pipefail

root=$(cd -P -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
frames=${1:-1000000}
vantages=${VANTAGES:-4}
rings=${RINGS:-4}
master=${MASTER:-local[2]}
work=$root/benchmarks/target/fleet-$frames-${vantages}x$rings
rdmascope=$root/rdmascope

load() { cut -d' ' -f1-3 /proc/loadavg; }

# --- the data: generated once and reused ---
if [[ ! -f $work/.complete ]]; then
  rm -rf -- "$work"
  mkdir -p "$work/in" "$work/whole"
  per=$((frames / vantages))
  for ((v = 1; v <= vantages; v++)); do
    "$rdmascope" generate --scenario mixed_large --frames "$per" --seed "$v" --out "$work/gen-$v" >/dev/null
    mv -- "$work/gen-$v/mixed_large.pcap" "$work/whole/host-$v.pcap"
    rmdir -- "$work/gen-$v"
    mkdir -p "$work/in/host-$v"
    # Ring files as a capture tool rotates them: consecutive runs of frames, named in capture order.
    for ((r = 0; r < rings; r++)); do
      from=$((per * r / rings + 1))
      to=$((per * (r + 1) / rings))
      "$rdmascope" dissect -r "$work/whole/host-$v.pcap" -q -Y "frame.number >= $from && frame.number <= $to" \
        -w "$work/in/host-$v/ring_$(printf '%05d' $((r + 1))).pcap" >/dev/null
    done
  done
  touch -- "$work/.complete"
fi

"$rdmascope" fleet --help >/dev/null   # builds the spark module when needed, outside the timing
"$rdmascope" --version >/dev/null      # the CLI and its start-up archive, likewise

echo "fleet benchmark: $frames frames, $vantages vantages x $rings ring files, master $master"
echo "load before: $(load)"

# bash's own `time`: elapsed, then the user and system CPU of the command and everything it ran.
TIMEFORMAT='%R %U %S'
check_status=0
{ time "$rdmascope" check --report json "$work"/whole/*.pcap >"$work/check.json"; } 2>"$work/check.time" \
  || check_status=$?
read -r check_s check_user check_sys < <(tail -1 "$work/check.time")

rm -rf -- "$work/out"
fleet_status=0
{ time "$rdmascope" fleet "$work/in" --out "$work/out" --master "$master" 2>"$work/fleet.log"; } 2>"$work/fleet.time" \
  || fleet_status=$?
read -r fleet_s fleet_user fleet_sys < <(tail -1 "$work/fleet.time")
echo "load after:  $(load)"

shuffle_line=$(grep 'shuffle wrote' "$work/fleet.log" || true)
[[ -n $shuffle_line ]] || { cat "$work/fleet.log" >&2; echo "fleet.sh: the job did not report its shuffle" >&2; exit 1; }
shuffle_bytes=$(sed -n 's/.*shuffle wrote \([0-9]*\) bytes.*/\1/p' <<<"$shuffle_line")

executor_cpu=$(sed -n "s/.*executors' CPU \([0-9.]*\) s.*/\1/p" <<<"$shuffle_line")
check_cpu=$(echo "$check_user + $check_sys" | bc)
fleet_cpu=$(echo "$fleet_user + $fleet_sys" | bc)
printf 'single-machine check:  %8.1f s  %10.0f frames/s  CPU %7.1f s  (exit %d)\n' "$check_s" \
  "$(echo "$frames / $check_s" | bc -l)" "$check_cpu" "$check_status"
printf 'fleet, %-10s      %8.1f s  %10.0f frames/s  CPU %7.1f s (%.1f x check); executors %.1f s  (exit %d; Spark start-up included)\n' \
  "$master:" "$fleet_s" "$(echo "$frames / $fleet_s" | bc -l)" "$fleet_cpu" "$(echo "$fleet_cpu / $check_cpu" | bc -l)" \
  "$executor_cpu" "$fleet_status"
printf 'shuffle: %d bytes, %.1f bytes a frame (the mean captured frame is %.1f bytes)\n' "$shuffle_bytes" \
  "$(echo "$shuffle_bytes / $frames" | bc -l)" \
  "$(echo "($(du -cb "$work"/whole/*.pcap | tail -1 | cut -f1) - 24 * $vantages) / $frames - 16" | bc -l)"
# The job's gate must be check's: the same counts and verdict.
python3 - "$work/check.json" "$work/out/summary.json" <<'EOF'
import json, sys
check, summary = (json.load(open(p)) for p in sys.argv[1:3])
same = check["counts"] == summary["counts"] and check["verdict"] == summary["verdict"]
print("gate: check %s %s, fleet %s %s -> %s" % (check["counts"], check["verdict"], summary["counts"],
      summary["verdict"], "same" if same else "DIFFERENT"))
sys.exit(0 if same else 1)
EOF
[[ $check_status == "$fleet_status" ]] || { echo "fleet.sh: exit status differs: check $check_status, fleet $fleet_status" >&2; exit 1; }
