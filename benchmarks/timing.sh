# Timing helpers shared by the benchmark scripts (sourced, not run). A caller sets `cpu_log` to a
# writable file before calling time_cmd.
#
#   time_cmd CMD...   prints the elapsed milliseconds of CMD (stdout and stderr discarded, any exit
#                     status accepted: `check` exits 1 on findings); CMD's CPU time (user + sys)
#                     and peak resident set go to $cpu_log, its exit status to $cpu_log.status
#   cpu_ms            the CPU milliseconds of the last time_cmd
#   rss_mib           the peak resident set of the last time_cmd, MiB (0 without /usr/bin/time)
#   last_status       the exit status of the last time_cmd
#   median            median of the integers on stdin (mean of the middle two for an even count)
#   ratio A B         A / B to one decimal
#   load_average      the 1, 5 and 15 minute load averages, e.g. "3.10 2.05 1.40"

ms() { date +%s%N; }

time_cmd() {
  local t0 t1 status=0
  if [[ -x /usr/bin/time ]]; then
    # %x is the command's exit status: /usr/bin/time's own status would say "non-zero" only.
    t0=$(ms); /usr/bin/time -f '%U %S %M %x' -o "$cpu_log" "$@" > /dev/null 2>&1 || status=$?; t1=$(ms)
  else
    t0=$(ms); "$@" > /dev/null 2>&1 || status=$?; t1=$(ms)
    echo "0 0 0 $status" > "$cpu_log"
  fi
  echo "$status" > "$cpu_log.status"
  echo $(( (t1 - t0) / 1000000 ))
}
# /usr/bin/time writes "Command exited with non-zero status N" before its format line; END reads the last.
cpu_ms() { awk 'END {printf "%d", ($1 + $2) * 1000}' "$cpu_log"; }
rss_mib() { awk 'END {printf "%d", $3 / 1024}' "$cpu_log"; }
last_status() { cat "$cpu_log.status"; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2)}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.1f", a / (b > 0 ? b : 1)}'; }
load_average() { cut -d ' ' -f 1-3 /proc/loadavg 2>/dev/null || echo "unknown"; }
