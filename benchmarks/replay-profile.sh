#!/usr/bin/env bash
# Records a JFR profile of ReplayBenchmark with the replay's main steps kept out of line, and sums it
# with jfr-summary.sh. Inlined into a few large compiled methods, the steps' samples are credited by
# debug information that is often wrong: in a normal recording lumps of 10-14 % of all samples land on
# single lines that cannot cost that much (a call site in ReplayEngine.accept, one line of
# Conversation.emit) and move when unrelated code changes (docs/performance.md,
# "Issue 18: the replay proper, third pass"). Kept out of line, each step's inclusive share is what its
# calls cost, a little more for the calls themselves: compare two builds with the same list, not with
# a normal recording.
#
#   benchmarks/replay-profile.sh [BENCHMARKS_JAR] [OUT.jfr]
#       defaults: benchmarks/target/benchmarks.jar, /tmp/replay-profile.jfr
#
# RDMASCOPE_PROFILE_INLINE=1 records without the out-of-line list (for self shares as usual).
# RDMASCOPE_PROFILE_BENCH names the benchmark (default ReplayBenchmark.readDissectAndReplay, which every
# build since the third pass has; ReplayBenchmark.readDissectAndCount is summary's replay, no Message built).

set -euo pipefail

die() { printf 'replay-profile: %s\n' "$*" >&2; exit 1; }

here=$(cd -P -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
jar=${1:-$here/target/benchmarks.jar}
out=${2:-/tmp/replay-profile.jfr}
[[ -r $jar ]] || die "no benchmarks jar at $jar (build it: ./mvnw -q -o -pl benchmarks -am package -DskipTests)"
command -v java >/dev/null || die "no 'java' on PATH"

# A 1 ms sampling period (the JDK's profile settings sample every 10 ms): about 10,000 samples a run.
settings=$(mktemp --suffix=.jfc)
trap 'rm -f "$settings"' EXIT
jfc=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")/lib/jfr/profile.jfc
[[ -r $jfc ]] || die "no JFR profile settings at $jfc"
sed 's|<setting name="period" control="method-sampling-java-interval">10 ms</setting>|<setting name="period" control="method-sampling-java-interval">1 ms</setting>|' \
    "$jfc" > "$settings"

opts=(-XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints "-XX:StartFlightRecording=filename=$out,settings=$settings")
if [[ ${RDMASCOPE_PROFILE_INLINE:-0} != 1 ]]; then
    opts+=(-XX:CompileCommand=quiet)
    for m in 'replay/Conversation.*' 'replay/ConversationStats.*' 'replay/CaptureArtifacts.*' \
             'replay/TransmissionRing.*' 'replay/MessageBuilder.*' 'replay/Channel.request' 'replay/Channel.response' \
             'replay/Channel.retire' 'replay/ReplayEngine.process' 'replay/ReplayEngine.frameChecks' \
             'replay/PacketFacts.read' 'replay/RouteTable.get' 'proto/ib/Crcs.*'; do
        opts+=("-XX:CompileCommand=dontinline,io/rdmascope/$m")
    done
fi

bench=${RDMASCOPE_PROFILE_BENCH:-ReplayBenchmark.readDissectAndReplay}
java -jar "$jar" "$bench\$" -wi 2 -i 4 -w 3 -r 3 -f 1 -jvmArgsAppend "${opts[*]}" | grep "${bench##*.} "
"$here/jfr-summary.sh" "$out" 40
