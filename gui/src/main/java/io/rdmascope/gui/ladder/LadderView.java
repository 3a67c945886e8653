package io.rdmascope.gui.ladder;

import io.rdmascope.gui.conversations.ConversationsViewModel;
import io.rdmascope.gui.ladder.LadderViewModel.Arrow;
import io.rdmascope.gui.ladder.LadderViewModel.Diagram;
import io.rdmascope.gui.ladder.LadderViewModel.Kind;
import io.rdmascope.gui.ladder.LadderViewModel.Lane;
import io.rdmascope.gui.ladder.LadderViewModel.Mark;
import io.rdmascope.gui.ladder.LadderViewModel.Stop;
import io.rdmascope.gui.vantage.VantagePalette;
import javafx.collections.ListChangeListener;
import javafx.geometry.Insets;
import javafx.geometry.Orientation;
import javafx.geometry.Pos;
import javafx.geometry.VPos;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollBar;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Pane;
import javafx.scene.paint.Color;
import javafx.scene.shape.StrokeLineCap;
import javafx.scene.text.Font;
import javafx.scene.text.FontWeight;
import javafx.scene.text.TextAlignment;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The ladder diagram: side A's lifeline on the left, side B's on the right, one arrow per frame
 * from top to bottom labelled with operation and PSN, coloured by kind (request, read response,
 * ACK, NAK, RNR NAK, CNP, CM) and marked by what the replay saw (a retransmission is dashed red
 * with ↻, a duplicate dotted, a loss after the capture point ends in ✕). Only the arrows in sight
 * are drawn; the scroll bar, the mouse wheel and Ctrl+wheel (zoom) move through any number of them.
 * A click on an arrow selects its frame.
 *
 * <p>With several vantage points (issue 20) the lifelines are the points' lanes, side A's end of the path on
 * the left, and each packet is drawn through the lanes that saw it, a dot in the point's colour at each
 * sighting; within its row each hop drops by its measured one-way delay (clocks corrected), the conversation's
 * longest first-to-last sighting using the row's slant room, so slower hops are steeper. A packet that never
 * reached the next lane ends past the last point that saw it in ✕.
 */
public final class LadderView extends BorderPane {
    static final double HEADER = 44;
    static final double TIME_COLUMN = 120;
    static final Map<Kind, Color> COLOURS = Map.ofEntries(
            Map.entry(Kind.REQUEST, Color.web("#1f5fbf")),
            Map.entry(Kind.READ_RESPONSE, Color.web("#1e8c3a")),
            Map.entry(Kind.ATOMIC_ACK, Color.web("#1e8c3a")),
            Map.entry(Kind.ACK, Color.web("#707070")),
            Map.entry(Kind.NAK, Color.web("#d00000")),
            Map.entry(Kind.RNR_NAK, Color.web("#e07000")),
            Map.entry(Kind.CNP, Color.web("#8a2be2")),
            Map.entry(Kind.CM, Color.web("#008080")),
            Map.entry(Kind.DATAGRAM, Color.web("#1f5fbf")),
            Map.entry(Kind.TCP_SEGMENT, Color.web("#505050")),
            Map.entry(Kind.OTHER, Color.web("#202020")));
    private static final Color RETRANSMISSION = Color.web("#d00000");
    private static final Color SELECTED_ROW = Color.web("#cfe0ff");
    private static final Color LIFELINE = Color.web("#9a9a9a");

    private final LadderViewModel vm;
    private final Canvas canvas = new Canvas();
    private final ScrollBar scroll = new ScrollBar();
    private final Pane area = new Pane(canvas);
    private final List<Arrow> painted = new ArrayList<>();

