#!/usr/bin/env bash
# CPU time of a JVM's threads, summed by thread name: which thread bounds a run (issue 18's reader,
# replay thread, page toucher, compiler threads, collector). Runs CMD, samples /proc/PID/task/*/stat of
# the JVM it starts every 0.1 s, and prints each name's user and system seconds at the last sample.
#
#   benchmarks/thread-cpu.sh CMD [ARGS...]
#       e.g. benchmarks/thread-cpu.sh ./rdmascope summary benchmarks/target/vs-tshark/mixed_large_10000000.pcap
#
# CMD's own output goes to THREAD_CPU_OUT (default: a temporary file, named at the end). The JVM is CMD
# itself or the first `java` among its descendants (the launcher execs java; xvfb-run starts it as a
# grandchild). Thread names are the kernel's (15 characters: "rdmascope-repla" is the replay thread, "java"
# the main thread, which reads and dissects); numbered names (GC Thread#0, #1, ...) are summed as one.
# What a thread spends after the last sample (at most 0.1 s) and threads that start and end between two
# samples are not counted: compare runs of the same command, not the total with /usr/bin/time's.

set -euo pipefail

die() { printf 'thread-cpu: %s\n' "$*" >&2; exit 2; }

[[ $# -ge 1 ]] || die "usage: $0 CMD [ARGS...]"
[[ -d /proc/self/task ]] || die "needs Linux /proc"
out=${THREAD_CPU_OUT:-$(mktemp --suffix=.thread-cpu.out)}
ticks=$(getconf CLK_TCK)

"$@" > "$out" 2>&1 &
cmd_pid=$!
samples=$(mktemp)
trap 'rm -f "$samples"' EXIT

# The JVM among CMD's descendants (itself included), or nothing yet.
jvm_of() {
  ps -e -o pid=,ppid=,comm= | awk -v root="$1" '
      { parent[$1] = $2; name[$1] = $3 }
      END {
          for (p in name) {
              if (name[p] != "java") continue
              for (q = p; q != "" && q != 0 && q != 1; q = parent[q]) if (q == root) { print p; exit }
          }
      }'
}

declare -A user sys label
while kill -0 "$cmd_pid" 2>/dev/null; do
  jvm=$(jvm_of "$cmd_pid")
  if [[ -n $jvm ]]; then
    for task in /proc/"$jvm"/task/*; do
      stat=$(cat "$task/stat" 2>/dev/null) || continue
      comm=$(cat "$task/comm" 2>/dev/null) || continue
      fields=${stat##*) }        # after the command name, which may hold spaces and parentheses
      read -r -a f <<< "$fields"
      tid=${task##*/}
      user[$tid]=${f[11]}         # utime and stime: fields 14 and 15 of stat, 12 and 13 after the name
      sys[$tid]=${f[12]}
      label[$tid]=$comm
    done
  fi
  sleep 0.1
done
status=0
wait "$cmd_pid" || status=$?

for tid in "${!label[@]}"; do
  printf '%s\t%s\t%s\n' "${user[$tid]}" "${sys[$tid]}" "${label[$tid]}"
done > "$samples"
awk -F '\t' -v ticks="$ticks" '
    { name = $3; sub(/#?[0-9]+$/, "#", name); u[name] += $1; s[name] += $2; tu += $1; ts += $2 }
    END {
        printf "%9s %9s %9s  %s\n", "user s", "sys s", "total s", "thread"
        for (n in u) printf "%9.2f %9.2f %9.2f  %s\n", u[n] / ticks, s[n] / ticks, (u[n] + s[n]) / ticks, n | "sort -k3 -rn"
        close("sort -k3 -rn")
        printf "%9.2f %9.2f %9.2f  %s\n", tu / ticks, ts / ticks, (tu + ts) / ticks, "all sampled threads"
    }' "$samples"
echo "thread-cpu: exit status $status; the command's output is in $out"
exit "$status"
