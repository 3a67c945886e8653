#!/usr/bin/env bash
# Times the main window on a large capture: first rows drawn, full index, replay done, longest
# FX-thread stall, heap after GC (three runs in one JVM). Make the capture first:
#   ./rdmascope generate --scenario mixed_large --out /tmp/ml
#   gui/load-timing.sh /tmp/ml/mixed_large.pcap
set -euo pipefail
here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
exec "$here/fx-run.sh" io.rdmascope.gui.LoadTiming "$@"
