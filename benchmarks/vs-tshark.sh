#!/usr/bin/env bash
# rdmascope against tshark 4.x on the same generated RoCEv2 capture (mixed_large: 64 QPs of RC
# SEND/WRITE/READ with loss, NAKs and retransmissions), whole processes, the two tools alternating
# run by run, RUNS times each; prints every run, the medians and the ratios (tshark / rdmascope) of
# elapsed time and of CPU time (user + sys, from /usr/bin/time when present: steadier on a busy machine).
#
#   summary  rdmascope summary FILE                  vs  tshark -r FILE -q -z io,phs
#   check    rdmascope check FILE (text report)      vs  tshark -r FILE -q -z io,phs  (check replays
#            and evaluates the rules; io,phs is tshark's nearest whole-capture pass)
#   fields   rdmascope dissect -r FILE -T fields -e … vs  tshark -r FILE -T fields -e …  (same fields;
#            the two outputs are also checked byte for byte)
#   filter   rdmascope dissect -r FILE -Y FILTER …    vs  tshark -r FILE -Y FILTER …     (only when this
#            rdmascope accepts -Y; the frame numbers printed are checked to be the same)
#
# Usage:
#   benchmarks/vs-tshark.sh                      # 1,000,000 frames, RUNS=3, every comparison
#   benchmarks/vs-tshark.sh --10m                # also on a 10,000,000-frame capture (2.3 GB)
#   benchmarks/vs-tshark.sh --10m --only summary,check   # issue 18's measurement: 1 M and 10 M
#   benchmarks/vs-tshark.sh --only fields        # some comparisons: summary, check, fields, filter
#                                                # (comma-separated)
#   benchmarks/vs-tshark.sh --breakdown          # also time the parts of summary (see below)
#   benchmarks/vs-tshark.sh --heap               # also the heap check (below); --only heap: just it
#   FRAMES=200000 RUNS=5 benchmarks/vs-tshark.sh # another size (FRAMES replaces the 1 M capture)
#   THREADS=2 benchmarks/vs-tshark.sh            # pass --threads 2 to summary and check
#
# --breakdown times `rdmascope --version` (JVM start and class loading), `dissect -Y 'frame.number
# == 0'` (read + dissect, no output; when -Y works), `flows` (read + dissect + replay) and `summary`.
# Captures are generated once into benchmarks/target/vs-tshark/ and reused.
#
# THREADS=N passes `--threads N` to rdmascope's summary and check (comparisons and breakdown) when
# this rdmascope's `summary --help` offers --threads; otherwise the script says it ignores THREADS.
#
# --heap runs summary and check with RDMASCOPE_JAVA_OPTS=-Xmx512m (the launcher appends it to its
# JVM options) on the largest capture generated so far, and prints each one's exit status, elapsed
# and CPU time and peak resident set (from /usr/bin/time; the resident set counts the mapped
# capture's page cache too, so it can exceed the heap limit by the file size). Exit status 0 means
# the analysis fitted in a 512 MB heap.
#
# Every block prints the load average before it runs: other processes on the machine stretch elapsed
# time, and the CPU-time ratio is the steadier one when the load is above the number of cores.
#
# RDMASCOPE=command runs another rdmascope than the launcher beside this script (e.g. a copy of the
# jar started with the launcher's JVM options, so that a rebuild by someone editing sources cannot
# land inside a timed run).
set -euo pipefail
shopt -s inherit_errexit
root=$(cd "$(dirname "$0")/.." && pwd)
runs=${RUNS:-3}
sizes=("${FRAMES:-1000000}")
only=""
breakdown=0
heap=0
while (( $# )); do
  case $1 in
    --10m) sizes+=(10000000) ;;
    --only) only=${2:?--only needs summary, check, fields, filter or heap (comma-separated)}; shift ;;
    --breakdown) breakdown=1 ;;
    --heap) heap=1 ;;
    -h|--help) awk 'NR > 1 && /^#/ {sub(/^# ?/, ""); print; next} NR > 1 {exit}' "$0"; exit 0 ;;
    *) echo "vs-tshark.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
  shift
done
for name in ${only//,/ }; do
  case $name in
    summary|check|fields|filter) ;;
    heap) heap=1 ;;
    *) echo "vs-tshark.sh: --only takes summary, check, fields, filter or heap (got '$name')" >&2; exit 2 ;;
  esac
done
if [[ -n ${THREADS-} && ! $THREADS =~ ^[1-9][0-9]*$ ]]; then
  echo "vs-tshark.sh: THREADS must be a positive number (got '$THREADS')" >&2; exit 2
fi
command -v tshark >/dev/null || { echo "tshark is not installed (apt-get install tshark)" >&2; exit 2; }
rdmascope=${RDMASCOPE:-$root/rdmascope}
work=$root/benchmarks/target/vs-tshark
mkdir -p "$work"

fields=(-T fields -e frame.number -e infiniband.bth.opcode -e infiniband.bth.destqp -e infiniband.bth.psn)
filter='infiniband.bth.opcode == 17 && infiniband.aeth.syndrome >= 96'   # NAKs (AETH syndrome 011x xxxx)

