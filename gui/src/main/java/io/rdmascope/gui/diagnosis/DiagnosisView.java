package io.rdmascope.gui.diagnosis;

import io.rdmascope.gui.diagnosis.DiagnosisViewModel.Line;
import io.rdmascope.gui.diagnosis.DiagnosisViewModel.Part;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.MenuItem;
import javafx.scene.input.Clipboard;
import javafx.scene.input.ClipboardContent;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.text.Text;
import javafx.scene.text.TextFlow;

import java.util.ArrayList;
import java.util.List;

/**
 * The Diagnosis pane under the conversations table: the selected conversation's account, one line
 * each (label, then the text, wrapped), every "frame N" a link that selects the frame.
 */
public final class DiagnosisView extends BorderPane {
    private static final double LABEL_WIDTH = 72;

    private final DiagnosisViewModel vm;
    private final ListView<Line> list = new ListView<>();

    public DiagnosisView(DiagnosisViewModel vm) {
        this.vm = vm;
        setId("diagnosisView");
        getStyleClass().add("diagnosis");
        list.setId("diagnosisLines");
        list.setItems(vm.lines());
        Label placeholder = new Label();
        placeholder.textProperty().bind(vm.placeholder());
        list.setPlaceholder(placeholder);
        list.setCellFactory(l -> new LineCell());

        MenuItem copy = new MenuItem("Copy Account");
        copy.setOnAction(e -> {
            ClipboardContent c = new ClipboardContent();
            c.putString(vm.text());
            Clipboard.getSystemClipboard().setContent(c);
        });
        list.setContextMenu(new ContextMenu(copy));

        Label title = new Label("Diagnosis");
        title.getStyleClass().add("diagnosis-title");
        title.setPadding(new Insets(3, 6, 3, 6));
        setTop(title);
        setCenter(list);
    }

    public ListView<Line> list() {
        return list;
    }

    /** The frame links of the lines on screen, in order (for tests). */
    public List<Hyperlink> links() {
        List<Hyperlink> out = new ArrayList<>();
        for (Node n : list.lookupAll(".diagnosis-link")) {
            if (n instanceof Hyperlink h && h.isVisible()) {
                out.add(h);
            }
        }
        return out;
    }

    /** A line: its label in a fixed column, its text wrapping beside it. */
    private final class LineCell extends ListCell<Line> {
        private final Label label = new Label();
        private final TextFlow flow = new TextFlow();
        private final HBox box = new HBox(6, label, flow);

        LineCell() {
            label.setMinWidth(LABEL_WIDTH);
            label.setPrefWidth(LABEL_WIDTH);
            label.getStyleClass().add("diagnosis-label");
            flow.getStyleClass().add("diagnosis-flow");
            box.setAlignment(Pos.TOP_LEFT);
            // wrap at the list's width (less the label, the padding and a scroll bar) rather than scroll sideways
            flow.prefWidthProperty().bind(list.widthProperty().subtract(LABEL_WIDTH + 40));
            flow.maxWidthProperty().bind(flow.prefWidthProperty());
            setPrefWidth(0);
        }

        @Override
        protected void updateItem(Line line, boolean empty) {
            super.updateItem(line, empty);
            getStyleClass().removeIf(c -> c.startsWith("diagnosis-kind-"));
            label.getStyleClass().removeIf(c -> c.startsWith("severity-"));
            if (empty || line == null) {
                setGraphic(null);
                return;
            }
            label.setText(line.label());
            boolean labelled = line.kind() != DiagnosisViewModel.Kind.HEADER
                    && line.kind() != DiagnosisViewModel.Kind.QUIET;
            label.setVisible(labelled);
            label.setManaged(labelled);
            List<Node> nodes = new ArrayList<>();
            for (Part p : line.parts()) {
                if (p.isLink()) {
                    Hyperlink link = new Hyperlink(p.text());
                    link.getStyleClass().add("diagnosis-link");
                    link.setUserData(p.frame());
                    link.setOnAction(e -> {
                        vm.choose(p.frame());
                        link.setVisited(false);
                    });
                    nodes.add(link);
                } else {
                    Text t = new Text(p.text());
                    t.getStyleClass().add("diagnosis-text");
                    nodes.add(t);
                }
            }
            flow.getChildren().setAll(nodes);
            getStyleClass().add("diagnosis-kind-" + line.kind().name().toLowerCase(java.util.Locale.ROOT));
            if (line.kind() == DiagnosisViewModel.Kind.FIRST && line.severity() != null) {
                label.getStyleClass().add("severity-" + line.severity());
            }
            setGraphic(box);
        }
    }
}
