package io.rdmascope.gui.live;

import io.rdmascope.capture.live.CaptureInterface;
import io.rdmascope.gui.util.Tables;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/**
 * Live capture: choose an interface (RDMA sniffer devices such as {@code mlx5_0} where libpcap has
 * them), a capture filter, Start and Stop; the counts of captured and dropped frames update while it
 * runs. The frames go to the main window's packet list.
 */
public final class LiveCaptureView extends BorderPane {
    private final LiveCaptureViewModel vm;
    private final TableView<CaptureInterface> table = new TableView<>();
    private boolean listed;

    public LiveCaptureView(LiveCaptureViewModel vm) {
        this.vm = vm;
        setId("liveCaptureView");
        table.setId("interfacesTable");
        table.setPlaceholder(new Label("No interfaces listed (Refresh)"));
        table.getColumns().addAll(java.util.List.of(
                Tables.text("Interface", 110, CaptureInterface::name),
                Tables.text("Description", 180, i -> i.description() == null ? "" : i.description()),
                Tables.text("Addresses", 220, i -> String.join(", ", i.addresses())),
                Tables.text("State", 120, i -> (i.up() ? "up" : "down") + (i.running() ? ", running" : "")
                        + (i.loopback() ? ", loopback" : ""))));
        table.setItems(vm.interfaces());
        table.getSelectionModel().selectedItemProperty().addListener((o, was, now) -> {
            if (now != null) {
                vm.interfaceName().set(now.name());
            }
        });

        TextField iface = new TextField();
        iface.setId("liveInterface");
        iface.textProperty().bindBidirectional(vm.interfaceName());
        TextField filter = new TextField();
        filter.setId("liveFilter");
        filter.setPromptText("capture filter (libpcap syntax), blank for everything");
        filter.textProperty().bindBidirectional(vm.captureFilter());
        GridPane form = new GridPane();
        form.setHgap(6);
        form.setVgap(4);
        form.addRow(0, new Label("Interface:"), iface);
        form.addRow(1, new Label("Capture filter:"), filter);
        GridPane.setHgrow(filter, Priority.ALWAYS);
        GridPane.setHgrow(iface, Priority.ALWAYS);

        Button refresh = new Button("Refresh");
        refresh.setOnAction(e -> vm.refresh());
        Button start = new Button("Start");
        start.setId("liveStart");
        start.setOnAction(e -> vm.start());
        start.disableProperty().bind(vm.capturing());
        Button stop = new Button("Stop");
        stop.setId("liveStop");
        stop.setOnAction(e -> vm.stop());
        stop.disableProperty().bind(vm.capturing().not());
        HBox buttons = new HBox(6, refresh, start, stop);
        buttons.setAlignment(Pos.CENTER_LEFT);

        Label problem = new Label();
        problem.setId("liveProblem");
        problem.setWrapText(true);
        problem.setStyle("-fx-text-fill: #b00000;");
        problem.textProperty().bind(vm.problem());
        Label stats = new Label();
        stats.setId("liveStatistics");
        stats.setWrapText(true);
        stats.textProperty().bind(vm.statistics());
        Label hint = new Label("Capturing needs CAP_NET_RAW and CAP_NET_ADMIN (or root). RDMA traffic that bypasses "
                + "the kernel is seen on RDMA sniffer devices (mlx5_0, …) when libpcap was built with rdma-core, "
                + "or with ibdump / a mirror port.");
        hint.setWrapText(true);
        hint.setStyle("-fx-text-fill: #606060;");

        VBox bottom = new VBox(6, form, buttons, problem, stats, hint);
        bottom.setPadding(new Insets(6));
        setCenter(table);
        setBottom(bottom);
    }

    /** Lists the interfaces the first time the view is shown (libpcap is loaded only then). */
    public void shown() {
        if (!listed) {
            listed = true;
            vm.refresh();
        }
    }
}
