package io.rdmascope.gui.details;

import javafx.css.PseudoClass;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.layout.BorderPane;
import javafx.scene.paint.Color;
import javafx.scene.text.Font;
import javafx.scene.text.Text;

/**
 * The hex and ASCII pane: 16 bytes a line, as {@code tshark -x} prints them, the selected field's
 * bytes highlighted; a click on a byte (hex or ASCII side) selects the field that covers it. A
 * virtual list of lines, each drawn on a small canvas, so even a jumbo frame costs a screenful.
 */
public final class HexView extends BorderPane {
    /** Set on a line that holds highlighted bytes. */
    public static final PseudoClass HIGHLIGHTED = PseudoClass.getPseudoClass("highlighted");

    static final int PER_LINE = 16;
    /** Character column where the hex bytes start (after the 4-digit offset and two spaces). */
    static final int HEX_START = 6;
    /** Character column where the ASCII side starts. */
    static final int ASCII_START = HEX_START + PER_LINE * 3 + 1 + 2;
    private static final Color HIGHLIGHT = Color.web("#3875d7");
    private static final Color OFFSET = Color.web("#808080");

    private final PacketDetailsViewModel vm;
    private final ListView<Integer> lines = new ListView<>();
    private final Font font = Font.font("Monospaced", 12);
    private final double charWidth;
    private final double lineHeight;

    public HexView(PacketDetailsViewModel vm) {
        this.vm = vm;
        getStyleClass().add("hex-view");
        lines.setId("hexLines");
        Text probe = new Text("0");
        probe.setFont(font);
        charWidth = probe.getLayoutBounds().getWidth();
        lineHeight = Math.ceil(probe.getLayoutBounds().getHeight()) + 3;
        lines.setFixedCellSize(lineHeight + 2);
        lines.setCellFactory(l -> new LineCell());
        vm.bytes().addListener((o, was, now) -> refill(now));
        vm.highlight().addListener((o, was, now) -> {
            lines.refresh();
            if (now != null) {
                int line = now.start() / PER_LINE;
                var flow = (javafx.scene.control.skin.VirtualFlow<?>) lines.lookup(".virtual-flow");
                boolean visible = false;
                if (flow != null && flow.getFirstVisibleCell() != null && flow.getLastVisibleCell() != null) {
                    visible = line >= flow.getFirstVisibleCell().getIndex() && line < flow.getLastVisibleCell().getIndex();
                }
                if (!visible) {
                    lines.scrollTo(Math.max(0, line - 1));
                }
            }
        });
        setCenter(lines);
    }

    public ListView<Integer> lines() {
        return lines;
    }

    private void refill(byte[] bytes) {
        int n = (bytes.length + PER_LINE - 1) / PER_LINE;
        Integer[] items = new Integer[n];
        for (int i = 0; i < n; i++) {
            items[i] = i;
        }
        lines.getItems().setAll(items);
    }

    /** The byte under character column {@code column} of line {@code line}, or -1. */
    static int byteAt(int line, int column, int length) {
        int i = -1;
        if (column >= HEX_START && column < HEX_START + PER_LINE * 3 + 1) {
            int c = column - HEX_START;
            if (c >= 8 * 3 + 1) {
                c -= 1; // the gap after the eighth byte
            } else if (c == 8 * 3) {
                return -1;
            }
            if (c % 3 == 2) {
                return -1; // the space between two bytes
            }
            i = c / 3;
        } else if (column >= ASCII_START && column < ASCII_START + PER_LINE) {
            i = column - ASCII_START;
        }
        int offset = line * PER_LINE + i;
        return i >= 0 && i < PER_LINE && offset < length ? offset : -1;
    }

    private static int hexColumn(int i) {
        return HEX_START + i * 3 + (i >= 8 ? 1 : 0);
    }

    private final class LineCell extends ListCell<Integer> {
        private final Canvas canvas = new Canvas((ASCII_START + PER_LINE + 1) * charWidth, lineHeight);

        LineCell() {
            getStyleClass().add("hex-row");
            setGraphic(canvas);
            setOnMouseClicked(e -> {
                Integer line = getItem();
                if (line == null) {
                    return;
                }
                double x = canvas.sceneToLocal(e.getSceneX(), e.getSceneY()).getX();
                int column = (int) Math.floor(x / charWidth);
                int offset = byteAt(line, column, vm.bytes().get().length);
                if (offset >= 0) {
                    vm.selectByte(offset);
                }
            });
        }

        @Override
        protected void updateItem(Integer line, boolean empty) {
            super.updateItem(line, empty);
            setText(null);
            GraphicsContext g = canvas.getGraphicsContext2D();
            g.clearRect(0, 0, canvas.getWidth(), canvas.getHeight());
            boolean lit = false;
            if (!empty && line != null) {
                lit = draw(g, line);
            }
            pseudoClassStateChanged(HIGHLIGHTED, lit);
            setGraphic(empty ? null : canvas);
        }

        private boolean draw(GraphicsContext g, int line) {
            byte[] bytes = vm.bytes().get();
            PacketDetailsViewModel.Span span = vm.highlight().get();
            int start = line * PER_LINE;
            int end = Math.min(bytes.length, start + PER_LINE);
            boolean lit = false;
            double baseline = lineHeight - 4;
            g.setFont(font);
            for (int i = start; i < end; i++) {
                if (span != null && span.contains(i)) {
                    lit = true;
                    g.setFill(HIGHLIGHT);
                    int col = hexColumn(i - start);
                    g.fillRect(col * charWidth, 0, 2 * charWidth, lineHeight);
                    g.fillRect((ASCII_START + i - start) * charWidth, 0, charWidth, lineHeight);
                }
            }
            g.setFill(OFFSET);
            g.fillText(String.format("%04x", start), 0, baseline);
            for (int i = start; i < end; i++) {
                int b = bytes[i] & 0xFF;
                boolean on = span != null && span.contains(i);
                g.setFill(on ? Color.WHITE : Color.BLACK);
                g.fillText(String.format("%02x", b), hexColumn(i - start) * charWidth, baseline);
                char c = b >= 0x20 && b < 0x7F ? (char) b : '.';
                g.fillText(String.valueOf(c), (ASCII_START + i - start) * charWidth, baseline);
            }
            return lit;
        }
    }
}