    public LadderView(LadderViewModel vm, ConversationsViewModel conversations) {
        this.vm = vm;
        getStyleClass().add("ladder-view");
        setId("ladderView");

        ComboBox<String> choice = new ComboBox<>();
        choice.setId("ladderConversation");
        choice.setPrefWidth(300);
        choice.setMinWidth(120);
        Runnable fillChoice = () -> {
            List<String> items = new ArrayList<>();
            for (ConversationsViewModel.Row r : conversations.rows()) {
                items.add(r.id() + ": " + r.addressA() + " " + r.qpA() + " ⇄ " + r.addressB() + " " + r.qpB()
                        + " (" + r.transport() + ")");
            }
            choice.getItems().setAll(items);
            selectChoice(choice, conversations.selected().get());
        };
        conversations.rows().addListener((ListChangeListener<ConversationsViewModel.Row>) c -> fillChoice.run());
        conversations.selected().addListener((o, was, now) -> selectChoice(choice, now));
        choice.setOnAction(e -> {
            String v = choice.getValue();
            if (v != null) {
                conversations.selected().set(v.substring(0, v.indexOf(':')));
            }
        });
        fillChoice.run();

        Button zoomIn = new Button("+");
        zoomIn.setId("ladderZoomIn");
        zoomIn.setTooltip(new Tooltip("Zoom in (Ctrl+wheel)"));
        zoomIn.setOnAction(e -> vm.zoomIn());
        Button zoomOut = new Button("−");
        zoomOut.setId("ladderZoomOut");
        zoomOut.setTooltip(new Tooltip("Zoom out (Ctrl+wheel)"));
        zoomOut.setOnAction(e -> vm.zoomOut());
        Button zoomReset = new Button("1:1");
        zoomReset.setOnAction(e -> vm.zoomReset());
        Label status = new Label();
        status.setId("ladderStatus");
        status.textProperty().bind(vm.status());
        status.setMinWidth(0);
        HBox top = new HBox(6, choice, zoomOut, zoomIn, zoomReset, status);
        top.setAlignment(Pos.CENTER_LEFT);
        top.setPadding(new Insets(4));
        setTop(top);

        scroll.setOrientation(Orientation.VERTICAL);
        scroll.valueProperty().addListener((o, was, now) -> paint());
        area.setMinSize(100, 100);
        area.widthProperty().addListener((o, was, now) -> layoutCanvas());
        area.heightProperty().addListener((o, was, now) -> layoutCanvas());
        area.setOnScroll(e -> {
            if (e.isControlDown()) {
                if (e.getDeltaY() > 0) {
                    vm.zoomIn();
                } else if (e.getDeltaY() < 0) {
                    vm.zoomOut();
                }
            } else {
                scroll.setValue(clamp(scroll.getValue() - e.getDeltaY(), 0, scroll.getMax()));
            }
            e.consume();
        });
        area.setOnMouseClicked(e -> {
            int row = rowAtY(e.getY());
            if (row >= 0) {
                vm.choose(row);
            }
        });
        canvas.setId("ladderCanvas");
        setCenter(area);
        setRight(scroll);
        setBottom(legend());

        vm.diagram().addListener((o, was, now) -> {
            scroll.setValue(0);
            layoutCanvas();
        });
        vm.rowHeight().addListener((o, was, now) -> {
            // keep the arrow at the top of the view in place while zooming
            double firstRow = scroll.getValue() / was.doubleValue();
            updateScrollRange();
            scroll.setValue(clamp(firstRow * now.doubleValue(), 0, scroll.getMax()));
            paint();
        });
        vm.selection().current().addListener((o, was, now) -> {
            revealRow(vm.rowOf(now.intValue()));
            paint();
        });
        vm.selection().frames().addListener((o, was, now) -> paint());
    }

    /** The arrows drawn by the last paint, top to bottom (what is in sight). */
    public List<Arrow> paintedArrows() {
        return List.copyOf(painted);
    }

    public Canvas canvas() {
        return canvas;
    }

    /** Where row {@code row}'s arrow is drawn (canvas y), for clicking it in tests. */
    public double rowCenterY(int row) {
        return HEADER + row * vm.rowHeight().get() - scroll.getValue() + vm.rowHeight().get() * 0.62;
    }

    /**
     * Where stop {@code s} of the arrow in row {@code row} is drawn (canvas y): the row's slant room from its
     * top, {@code s}'s delay after the arrow's first sighting against the diagram's longest path.
     */
    public double stopY(int row, Stop s) {
        return stopY(rowCenterY(row), vm.rowHeight().get(), s.afterFirstNanos(), vm.diagram().get().longestPathNanos());
    }

