package io.rdmascope.gui.main;

import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.RadioButton;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleGroup;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;

import java.io.File;
import java.nio.file.Path;
import java.util.Locale;

/**
 * File → Export Specified Packets: which frames (all captured, displayed, marked, or a range such
 * as "1-10,15") and where, written as pcapng. The counts beside each choice are Wireshark's
 * "Captured" column.
 */
final class ExportPacketsView extends VBox {
    private final TextField path = new TextField();
    private final TextField range = new TextField();
    private final Label message = new Label();
    private final ToggleGroup scope = new ToggleGroup();

    ExportPacketsView(MainViewModel vm, Runnable close) {
        super(8);
        setId("exportPackets");
        setPadding(new Insets(10));
        RadioButton all = radio("All packets (" + count(vm, MainViewModel.ExportScope.ALL) + ")", MainViewModel.ExportScope.ALL);
        RadioButton displayed = radio("Displayed (" + count(vm, MainViewModel.ExportScope.DISPLAYED) + ")",
                MainViewModel.ExportScope.DISPLAYED);
        RadioButton marked = radio("Marked packets (" + count(vm, MainViewModel.ExportScope.MARKED) + ")",
                MainViewModel.ExportScope.MARKED);
        RadioButton ranged = radio("Range:", MainViewModel.ExportScope.RANGE);
        displayed.setSelected(true);
        range.setId("exportRange");
        range.setPromptText("1-10,15,20-");
        range.disableProperty().bind(ranged.selectedProperty().not());
        HBox rangeRow = new HBox(6, ranged, range);
        rangeRow.setAlignment(Pos.CENTER_LEFT);
        path.setId("exportPath");
        path.setPromptText("file.pcapng");
        HBox.setHgrow(path, Priority.ALWAYS);
        Button browse = new Button("Browse…");
        browse.setOnAction(e -> {
            FileChooser c = new FileChooser();
            c.setTitle("Export Specified Packets");
            c.getExtensionFilters().add(new FileChooser.ExtensionFilter("pcapng", "*.pcapng"));
            File f = c.showSaveDialog(getScene().getWindow());
            if (f != null) {
                path.setText(f.getPath());
            }
        });
        HBox fileRow = new HBox(6, new Label("File:"), path, browse);
        fileRow.setAlignment(Pos.CENTER_LEFT);
        message.setId("exportMessage");
        Button export = new Button("Export");
        export.setId("exportButton");
        export.setDefaultButton(true);
        export.setOnAction(e -> export(vm, close));
        Button cancel = new Button("Cancel");
        cancel.setCancelButton(true);
        cancel.setOnAction(e -> close.run());
        HBox buttons = new HBox(6, export, cancel, message);
        buttons.setAlignment(Pos.CENTER_LEFT);
        getChildren().addAll(new Label("Packet range (written as pcapng):"), all, displayed, marked, rangeRow, fileRow, buttons);
    }

    private RadioButton radio(String text, MainViewModel.ExportScope s) {
        RadioButton b = new RadioButton(text);
        b.setId("export" + s.name());
        b.setUserData(s);
        b.setToggleGroup(scope);
        return b;
    }

    private static String count(MainViewModel vm, MainViewModel.ExportScope s) {
        return String.format(Locale.ROOT, "%,d", vm.framesFor(s, "").length);
    }

    private void export(MainViewModel vm, Runnable close) {
        String p = path.getText().trim();
        if (p.isEmpty()) {
            message.setText("Choose a file");
            return;
        }
        int[] frames;
        try {
            frames = vm.framesFor((MainViewModel.ExportScope) scope.getSelectedToggle().getUserData(), range.getText());
        } catch (IllegalArgumentException e) {
            message.setText(e.getMessage());
            return;
        }
        message.setText("Writing…");
        vm.exportPackets(Path.of(p), frames, (n, e) -> {
            if (e != null) {
                message.setText("Could not export: " + e.getMessage());
            } else {
                close.run();
            }
        });
    }
}
