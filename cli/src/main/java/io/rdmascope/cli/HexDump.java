package io.rdmascope.cli;

import io.rdmascope.frame.Frame;
import io.rdmascope.text.AsciiSink;

/** {@code tshark -x}: offset, 16 hex bytes, two spaces, printable ASCII. */
final class HexDump {
    private HexDump() {
    }

    static void append(AsciiSink out, Frame f) {
        int n = f.capturedLength();
        for (int row = 0; row < n; row += 16) {
            out.appendHex(row, 4).append("  ");
            int end = Math.min(n, row + 16);
            for (int i = row; i < row + 16; i++) {
                if (i < end) {
                    out.appendHex(f.get(i) & 0xFF, 2);
                } else {
                    out.append("  ");
                }
                out.append(i < row + 15 ? " " : "");
            }
            out.append("   ");
            for (int i = row; i < end; i++) {
                int b = f.get(i) & 0xFF;
                out.append(b >= 0x20 && b < 0x7F ? (char) b : '.');
            }
            out.append('\n');
        }
    }
}