    private static double stopY(double mid, double rowH, long afterFirstNanos, long longestNanos) {
        double room = Math.min(rowH * 0.42, 24);
        return longestNanos == 0 ? mid : mid - room / 2 + room * afterFirstNanos / longestNanos;
    }

    /** Where lane {@code lane} of the diagram shown is drawn (canvas x), or NaN without lanes. */
    public double laneX(int lane) {
        int lanes = vm.diagram().get().lanes().size();
        if (lanes < 2 || lane < 0 || lane >= lanes) {
            return Double.NaN;
        }
        double w = canvas.getWidth();
        double xa = TIME_COLUMN + (w - TIME_COLUMN) * 0.2;
        double xb = TIME_COLUMN + (w - TIME_COLUMN) * 0.8;
        return xa + (xb - xa) * lane / (lanes - 1);
    }

    private static void selectChoice(ComboBox<String> choice, String id) {
        if (id == null) {
            choice.getSelectionModel().clearSelection();
            return;
        }
        for (String item : choice.getItems()) {
            if (item.startsWith(id + ":")) {
                if (!item.equals(choice.getValue())) {
                    choice.getSelectionModel().select(item);
                }
                return;
            }
        }
    }

    private FlowPane legend() {
        FlowPane legend = new FlowPane(10, 4);
        legend.setPadding(new Insets(4));
        String[][] entries = {
                {"request", "#1f5fbf"}, {"read response / atomic ACK", "#1e8c3a"}, {"ACK", "#707070"},
                {"NAK", "#d00000"}, {"RNR NAK", "#e07000"}, {"CNP", "#8a2be2"}, {"CM", "#008080"}};
        for (String[] e : entries) {
            Label l = new Label("━ " + e[0]);
            l.setStyle("-fx-text-fill: " + e[1] + ";");
            legend.getChildren().add(l);
        }
        Label retrans = new Label("┅ ↻ retransmission");
        retrans.setStyle("-fx-text-fill: #d00000;");
        Label dup = new Label("┈ duplicate");
        Label lost = new Label("✕ lost after the capture point");
        Label gap = new Label("gap ⋯ packets missing before this one");
        gap.setStyle("-fx-text-fill: #d00000;");
        Label sighting = new Label("● seen at a vantage point; slant: one-way delay; ✕ lost after the last point that saw it");
        sighting.visibleProperty().bind(javafx.beans.binding.Bindings.createBooleanBinding(
                () -> !vm.diagram().get().lanes().isEmpty(), vm.diagram()));
        sighting.managedProperty().bind(sighting.visibleProperty());
        legend.getChildren().addAll(retrans, dup, lost, gap, sighting);
        return legend;
    }

    private void layoutCanvas() {
        canvas.setWidth(Math.max(1, area.getWidth()));
        canvas.setHeight(Math.max(1, area.getHeight()));
        updateScrollRange();
        paint();
    }

    private void updateScrollRange() {
        double content = vm.diagram().get().arrows().size() * vm.rowHeight().get();
        double view = Math.max(1, canvas.getHeight() - HEADER);
        scroll.setMin(0);
        scroll.setMax(Math.max(0, content - view));
        scroll.setVisibleAmount(Math.min(view, Math.max(1, content)));
        scroll.setUnitIncrement(vm.rowHeight().get());
        scroll.setBlockIncrement(view * 0.9);
        scroll.setValue(clamp(scroll.getValue(), 0, scroll.getMax()));
    }

    private void revealRow(int row) {
        if (row < 0) {
            return;
        }
        double h = vm.rowHeight().get();
        double top = row * h;
        double view = Math.max(1, canvas.getHeight() - HEADER);
        if (top < scroll.getValue()) {
            scroll.setValue(clamp(top - h, 0, scroll.getMax()));
        } else if (top + h > scroll.getValue() + view) {
            scroll.setValue(clamp(top + 2 * h - view, 0, scroll.getMax()));
        }
    }

    private int rowAtY(double y) {
        if (y < HEADER) {
            return -1;
        }
        int row = (int) Math.floor((y - HEADER + scroll.getValue()) / vm.rowHeight().get());
        return row < vm.diagram().get().arrows().size() ? row : -1;
    }

