#!/usr/bin/env bash
# rdmascope against tshark 4.x on the same generated RoCEv2 capture (mixed_large: 64 QPs of RC
# SEND/WRITE/READ with loss, NAKs and retransmissions), whole processes, the two tools alternating
# run by run, RUNS times each; prints every run, the medians and the ratios (tshark / rdmascope) of
# elapsed time and of CPU time (user + sys, from /usr/bin/time when present: steadier on a busy machine).
#
#   summary  rdmascope summary FILE                  vs  tshark -r FILE -q -z io,phs
#   fields   rdmascope dissect -r FILE -T fields -e … vs  tshark -r FILE -T fields -e …  (same fields;
#            the two outputs are also checked byte for byte)
#   filter   rdmascope dissect -r FILE -Y FILTER …    vs  tshark -r FILE -Y FILTER …     (only when this
#            rdmascope accepts -Y; the frame numbers printed are checked to be the same)
#
# Usage:
#   benchmarks/vs-tshark.sh                      # 1,000,000 frames, RUNS=3, every comparison
#   benchmarks/vs-tshark.sh --10m                # also on a 10,000,000-frame capture (2.3 GB)
#   benchmarks/vs-tshark.sh --only fields        # one comparison: summary, fields or filter
#   benchmarks/vs-tshark.sh --breakdown          # also time the parts of summary (see below)
#   FRAMES=200000 RUNS=5 benchmarks/vs-tshark.sh # another size (FRAMES replaces the 1 M capture)
#
# --breakdown times `rdmascope --version` (JVM start and class loading), `dissect -Y 'frame.number
# == 0'` (read + dissect, no output; when -Y works), `flows` (read + dissect + replay) and `summary`.
# Captures are generated once into benchmarks/target/vs-tshark/ and reused.
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
while (( $# )); do
  case $1 in
    --10m) sizes+=(10000000) ;;
    --only) only=${2:?--only needs summary, fields or filter}; shift ;;
    --breakdown) breakdown=1 ;;
    -h|--help) awk 'NR > 1 && /^#/ {sub(/^# ?/, ""); print; next} NR > 1 {exit}' "$0"; exit 0 ;;
    *) echo "vs-tshark.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
  shift
done
command -v tshark >/dev/null || { echo "tshark is not installed (apt-get install tshark)" >&2; exit 2; }
rdmascope=${RDMASCOPE:-$root/rdmascope}
work=$root/benchmarks/target/vs-tshark
mkdir -p "$work"

fields=(-T fields -e frame.number -e infiniband.bth.opcode -e infiniband.bth.destqp -e infiniband.bth.psn)
filter='infiniband.bth.opcode == 17 && infiniband.aeth.syndrome >= 96'   # NAKs (AETH syndrome 011x xxxx)

ms() { date +%s%N; }
cpu_log=$work/cpu.txt
time_cmd() { # elapsed milliseconds of "$@", stdout and stderr discarded; CPU ms (user + sys) to $cpu_log
  local t0 t1
  if [[ -x /usr/bin/time ]]; then
    t0=$(ms); /usr/bin/time -f '%U %S' -o "$cpu_log" "$@" > /dev/null 2>&1; t1=$(ms)
  else
    t0=$(ms); "$@" > /dev/null 2>&1; t1=$(ms)
    echo "0 0" > "$cpu_log"
  fi
  echo $(( (t1 - t0) / 1000000 ))
}
cpu_ms() { awk 'END {printf "%d", ($1 + $2) * 1000}' "$cpu_log"; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2)}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.1f", a / (b > 0 ? b : 1)}'; }
wanted() { [[ -z $only || $only == "$1" ]]; }

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
echo

for frames in "${sizes[@]}"; do
  file=$(capture_of "$frames") || exit 2
  echo "### capture: $file ($frames frames, $(stat -c %s "$file") bytes)"
  echo
  # Warm the page cache once.
  cat "$file" > /dev/null

  if wanted summary; then
    ours_top=$("$rdmascope" summary "$file" | awk '/^Protocol hierarchy/ {getline; print $2; exit}')
    theirs_top=$(tshark -r "$file" -q -z io,phs 2>/dev/null | awk '/frames:/ {print $2; exit}')
    compare "summary vs io,phs" "$file" "$rdmascope summary FILE" "tshark -r FILE -q -z io,phs" \
      "top of the hierarchy: rdmascope $ours_top, tshark $theirs_top"
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
    part "summary" "$rdmascope" summary "$file"
    echo
  fi
done
