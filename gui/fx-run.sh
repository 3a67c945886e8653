#!/usr/bin/env bash
# Runs a main class of the GUI's test scope with a display: the current one, or a private Xvfb
# (xvfb-run) when DISPLAY is unset. Builds what it needs first. Used by screenshots.sh and
# load-timing.sh; JVM options: gui/java-options (the GUI's, as ./rdmascope gui uses them), then
# FX_RUN_JAVA_OPTS.
#
#   gui/fx-run.sh io.rdmascope.gui.Screenshots docs
set -euo pipefail
root=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
main=$1
shift
cd -- "$root"
# One reactor run: compile the GUI's tests and write each module's test classpath (siblings resolve
# to their target/classes in the same run).
./mvnw -q -B -pl gui -am test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test >&2
cp="$root/gui/target/test-classes:$root/gui/target/classes:$(cat "$root/gui/target/test-classpath.txt")"
read -r -a opts <<<"${FX_RUN_JAVA_OPTS:-}"
# the GUI's own JVM options first (what ./rdmascope gui runs with), FX_RUN_JAVA_OPTS after them
gui_opts=()
mapfile -t gui_opts < <(grep -Ev '^[[:space:]]*(#|$)' "$root/gui/java-options")
cmd=(java -Drdmascope.root="$root" ${gui_opts[@]+"${gui_opts[@]}"} ${opts[@]+"${opts[@]}"} -cp "$cp" "$main" "$@")
if [[ -z ${DISPLAY-} ]]; then
  command -v xvfb-run >/dev/null || { echo "no DISPLAY and no xvfb-run (apt-get install xvfb xauth)" >&2; exit 2; }
  exec xvfb-run -a -s "-screen 0 1600x1200x24" "${cmd[@]}"
fi
exec "${cmd[@]}"