    private static double clamp(double v, double lo, double hi) {
        return Math.max(lo, Math.min(hi, v));
    }

    private void paint() {
        painted.clear();
        GraphicsContext g = canvas.getGraphicsContext2D();
        double w = canvas.getWidth();
        double h = canvas.getHeight();
        g.setFill(Color.WHITE);
        g.fillRect(0, 0, w, h);
        Diagram d = vm.diagram().get();
        if (d.arrows().isEmpty()) {
            return;
        }
        double rowH = vm.rowHeight().get();
        double xa = TIME_COLUMN + (w - TIME_COLUMN) * 0.2;
        double xb = TIME_COLUMN + (w - TIME_COLUMN) * 0.8;
        double fontSize = clamp(rowH * 0.45, 7, 12);
        Font font = Font.font("SansSerif", fontSize);
        Font bold = Font.font("SansSerif", FontWeight.BOLD, 12);

        // header: the two sides
        g.setFill(Color.web("#f2f2f2"));
        g.fillRect(0, 0, w, HEADER);
        g.setFill(Color.BLACK);
        g.setFont(bold);
        g.setTextAlign(TextAlignment.CENTER);
        g.setTextBaseline(VPos.CENTER);
        double room = (xb - xa) - 10;
        boolean lanes = !d.lanes().isEmpty();
        double sidesY = lanes ? HEADER * 0.28 : HEADER / 2;
        g.fillText(d.sideA(), xa, sidesY, room);
        g.fillText(d.sideB(), Math.min(xb, w - room / 2 - 4), sidesY, room);
        g.setTextAlign(TextAlignment.LEFT);
        g.fillText("Time (s)   #", 6, HEADER / 2);
        if (lanes) {
            paintLaneTitles(g, d.lanes(), font);
        }

        int first = (int) Math.floor(scroll.getValue() / rowH);
        int last = Math.min(d.arrows().size() - 1, (int) Math.ceil((scroll.getValue() + h - HEADER) / rowH));
        java.util.Set<Integer> selected = new java.util.HashSet<>(vm.selection().frames().get());
        g.save();
        g.beginPath();
        g.rect(0, HEADER, w, h - HEADER);
        g.clip();
        // lifelines
        g.setStroke(LIFELINE);
        g.setLineWidth(2);
        g.setLineDashes();
        if (lanes) {
            for (int lane = 0; lane < d.lanes().size(); lane++) {
                g.strokeLine(laneX(lane), HEADER, laneX(lane), h);
            }
        } else {
            g.strokeLine(xa, HEADER, xa, h);
            g.strokeLine(xb, HEADER, xb, h);
        }
        long longest = d.longestPathNanos();
        for (int row = Math.max(0, first); row <= last; row++) {
            Arrow a = d.arrows().get(row);
            double top = HEADER + row * rowH - scroll.getValue();
            if (selected.contains(a.frame())) {
                g.setFill(SELECTED_ROW);
                g.fillRect(0, top, w, rowH);
                if (lanes) { // the lanes run through the highlight
                    g.setStroke(LIFELINE);
                    g.setLineWidth(2);
                    for (int lane = 0; lane < d.lanes().size(); lane++) {
                        g.strokeLine(laneX(lane), top, laneX(lane), top + rowH);
                    }
                }
            }
            if (lanes && !a.path().isEmpty()) {
                drawPath(g, a, top, rowH, longest, xa, xb, font);
            } else {
                drawArrow(g, a, top, rowH, xa, xb, font);
            }
            painted.add(a);
        }
        g.restore();
        g.setStroke(LIFELINE);
        g.setLineWidth(1);
        g.strokeLine(0, HEADER, w, HEADER);
    }

