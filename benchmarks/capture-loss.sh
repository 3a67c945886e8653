#!/usr/bin/env bash
# Highest packet rate at which `rdmascope capture` on loopback loses nothing over DURATION seconds.
#
#   sudo benchmarks/capture-loss.sh [RATE_PPS ...]
#
# For each rate (default: a rising ladder), it starts `rdmascope capture -i lo` writing pcapng,
# sends RATE × DURATION RoCEv2 packets (BTH … ICRC as UDP payload to 127.0.0.1:4791, paced in 1 ms
# steps) from a separate JVM, stops the capture with SIGTERM (the same clean stop as Ctrl-C; a
# script's background job ignores SIGINT) half a second after the sender is done, and reads the
# stop summary: a rate passes when every packet sent was captured and
# written and the kernel, interface and queue drop counts are all 0.
#
# Environment: DURATION (seconds, default 10), PAYLOAD (RoCE payload bytes, default 64),
# SENDERS (parallel sender JVMs sharing the rate, default 1: one Java sender tops out near 0.2 M
# packets/s on loopback, where every send runs the whole receive path in the sender's context),
# PRINT=1 to also print decoded lines (-P, to /dev/null; printing runs on its own thread and may
# skip lines, the file may not lose frames), PRINT=only to print without writing (no -w: decoding
# and printing are then the consumer, and what they cannot keep up with is queue drops),
# JAVA_OPTS for the capturing JVM. Needs root (or CAP_NET_RAW + CAP_NET_ADMIN) and libpcap.
# Uses cli/target/rdmascope.jar and the capture module's test classes (RoceTraffic), building
# them with the Maven wrapper when missing.
set -euo pipefail

ROOT=$(cd -P -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
DURATION=${DURATION:-10}
PAYLOAD=${PAYLOAD:-64}
PRINT=${PRINT:-0}
SENDERS=${SENDERS:-1}
read -r -a java_opts <<<"${JAVA_OPTS:-}"
rates=("$@")
(( ${#rates[@]} )) || rates=(10000 25000 50000 75000 100000 150000 200000 300000 400000)

jar=$ROOT/cli/target/rdmascope.jar
sender_cp=$ROOT/capture/target/test-classes:$jar   # the shaded jar brings the packet builder
if [[ ! -f $jar || ! -f $ROOT/capture/target/test-classes/io/rdmascope/capture/live/RoceTraffic.class ]]; then
  echo "building rdmascope.jar and the capture test classes…" >&2
  (cd "$ROOT" && ./mvnw -q -B -pl cli -am package -DskipTests && ./mvnw -q -B -pl capture test-compile) >&2
fi

work=$(mktemp -d)
trap 'rm -rf -- "$work"' EXIT

printf '%-10s %-9s %-9s %-9s %-7s %-7s %-7s %s\n' target_pps sent_pps sent captured kernel iface queue verdict
best=0
best_target=0
for rate in "${rates[@]}"; do
  count=$(( rate * DURATION ))
  err=$work/err.$rate
  case $PRINT in
    1) out_opts=(-w "$work/cap.pcapng" -P) ;;
    only) out_opts=() ;;
    *) out_opts=(-w "$work/cap.pcapng") ;;
  esac
  java ${java_opts[@]+"${java_opts[@]}"} -jar "$jar" capture -i lo -f 'udp dst port 4791' \
    ${out_opts[@]+"${out_opts[@]}"} >/dev/null 2>"$err" &
  cap_pid=$!
  for _ in $(seq 200); do
    grep -q 'capturing on' "$err" 2>/dev/null && break
    kill -0 "$cap_pid" 2>/dev/null || break
    sleep 0.05
  done
  if ! grep -q 'capturing on' "$err"; then
    cat "$err" >&2
    exit 2
  fi
  # SENDERS JVMs, each sending its share at its share of the rate. The achieved rate is the total
  # over the wall-clock time of the whole sending phase (JVM start-up included: a conservative figure).
  send_start=$(date +%s%N)
  sender_pids=()
  for s in $(seq "$SENDERS"); do
    java -cp "$sender_cp" io.rdmascope.capture.live.RoceTraffic 127.0.0.1 4791 $(( count / SENDERS )) \
      $(( rate / SENDERS )) "$PAYLOAD" >"$work/sent.$s" &
    sender_pids+=($!)
  done
  wait "${sender_pids[@]}"
  send_nanos=$(( $(date +%s%N) - send_start ))
  count=$(( count / SENDERS * SENDERS ))
  sleep 0.5
  kill -TERM "$cap_pid"
  wait "$cap_pid" || true
  sent_pps=$(( count * 1000000000 / send_nanos ))
  captured=$(sed -n 's/^rdmascope: \([0-9]*\) frames\{0,1\} captured.*/\1/p' "$err")
  written=$(sed -n 's/.* captured, \([0-9]*\) \(written\|printed\).*/\1/p' "$err")
  read -r kernel iface queue < <(sed -n "s/^rdmascope: dropped: \([0-9a-z]*\) by the kernel, \([0-9a-z]*\) by the interface, \([0-9]*\) by rdmascope's queue/\1 \2 \3/p" "$err")
  verdict=LOSS
  if [[ $captured == "$count" && $written == "$count" && $kernel == 0 && $iface == 0 && $queue == 0 ]]; then
    verdict=ok
    # The rate that counts is the one the sender achieved (it falls short when it runs out of CPU).
    (( sent_pps > best )) && { best=$sent_pps; best_target=$rate; }
  fi
  (( sent_pps * 100 < rate * 95 )) && verdict="$verdict (sender reached only ${sent_pps} pps)"
  printf '%-10s %-9s %-9s %-9s %-7s %-7s %-7s %s\n' "$rate" "$sent_pps" "$count" "${captured:-?}" \
    "${kernel:-?}" "${iface:-?}" "${queue:-?}" "$verdict"
done
echo "highest lossless rate: $best pps sent (target $best_target) for $DURATION s, payload $PAYLOAD bytes," \
  "$(nproc) CPUs, load average before the last run: $(cut -d' ' -f1-3 /proc/loadavg)"
