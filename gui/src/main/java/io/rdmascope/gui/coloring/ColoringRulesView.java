package io.rdmascope.gui.coloring;

import io.rdmascope.gui.model.ColoringRule;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ColorPicker;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.paint.Color;
import javafx.stage.Window;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The colouring-rules editor: the rules in priority order with their filter (red when it does not
 * compile), colours and on/off switch; add, remove, reorder, back to the defaults. Shown in a
 * dialog; OK puts the rules in force.
 */
public final class ColoringRulesView extends BorderPane {
    private final ColoringRulesViewModel vm;
    private final TableView<ColoringRule> table = new TableView<>();

    public ColoringRulesView(ColoringRulesViewModel vm) {
        this.vm = vm;
        table.setId("coloringTable");
        table.setEditable(true);
        table.setItems(vm.rules());
        table.setPrefSize(820, 380);

        TableColumn<ColoringRule, ColoringRule> on = column("On", 40, r -> r);
        on.setCellFactory(c -> new TableCell<>() {
            private final CheckBox box = new CheckBox();

            {
                box.setOnAction(e -> vm.toggle(getIndex()));
            }

            @Override
            protected void updateItem(ColoringRule r, boolean empty) {
                super.updateItem(r, empty);
                if (empty || r == null) {
                    setGraphic(null);
                } else {
                    box.setSelected(r.enabled());
                    setGraphic(box);
                }
            }
        });
        TableColumn<ColoringRule, ColoringRule> name = column("Name", 150, r -> r);
        name.setCellFactory(c -> new TextEditCell(ColoringRule::name,
                (r, t) -> new ColoringRule(t, r.filter(), r.background(), r.foreground(), r.enabled()), false));
        TableColumn<ColoringRule, ColoringRule> filter = column("Filter", 380, r -> r);
        filter.setCellFactory(c -> new TextEditCell(ColoringRule::filter,
                (r, t) -> new ColoringRule(r.name(), t, r.background(), r.foreground(), r.enabled()), true));
        TableColumn<ColoringRule, ColoringRule> bg = column("Background", 110, r -> r);
        bg.setCellFactory(c -> new ColourCell(true));
        TableColumn<ColoringRule, ColoringRule> fg = column("Text", 110, r -> r);
        fg.setCellFactory(c -> new ColourCell(false));
        table.getColumns().addAll(List.of(on, name, filter, bg, fg));

        Button add = new Button("Add");
        add.setOnAction(e -> {
            vm.add();
            table.getSelectionModel().selectLast();
        });
        Button remove = new Button("Remove");
        remove.setOnAction(e -> vm.remove(table.getSelectionModel().getSelectedIndex()));
        Button up = new Button("Up");
        up.setOnAction(e -> {
            int i = table.getSelectionModel().getSelectedIndex();
            vm.moveUp(i);
            table.getSelectionModel().select(Math.max(0, i - 1));
        });
        Button down = new Button("Down");
        down.setOnAction(e -> {
            int i = table.getSelectionModel().getSelectedIndex();
            vm.moveDown(i);
            table.getSelectionModel().select(Math.min(vm.rules().size() - 1, i + 1));
        });
        Button defaults = new Button("Defaults");
        defaults.setOnAction(e -> vm.resetToDefaults());
        HBox buttons = new HBox(6, add, remove, up, down, defaults,
                new Label("The first enabled rule that matches a frame colours it."));
        buttons.setPadding(new Insets(6, 0, 0, 0));
        setCenter(table);
        setBottom(buttons);
    }

    /** Shows the editor in a dialog; OK applies the rules, Cancel restores {@code inForce}. */
    public static void showDialog(ColoringRulesViewModel vm, List<ColoringRule> inForce, Window owner) {
        Dialog<ButtonType> dialog = new Dialog<>();
        dialog.initOwner(owner);
        dialog.setTitle("Colouring rules");
        dialog.setResizable(true);
        dialog.getDialogPane().setContent(new ColoringRulesView(vm));
        dialog.getDialogPane().getButtonTypes().addAll(ButtonType.OK, ButtonType.CANCEL);
        dialog.showAndWait().ifPresentOrElse(b -> {
            if (b == ButtonType.OK) {
                vm.apply();
            } else {
                vm.revert(inForce);
            }
        }, () -> vm.revert(inForce));
    }

    private static <T> TableColumn<ColoringRule, T> column(String title, double width, Function<ColoringRule, T> v) {
        TableColumn<ColoringRule, T> c = new TableColumn<>(title);
        c.setPrefWidth(width);
        c.setSortable(false);
        c.setCellValueFactory(f -> new ReadOnlyObjectWrapper<>(v.apply(f.getValue())));
        return c;
    }

    private static String hex(Color c) {
        return String.format(Locale.ROOT, "#%02x%02x%02x", Math.round(c.getRed() * 255), Math.round(c.getGreen() * 255),
                Math.round(c.getBlue() * 255));
    }

    /** A text cell edited in place; the filter cell turns red with the error as tooltip when it does not compile. */
    private final class TextEditCell extends TableCell<ColoringRule, ColoringRule> {
        private final Function<ColoringRule, String> get;
        private final java.util.function.BiFunction<ColoringRule, String, ColoringRule> set;
        private final boolean isFilter;
        private final TextField field = new TextField();

        TextEditCell(Function<ColoringRule, String> get,
                     java.util.function.BiFunction<ColoringRule, String, ColoringRule> set, boolean isFilter) {
            this.get = get;
            this.set = set;
            this.isFilter = isFilter;
            field.setOnAction(e -> commit());
            field.focusedProperty().addListener((o, was, now) -> {
                if (!now) {
                    commit();
                }
            });
        }

        private void commit() {
            ColoringRule r = getItem();
            if (r != null && !field.getText().equals(get.apply(r))) {
                vm.replace(getIndex(), set.apply(r, field.getText()));
            }
        }

        @Override
        protected void updateItem(ColoringRule r, boolean empty) {
            super.updateItem(r, empty);
            if (empty || r == null) {
                setGraphic(null);
                return;
            }
            field.setText(get.apply(r));
            if (isFilter) {
                String error = vm.errorOf(r);
                field.setStyle(error.isEmpty() ? "-fx-control-inner-background: #afffaf;"
                        : "-fx-control-inner-background: #ffafaf;");
                field.setTooltip(error.isEmpty() ? null : new Tooltip(error));
            }
            setGraphic(field);
        }
    }

    /** A colour picker cell for a rule's background or text colour. */
    private final class ColourCell extends TableCell<ColoringRule, ColoringRule> {
        private final boolean background;
        private final ColorPicker picker = new ColorPicker();

        ColourCell(boolean background) {
            this.background = background;
            picker.setOnAction(e -> {
                ColoringRule r = getItem();
                if (r == null) {
                    return;
                }
                String c = hex(picker.getValue());
                vm.replace(getIndex(), background
                        ? new ColoringRule(r.name(), r.filter(), c, r.foreground(), r.enabled())
                        : new ColoringRule(r.name(), r.filter(), r.background(), c, r.enabled()));
            });
        }

        @Override
        protected void updateItem(ColoringRule r, boolean empty) {
            super.updateItem(r, empty);
            if (empty || r == null) {
                setGraphic(null);
                return;
            }
            try {
                picker.setValue(Color.web(background ? r.background() : r.foreground()));
            } catch (IllegalArgumentException e) {
                picker.setValue(Color.WHITE);
            }
            setGraphic(picker);
        }
    }
}
