package io.rdmascope.gui.model;

import java.util.List;

/**
 * The packet-list text of one frame: the columns {@code rdmascope dissect} prints (No., Time,
 * Source, Destination, Protocol, Length, Info), the values of columns added from fields, and the
 * colouring rule that matched (-1 for none).
 */
public record PacketRow(int number, String time, String source, String destination, String protocol, int length,
                        String info, List<String> extra, int coloringRule) {
}
