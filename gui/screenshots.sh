#!/usr/bin/env bash
# Makes the GUI screenshots in docs/ (gui-main.png, gui-ladder.png, gui-charts.png, gui-diagnosis.png) from the
# committed sample captures, and (issue 17) gui-main-real.png, gui-stats-*.png and gui-follow.png from
# ../shared/captures/linlinw5_rdma_read_bw.pcap when it is there, under a private Xvfb when there is no display. Needs a JDK 17+,
# libgtk-3-0, and xvfb + xauth on a headless machine (.ci/run installs them).
set -euo pipefail
here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
exec "$here/fx-run.sh" io.rdmascope.gui.Screenshots "$here/../docs"