    /** Each lane's point name over its lifeline, on the point's colour. */
    private void paintLaneTitles(GraphicsContext g, List<Lane> lanes, Font font) {
        g.setFont(font);
        g.setTextAlign(TextAlignment.CENTER);
        g.setTextBaseline(VPos.CENTER);
        double spacing = lanes.size() < 2 ? 200 : laneX(1) - laneX(0);
        for (int lane = 0; lane < lanes.size(); lane++) {
            Lane l = lanes.get(lane);
            double x = laneX(lane);
            double width = Math.min(spacing - 8, Math.max(40, l.point().length() * 7.5 + 12));
            g.setFill(Color.web(VantagePalette.background(l.pointIndex())));
            g.fillRoundRect(x - width / 2, HEADER * 0.56, width, HEADER * 0.36, 6, 6);
            g.setFill(Color.web(VantagePalette.TEXT));
            g.fillText(l.point(), x, HEADER * 0.74, width - 4);
        }
    }

    /**
     * A packet through the lanes that saw it: one segment per hop, each dropping by its one-way delay (the
     * conversation's longest first-to-last sighting spans the row's slant room), a dot in the point's colour
     * at each sighting, the head at the last; past it a ✕ when it never reached the next lane.
     */
    private void drawPath(GraphicsContext g, Arrow a, double top, double rowH, long longest, double xa, double xb,
                          Font font) {
        double mid = top + rowH * 0.62;
        Color colour = strokeFor(g, a, mid, rowH, font);
        List<Stop> path = a.path();
        List<Lane> lanes = vm.diagram().get().lanes();
        double[] xs = new double[path.size()];
        double[] ys = new double[path.size()];
        for (int i = 0; i < path.size(); i++) {
            xs[i] = laneX(path.get(i).lane());
            ys[i] = stopY(mid, rowH, path.get(i).afterFirstNanos(), longest);
        }
        double spacing = laneX(1) - laneX(0);
        double way = a.fromA() ? 1 : -1;
        double endX = xs[xs.length - 1];
        double endY = ys[ys.length - 1];
        if (path.size() == 1 && !a.stopsShort()) {
            // seen at one lane only, the last on its way: a stub coming in from where it was sent
            g.strokeLine(endX - way * spacing * 0.3, endY, endX, endY);
        }
        for (int i = 1; i < path.size(); i++) {
            g.strokeLine(xs[i - 1], ys[i - 1], xs[i], ys[i]);
        }
        g.setLineDashes();
        if (a.stopsShort()) {
            double lx = endX + way * spacing * 0.4;
            double ly = endY + Math.min(4, rowH * 0.1);
            g.setLineDashes(3, 3);
            g.strokeLine(endX, endY, lx, ly);
            g.setLineDashes();
            double s = Math.min(6, rowH * 0.25);
            g.strokeLine(lx - s, ly - s, lx + s, ly + s);
            g.strokeLine(lx - s, ly + s, lx + s, ly - s);
        } else if (path.size() > 1) {
            arrowHead(g, colour, xs[xs.length - 2], ys[ys.length - 2], endX, endY, rowH);
        } else {
            arrowHead(g, colour, endX - way * spacing * 0.3, endY, endX, endY, rowH);
        }
        double r = Math.max(2.5, Math.min(5, rowH * 0.16));
        for (int i = 0; i < path.size(); i++) {
            g.setFill(Color.web(VantagePalette.background(lanes.get(path.get(i).lane()).pointIndex())));
            g.fillOval(xs[i] - r, ys[i] - r, 2 * r, 2 * r);
            g.setStroke(colour);
            g.setLineWidth(1);
            g.strokeOval(xs[i] - r, ys[i] - r, 2 * r, 2 * r);
        }
        drawLabel(g, a, colour, (xa + xb) / 2, stopY(mid, rowH, 0, longest == 0 ? 1 : longest) - 1, rowH);
    }