# shellcheck source=timing.sh
source "$root/benchmarks/timing.sh"
cpu_log=$work/cpu.txt
wanted() { [[ -z $only || ,$only, == *,"$1",* ]]; }

capture_of() { # generates (once) and prints the path of the capture with $1 frames
  local frames=$1 file="$work/mixed_large_$1.pcap"
  if [[ ! -f $file ]]; then
    echo "generating $frames frames..." >&2
    mkdir -p "$work/gen"
    "$rdmascope" generate --scenario mixed_large --frames "$frames" --out "$work/gen" >&2 \
      || { echo "vs-tshark.sh: generating the capture failed" >&2; exit 2; }
    mv "$work/gen/mixed_large.pcap" "$file"
  fi
  printf '%s\n' "$file"
}

# Times "ours" against "theirs" (two commands given as strings of words, FILE standing for the
# capture), RUNS times each, alternating, and prints one result block.
compare() {
  local name=$1 file=$2 ours=$3 theirs=$4 check=${5-}
  local -a our_cmd their_cmd our_runs=() their_runs=() our_cpu=() their_cpu=()
  local load_before
  load_before=$(load_average)
  read -r -a our_cmd <<<"${ours//FILE/$file}"
  read -r -a their_cmd <<<"${theirs//FILE/$file}"
  for ((i = 0; i < runs; i++)); do
    our_runs+=("$(time_cmd "${our_cmd[@]}")"); our_cpu+=("$(cpu_ms)")
    their_runs+=("$(time_cmd "${their_cmd[@]}")"); their_cpu+=("$(cpu_ms)")
  done
  local om tm oc tc
  om=$(printf '%s\n' "${our_runs[@]}" | median)
  tm=$(printf '%s\n' "${their_runs[@]}" | median)
  oc=$(printf '%s\n' "${our_cpu[@]}" | median)
  tc=$(printf '%s\n' "${their_cpu[@]}" | median)
  echo "== $name"
  echo "load average before: $load_before"
  echo "rdmascope: ${ours/FILE/…}"
  echo "tshark:    ${theirs/FILE/…}"
  echo "rdmascope runs (ms): ${our_runs[*]}   median $om   (CPU user+sys: ${our_cpu[*]}, median $oc)"
  echo "tshark    runs (ms): ${their_runs[*]}   median $tm   (CPU user+sys: ${their_cpu[*]}, median $tc)"
  [[ -n $check ]] && echo "outputs: $check"
  echo "ratio (tshark / rdmascope): $(ratio "$tm" "$om")x elapsed, $(ratio "$tc" "$oc")x CPU"
  echo
}

# Whether this rdmascope accepts -Y (display filters are being added).
y_works() {
  local sample=$root/sample-pcaps/cases/rc_loss_nak/rc_loss_nak.pcapng
  "$rdmascope" dissect -r "$sample" -Y "$filter" -T fields -e frame.number > /dev/null 2>&1
}

"$rdmascope" --version > /dev/null   # build the launcher's jar now if sources changed, not in a timed run
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo),"\
" $(java -version 2>&1 | head -n 1), $(tshark --version 2>/dev/null | head -n 1), $(date -u +%Y-%m-%d)"
echo "runs per tool: $runs"
# THREADS=N goes to summary and check only when this rdmascope has the option.
threads_opt=""
if [[ -n ${THREADS-} ]]; then
  if "$rdmascope" summary --help 2>/dev/null | grep -q -e '--threads'; then
    threads_opt="--threads $THREADS"
    echo "threads: summary and check run with $threads_opt"
  else
    echo "threads: THREADS=$THREADS ignored (this rdmascope's summary has no --threads option)"
  fi
fi
echo

