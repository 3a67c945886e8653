package io.rdmascope.gui.follow;

import javafx.geometry.Insets;
import javafx.geometry.Orientation;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TextArea;
import javafx.scene.layout.BorderPane;

import java.util.function.IntConsumer;

/**
 * The Follow window: the conversation's messages in capture order (direction, operation, PSN
 * range, length, frames, status) and, under them, the selected message's data as hex and ASCII.
 * A double click on a message selects its first frame in the main window.
 */
public final class FollowView extends BorderPane {
    private final ListView<FollowViewModel.Item> messages = new ListView<>();
    private final TextArea data = new TextArea();

    public FollowView(FollowViewModel.Stream stream, IntConsumer selectFrame) {
        setId("followView");
        Label title = new Label(stream.title() + String.format(java.util.Locale.ROOT, " — %d messages, %,d bytes",
                stream.items().size(), stream.items().stream().mapToLong(FollowViewModel.Item::length).sum()));
        title.setPadding(new Insets(4, 6, 4, 6));
        messages.setId("followMessages");
        messages.getItems().setAll(stream.items());
        messages.setCellFactory(l -> new ListCell<>() {
            {
                getStyleClass().add("follow-data");
            }

            @Override
            protected void updateItem(FollowViewModel.Item item, boolean empty) {
                super.updateItem(item, empty);
                setText(empty || item == null ? null : item.line());
            }
        });
        messages.setOnMouseClicked(e -> {
            FollowViewModel.Item item = messages.getSelectionModel().getSelectedItem();
            if (e.getClickCount() == 2 && item != null) {
                selectFrame.accept(FollowViewModel.firstFrame(item.message()));
            }
        });
        data.setId("followData");
        data.getStyleClass().add("follow-data");
        data.setEditable(false);
        messages.getSelectionModel().selectedItemProperty().addListener((o, was, now) -> data.setText(now == null ? ""
                : now.data().length == 0 ? "(no data: " + now.operation() + " carries none in its packets)"
                : FollowViewModel.hexDump(now.data())));
        if (!stream.items().isEmpty()) {
            messages.getSelectionModel().select(0);
        }
        SplitPane split = new SplitPane(messages, data);
        split.setOrientation(Orientation.VERTICAL);
        split.setDividerPositions(0.45);
        setTop(title);
        setCenter(split);
    }

    public ListView<FollowViewModel.Item> messages() {
        return messages;
    }

    public TextArea data() {
        return data;
    }
}