    /**
     * Writes arrow {@code a}'s time and frame number in the left column at {@code mid} and sets the stroke
     * for it (its kind's colour, red for a retransmission; width; dashes); returns the colour.
     */
    private static Color strokeFor(GraphicsContext g, Arrow a, double mid, double rowH, Font font) {
        Color colour = a.is(Mark.RETRANSMISSION) ? RETRANSMISSION : COLOURS.get(a.kind());
        g.setFont(font);
        g.setFill(Color.web("#404040"));
        g.setTextAlign(TextAlignment.LEFT);
        g.setTextBaseline(VPos.CENTER);
        g.fillText(a.timeLabel() + "  " + a.frame(), 6, mid);

        g.setStroke(colour);
        g.setLineCap(StrokeLineCap.ROUND);
        g.setLineWidth(a.kind() == Kind.NAK || a.kind() == Kind.RNR_NAK || a.is(Mark.RETRANSMISSION) ? 2.4 : 1.5);
        if (a.is(Mark.RETRANSMISSION)) {
            g.setLineDashes(7, 4);
        } else if (a.is(Mark.DUPLICATE)) {
            g.setLineDashes(2, 3);
        } else if (a.kind() == Kind.CNP) {
            g.setLineDashes(5, 2, 1, 2);
        } else {
            g.setLineDashes();
        }
        return colour;
    }

    /** A filled head at (x1, y1) on the line from (x0, y0). */
    private static void arrowHead(GraphicsContext g, Color colour, double x0, double y0, double x1, double y1,
                                  double rowH) {
        double angle = Math.atan2(y1 - y0, x1 - x0);
        double len = Math.min(10, Math.max(5, rowH * 0.35));
        g.setFill(colour);
        g.fillPolygon(new double[]{x1, x1 - len * Math.cos(angle - 0.4), x1 - len * Math.cos(angle + 0.4)},
                new double[]{y1, y1 - len * Math.sin(angle - 0.4), y1 - len * Math.sin(angle + 0.4)}, 3);
    }

    /** The arrow's label with its marks, centred at x with its bottom at y (rows too low for text get none). */
    private static void drawLabel(GraphicsContext g, Arrow a, Color colour, double x, double y, double rowH) {
        g.setFill(colour);
        g.setTextAlign(TextAlignment.CENTER);
        g.setTextBaseline(VPos.BOTTOM);
        String label = a.is(Mark.RETRANSMISSION) ? "↻ " + a.label() + "  [retransmission]"
                : a.is(Mark.DUPLICATE) ? a.label() + "  [duplicate]" : a.label();
        if (a.is(Mark.BAD_CRC)) {
            label += "  [bad CRC]";
        }
        if (a.is(Mark.ECN_CE)) {
            label += "  [ECN CE]";
        }
        if (a.is(Mark.TIMEOUT)) {
            label += "  [after ACK timeout]";
        }
        if (rowH >= 14) {
            g.fillText(label, x, y);
        }
    }

    private void drawArrow(GraphicsContext g, Arrow a, double top, double rowH, double xa, double xb, Font font) {
        // the arrow sits in the lower part of its row, its label above it
        double mid = top + rowH * 0.62;
        double slant = Math.min(6, rowH * 0.15);
        double x0 = a.fromA() ? xa : xb;
        double x1 = a.fromA() ? xb : xa;
        double y0 = mid - slant;
        double y1 = mid + slant;
        boolean lost = a.is(Mark.LOST);
        if (lost) {
            // lost after the capture point: the arrow stops short of the far side
            x1 = x0 + (x1 - x0) * 0.7;
            y1 = mid + slant * 0.4;
        }
        Color colour = strokeFor(g, a, mid, rowH, font);
        g.strokeLine(x0, y0, x1, y1);
        g.setLineDashes();
        if (a.is(Mark.GAP)) {
            // packets before this one never reached the capture point: a gap mark on the sender's lifeline
            g.setFill(RETRANSMISSION);
            g.setFont(font);
            g.setTextAlign(a.fromA() ? TextAlignment.RIGHT : TextAlignment.LEFT);
            g.setTextBaseline(VPos.CENTER);
            g.fillText(a.fromA() ? "gap ⋯" : "⋯ gap", x0 + (a.fromA() ? -4 : 4), y0);
        }
        if (lost) {
            double s = Math.min(6, rowH * 0.25);
            g.strokeLine(x1 - s, y1 - s, x1 + s, y1 + s);
            g.strokeLine(x1 - s, y1 + s, x1 + s, y1 - s);
        } else {
            arrowHead(g, colour, x0, y0, x1, y1, rowH);
        }
        // label above the arrow's middle
        drawLabel(g, a, colour, (xa + xb) / 2, mid - slant * 0.2 - 1, rowH);
    }
}
