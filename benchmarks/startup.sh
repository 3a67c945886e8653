#!/usr/bin/env bash
# Start-up of whole rdmascope processes: `--version`, `summary` and `check` on the bundled sample
# (sample-pcaps/captures/roce_v2_mixed.pcapng, 300 frames), each variant RUNS times (default 10),
# the variants alternating run by run; prints the median elapsed and CPU (user + sys) milliseconds of
# each and the load average before each command's runs.
#
#   benchmarks/startup.sh                          # the launcher beside this script, with its
#                                                  # start-up archive and without (RDMASCOPE_CDS=off)
#   benchmarks/startup.sh 'before=/tmp/before/rdmascope' "after=$PWD/rdmascope"
#   RUNS=20 SAMPLE=some.pcapng benchmarks/startup.sh ...
#
# A variant is LABEL=COMMAND, the command split on spaces (so `env VAR=value /path/rdmascope` works).
# docs/performance.md ("Issue 18: start-up and the measuring script") says how the "before" launcher
# of its table was made. Each variant is run once before timing, so a launcher that builds or makes
# its archive does so outside the timed runs.
set -euo pipefail
shopt -s inherit_errexit
root=$(cd "$(dirname "$0")/.." && pwd)
runs=${RUNS:-10}
sample=${SAMPLE:-$root/sample-pcaps/captures/roce_v2_mixed.pcapng}
[[ -f $sample ]] || { echo "startup.sh: sample capture $sample is missing" >&2; exit 2; }
work=$root/benchmarks/target/startup
mkdir -p "$work"
# shellcheck source=timing.sh
source "$root/benchmarks/timing.sh"
cpu_log=$work/cpu.txt

labels=() commands=()
if (( $# == 0 )); then
  set -- "archive=$root/rdmascope" "no archive=env RDMASCOPE_CDS=off $root/rdmascope"
fi
for variant in "$@"; do
  [[ $variant == *=* ]] || { echo "startup.sh: a variant is LABEL=COMMAND (got '$variant')" >&2; exit 2; }
  labels+=("${variant%%=*}")
  commands+=("${variant#*=}")
done

echo "machine: $(nproc) cores, $(java -version 2>&1 | head -n 1), $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "sample: $sample; runs per variant: $runs"
for j in "${!commands[@]}"; do
  read -r -a cmd <<<"${commands[$j]}"
  "${cmd[@]}" --version > /dev/null || { echo "startup.sh: '${commands[$j]} --version' failed" >&2; exit 2; }
done
echo

for args in "--version" "summary $sample" "check $sample"; do
  echo "== rdmascope ${args/$sample/SAMPLE}   (load average before: $(load_average))"
  declare -A walls=() cpus=()
  for ((i = 0; i < runs; i++)); do
    for j in "${!commands[@]}"; do
      read -r -a cmd <<<"${commands[$j]} $args"
      walls[$j]+="$(time_cmd "${cmd[@]}") "
      cpus[$j]+="$(cpu_ms) "
    done
  done
  for j in "${!commands[@]}"; do
    # shellcheck disable=SC2086 # the lists are numbers separated by spaces
    printf '%-20s median %5s ms elapsed, %5s ms CPU   (elapsed: %s)\n' "${labels[$j]}" \
      "$(printf '%s\n' ${walls[$j]} | median)" "$(printf '%s\n' ${cpus[$j]} | median)" "${walls[$j]% }"
  done
  unset walls cpus
  echo
done
