#!/usr/bin/env bash
# Makes the GUI screenshots in docs/ (gui-main.png, gui-ladder.png, gui-charts.png, gui-diagnosis.png) from the
# committed sample captures, and (issue 17) gui-main-real.png, gui-stats-*.png and gui-follow.png from
# ../shared/captures/linlinw5_rdma_read_bw.pcap when it is there, under a private Xvfb when there is no display. Needs a JDK 17+,
# libgtk-3-0, and xvfb + xauth on a headless machine (.ci/run installs them).
set -euo pipefail
here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
"$here/fx-run.sh" io.rdmascope.gui.Screenshots "$here/../docs"
# The charts pages hold sixteen screenshots: quantised they take half the room (pngquant, when installed).
if command -v pngquant >/dev/null 2>&1; then
  pngquant --quality 70-95 --speed 1 --strip --ext .png --force "$here/../docs/charts/"*.png
fi
