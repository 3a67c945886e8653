#!/usr/bin/env bash
# Sums a JFR recording's execution samples per method: the share of samples a method was on top of
# the stack (self) and anywhere in it (inclusive, counted once per sample), as docs/performance.md
# reports them. Samples whose stack holds io.rdmascope.samples (a benchmark's capture generator, run
# in its setup) are left out.
#
#   benchmarks/jfr-summary.sh RECORDING.jfr [TOP]      (TOP rows of each list, default 30)
#
# Make a recording with, e.g.:
#   java -jar benchmarks/target/benchmarks.jar ReplayBenchmark -wi 2 -i 4 -w 3 -r 3 -f 1 \
#     -jvmArgsAppend "-XX:StartFlightRecording=filename=/tmp/replay.jfr,settings=profile"
# Adding -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints to the JVM arguments attributes samples
# to the inlined method they fell in rather than to the nearest safepoint.

set -euo pipefail

die() { printf 'jfr-summary: %s\n' "$*" >&2; exit 1; }

[[ $# -ge 1 ]] || die "usage: $0 RECORDING.jfr [TOP]"
recording=$1
top=${2:-30}
[[ -r $recording ]] || die "cannot read $recording"
[[ $top =~ ^[0-9]+$ ]] || die "TOP must be a number, not '$top'"
command -v jfr >/dev/null || die "no 'jfr' on PATH (it comes with the JDK)"

jfr print --stack-depth 64 --events jdk.ExecutionSample "$recording" | awk -v top="$top" '
    function flush(   i, m, seen) {
        if (depth == 0 || skip) { depth = 0; skip = 0; return }
        samples++
        self[frame[1]]++
        for (i = 1; i <= depth; i++) {
            m = frame[i]
            if (!(m in seen)) { seen[m] = 1; inclusive[m]++ }
        }
        depth = 0
    }
    /^jdk.ExecutionSample/ { flush(); next }
    /line:/ {
        m = $1
        sub(/\(.*/, "", m)
        frame[++depth] = m
        if (m ~ /^io\.rdmascope\.samples\./) skip = 1
    }
    END {
        flush()
        if (samples == 0) { print "no execution samples"; exit 1 }
        printf "%d samples\n", samples
        report("self", self)
        report("inclusive", inclusive)
    }
    function report(title, counts,   n, keys, k, i, j, t) {
        n = 0
        for (k in counts) keys[++n] = k
        for (i = 2; i <= n; i++) {   # insertion sort, largest first: a few hundred methods
            t = keys[i]
            for (j = i - 1; j >= 1 && counts[keys[j]] < counts[t]; j--) keys[j + 1] = keys[j]
            keys[j + 1] = t
        }
        printf "-- %s\n", title
        for (i = 1; i <= n && i <= top; i++) printf "%5.1f %%  %s\n", 100 * counts[keys[i]] / samples, keys[i]
    }
'
