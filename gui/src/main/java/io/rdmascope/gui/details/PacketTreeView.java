package io.rdmascope.gui.details;

import io.rdmascope.text.ProtoTree;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.MenuItem;
import javafx.scene.control.SeparatorMenuItem;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeView;
import javafx.scene.input.Clipboard;
import javafx.scene.input.ClipboardContent;
import javafx.scene.layout.BorderPane;

import java.util.List;
import java.util.function.Consumer;

/**
 * The detail tree of the selected frame ({@link ProtoTree}), with Wireshark's context menu: apply
 * or prepare the selected field as a display filter, add it as a packet-list column, copy it.
 */
public final class PacketTreeView extends BorderPane {
    private final PacketDetailsViewModel vm;
    private final TreeView<ProtoTree> tree = new TreeView<>();
    private boolean syncing;
    private Consumer<String> onApplyFilter = f -> { };
    private Consumer<String> onPrepareFilter = f -> { };
    private Consumer<String> onPrepareAnd = f -> { };
    private Consumer<ProtoTree> onApplyColumn = n -> { };

    public PacketTreeView(PacketDetailsViewModel vm) {
        this.vm = vm;
        getStyleClass().add("packet-tree");
        tree.setId("packetTree");
        tree.setShowRoot(false);
        tree.setRoot(new TreeItem<>());
        tree.setCellFactory(t -> new javafx.scene.control.TreeCell<>() {
            @Override
            protected void updateItem(ProtoTree item, boolean empty) {
                super.updateItem(item, empty);
                setText(empty || item == null ? null : item.label());
                // a frame link of the analysis node looks like one, as Wireshark's "[Response in: 12]"
                setUnderline(!empty && vm.linkOf(item) > 0);
            }
        });
        tree.setOnMouseClicked(e -> {
            if (e.getClickCount() == 2 && e.getButton() == javafx.scene.input.MouseButton.PRIMARY) {
                vm.followLink(selected());
            }
        });
        vm.tree().addListener((o, was, now) -> rebuild(now));
        vm.selectedNode().addListener((o, was, now) -> showSelected(now));
        tree.getSelectionModel().selectedItemProperty().addListener((o, was, now) -> {
            if (!syncing) {
                syncing = true;
                try {
                    vm.selectNode(now == null ? null : now.getValue());
                } finally {
                    syncing = false;
                }
            }
        });
        tree.setContextMenu(contextMenu());
        setCenter(tree);
    }

    public TreeView<ProtoTree> tree() {
        return tree;
    }

    /** Wires the context menu's filter and column actions (the main view connects them to the filter bar and list). */
    public void setActions(Consumer<String> applyFilter, Consumer<String> prepareFilter, Consumer<String> prepareAnd,
                           Consumer<ProtoTree> applyColumn) {
        this.onApplyFilter = applyFilter;
        this.onPrepareFilter = prepareFilter;
        this.onPrepareAnd = prepareAnd;
        this.onApplyColumn = applyColumn;
    }

    private ContextMenu contextMenu() {
        MenuItem apply = new MenuItem("Apply as Filter");
        apply.setOnAction(e -> onApplyFilter.accept(vm.filterFor(selected())));
        MenuItem prepare = new MenuItem("Prepare as Filter");
        prepare.setOnAction(e -> onPrepareFilter.accept(vm.filterFor(selected())));
        MenuItem prepareAnd = new MenuItem("Prepare as Filter … and Selected");
        prepareAnd.setOnAction(e -> onPrepareAnd.accept(vm.filterFor(selected())));
        MenuItem column = new MenuItem("Apply as Column");
        column.setOnAction(e -> onApplyColumn.accept(selected()));
        MenuItem copyLine = new MenuItem("Copy Line");
        copyLine.setOnAction(e -> copy(selected() == null ? "" : selected().label()));
        MenuItem copyFilter = new MenuItem("Copy as Filter");
        copyFilter.setOnAction(e -> copy(vm.filterFor(selected())));
        MenuItem expandAll = new MenuItem("Expand All");
        expandAll.setOnAction(e -> setAllExpanded(tree.getRoot(), true));
        MenuItem collapseAll = new MenuItem("Collapse All");
        collapseAll.setOnAction(e -> setAllExpanded(tree.getRoot(), false));
        ContextMenu menu = new ContextMenu(apply, prepare, prepareAnd, column, new SeparatorMenuItem(), copyLine,
                copyFilter, new SeparatorMenuItem(), expandAll, collapseAll);
        menu.setOnShowing(e -> {
            boolean none = selected() == null;
            apply.setDisable(none);
            prepare.setDisable(none);
            prepareAnd.setDisable(none);
            column.setDisable(none || vm.columnFieldFor(selected()) == null);
            copyFilter.setDisable(none);
        });
        return menu;
    }

    private ProtoTree selected() {
        TreeItem<ProtoTree> item = tree.getSelectionModel().getSelectedItem();
        return item == null ? null : item.getValue();
    }

    private static void copy(String text) {
        ClipboardContent c = new ClipboardContent();
        c.putString(text);
        Clipboard.getSystemClipboard().setContent(c);
    }

    private void setAllExpanded(TreeItem<ProtoTree> item, boolean open) {
        for (TreeItem<ProtoTree> c : item.getChildren()) {
            if (!c.isLeaf()) {
                c.setExpanded(open);
                setAllExpanded(c, open);
            }
        }
    }

    private void rebuild(List<ProtoTree> roots) {
        syncing = true;
        try {
            TreeItem<ProtoTree> root = new TreeItem<>();
            for (ProtoTree r : roots) {
                root.getChildren().add(item(r));
            }
            tree.setRoot(root);
            showSelected(vm.selectedNode().get());
        } finally {
            syncing = false;
        }
    }

    private TreeItem<ProtoTree> item(ProtoTree node) {
        TreeItem<ProtoTree> item = new TreeItem<>(node);
        for (ProtoTree c : node.children()) {
            item.getChildren().add(item(c));
        }
        if (!node.children().isEmpty()) {
            item.setExpanded(vm.isExpanded(node));
            item.expandedProperty().addListener((o, was, now) -> vm.setExpanded(node, now));
        }
        return item;
    }

    private void showSelected(ProtoTree node) {
        boolean wasSyncing = syncing;
        syncing = true;
        try {
            if (node == null) {
                tree.getSelectionModel().clearSelection();
                return;
            }
            if (selected() == node) {
                return;
            }
            TreeItem<ProtoTree> item = tree.getRoot();
            for (ProtoTree step : vm.pathTo(node)) {
                TreeItem<ProtoTree> next = null;
                for (TreeItem<ProtoTree> c : item.getChildren()) {
                    if (c.getValue() == step) {
                        next = c;
                        break;
                    }
                }
                if (next == null) {
                    return;
                }
                if (next.getValue() != node) {
                    next.setExpanded(true);
                }
                item = next;
            }
            if (item != tree.getRoot()) {
                tree.getSelectionModel().select(item);
                int row = tree.getRow(item);
                if (row >= 0) {
                    tree.scrollTo(Math.max(0, row - 2));
                }
            }
        } finally {
            syncing = wasSyncing;
        }
    }
}