# --only heap runs no comparison.
[[ $only == heap ]] && sizes=()
for frames in ${sizes[@]+"${sizes[@]}"}; do
  file=$(capture_of "$frames") || exit 2
  echo "### capture: $file ($frames frames, $(stat -c %s "$file") bytes)"
  echo
  # Warm the page cache once.
  cat "$file" > /dev/null

  if wanted summary; then
    ours_top=$("$rdmascope" summary $threads_opt "$file" | awk '/^Protocol hierarchy/ {getline; print $2; exit}')
    theirs_top=$(tshark -r "$file" -q -z io,phs 2>/dev/null | awk '/frames:/ {print $2; exit}')
    compare "summary vs io,phs" "$file" "$rdmascope summary ${threads_opt:+$threads_opt }FILE" \
      "tshark -r FILE -q -z io,phs" "top of the hierarchy: rdmascope $ours_top, tshark $theirs_top"
  fi

  if wanted check; then
    # The text report's verdict and findings lines, and the exit status (1 when a finding reaches
    # --fail-on error: still a complete run).
    check_status=0
    "$rdmascope" check $threads_opt "$file" > "$work/check.txt" 2>&1 || check_status=$?
    check_says=$(awk '/^verdict:/ {v = $2} /^findings:/ {sub(/^findings: /, ""); f = $0} END {print v ", " f}' \
      "$work/check.txt")
    phs_frames=$(tshark -r "$file" -q -z io,phs 2>/dev/null | awk '/frames:/ {print $2; exit}')
    compare "check vs io,phs" "$file" "$rdmascope check ${threads_opt:+$threads_opt }FILE" \
      "tshark -r FILE -q -z io,phs" "rdmascope check exit $check_status, $check_says; tshark io,phs $phs_frames"
  fi

  if wanted fields; then
    "$rdmascope" dissect -r "$file" "${fields[@]}" > "$work/ours.txt"
    tshark -r "$file" "${fields[@]}" 2>/dev/null > "$work/theirs.txt"
    if cmp -s "$work/ours.txt" "$work/theirs.txt"; then same="identical"; else same="DIFFERENT"; fi
    compare "dissect -T fields" "$file" "$rdmascope dissect -r FILE ${fields[*]}" "tshark -r FILE ${fields[*]}" \
      "$same ($(wc -l < "$work/ours.txt") lines)"
  fi

  if wanted filter; then
    if y_works; then
      "$rdmascope" dissect -r "$file" -Y "$filter" -T fields -e frame.number > "$work/ours-y.txt"
      tshark -r "$file" -Y "$filter" -T fields -e frame.number 2>/dev/null > "$work/theirs-y.txt"
      if cmp -s "$work/ours-y.txt" "$work/theirs-y.txt"; then same="identical"; else same="DIFFERENT"; fi
      # compare() splits commands on spaces, so the filter goes through a small wrapper each.
      printf '#!/bin/sh\nexec "%s" dissect -r "$1" -Y '"'%s'"' -T fields -e frame.number\n' "$rdmascope" "$filter" \
        > "$work/ours-y.sh"
      printf '#!/bin/sh\nexec tshark -r "$1" -Y '"'%s'"' -T fields -e frame.number\n' "$filter" > "$work/theirs-y.sh"
      chmod +x "$work/ours-y.sh" "$work/theirs-y.sh"
      compare "dissect -Y '$filter'" "$file" "$work/ours-y.sh FILE" "$work/theirs-y.sh FILE" \
        "$same ($(wc -l < "$work/ours-y.txt") frames match)"
    else
      echo "== dissect -Y: skipped (this rdmascope does not accept -Y yet)"
      echo
    fi
  fi

  if (( breakdown )); then
    echo "== where summary's time goes (medians of $runs runs)"
    echo "load average before: $(load_average)"
    part() { # label, command...
      local label=$1; shift
      local -a t=() c=()
      for ((i = 0; i < runs; i++)); do t+=("$(time_cmd "$@")"); c+=("$(cpu_ms)"); done
      printf '%-50s %6s ms   (%s; CPU median %s ms)\n' "$label" "$(printf '%s\n' "${t[@]}" | median)" "${t[*]}" \
        "$(printf '%s\n' "${c[@]}" | median)"
    }
    part "JVM start, class loading (--version)" "$rdmascope" --version
    if y_works; then
      part "read + dissect (dissect -Y 'frame.number == 0')" "$rdmascope" dissect -r "$file" -Y 'frame.number == 0'
    fi
    part "read + dissect + replay, keeping messages (flows)" "$rdmascope" flows "$file"
    part "summary" "$rdmascope" summary $threads_opt "$file"
    echo
  fi
done

if (( heap )); then
  # The largest capture generated so far (by frame count in the name).
  largest_frames=$(find "$work" -maxdepth 1 -name 'mixed_large_*.pcap' -printf '%f\n' \
    | sed -n 's/^mixed_large_\([0-9]*\)\.pcap$/\1/p' | sort -n | tail -n 1)
  largest=$(capture_of "${largest_frames:-${sizes[-1]}}") || exit 2
  echo "### heap check: RDMASCOPE_JAVA_OPTS=-Xmx512m on $largest ($(stat -c %s "$largest") bytes)"
  echo "load average before: $(load_average)"
  for verb in summary check; do
    # The heap as the JVM leaves it (serial collector's generations: committed, and used), to a file.
    rm -f "$work/heap-exit.txt"
    elapsed=$(RDMASCOPE_JAVA_OPTS="-Xmx512m -Xlog:gc+heap+exit=info:file=$work/heap-exit.txt" \
      time_cmd "$rdmascope" "$verb" $threads_opt "$largest")
    heap_at_exit=$(sed -n 's/.*generation *total \([0-9]*\)K, used \([0-9]*\)K.*/\1 \2/p' "$work/heap-exit.txt" \
      2>/dev/null | awk '{t += $1; u += $2} END {if (t) printf "%d MiB committed, %d MiB used", t / 1024, u / 1024;
      else print "not logged"}')
    printf '%-8s exit %s, %s ms elapsed, CPU %s ms, peak RSS %s MiB; heap at exit %s\n' "$verb" "$(last_status)" \
      "$elapsed" "$(cpu_ms)" "$(rss_mib)" "$heap_at_exit"
  done
  echo "(exit 0, or 1 for check with error findings, means it fitted in the 512 MB heap; 2 is a failure)"
  echo
fi
