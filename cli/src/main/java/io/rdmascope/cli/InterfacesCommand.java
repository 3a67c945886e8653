package io.rdmascope.cli;

import io.rdmascope.capture.live.CaptureAccess;
import io.rdmascope.capture.live.CaptureInterface;
import io.rdmascope.capture.live.CaptureInterfaces;
import io.rdmascope.capture.live.LiveCaptureException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code rdmascope interfaces}: what libpcap can capture on, and whether this process may. */
@Command(name = "interfaces", sortOptions = false, description = {
        "List the interfaces libpcap can capture on, and whether this process may.",
        "",
        "One row each: number (for capture -i N), name, state, link type, whether capture is permitted, "
                + "addresses and description. RDMA sniffer devices (mlx5_0, …) appear when libpcap was built with "
                + "RDMA support. Capturing needs root, or CAP_NET_RAW and CAP_NET_ADMIN (docs/capture.md)."})
final class InterfacesCommand implements Callable<Integer> {
    @ParentCommand
    Main parent;

    @Spec
    CommandSpec spec;

    @Option(names = "--no-probe", description = "do not open each interface (link type and permission unknown)")
    boolean noProbe;

    @Override
    public Integer call() throws IOException {
        return print(parent.stdout(), spec.commandLine().getErr(), !noProbe);
    }

    /** Prints the table; also what {@code capture -D} does. */
    static int print(OutputStream stdout, PrintWriter err, boolean probe) throws IOException {
        List<CaptureInterface> all = CaptureInterfaces.list();
        List<String[]> rows = new ArrayList<>();
        boolean anyRefused = false;
        for (CaptureInterface i : all) {
            String link = "-";
            String capture = "-";
            if (probe) {
                CaptureAccess a = CaptureInterfaces.probe(i.name());
                if (a.allowed()) {
                    link = a.linkTypeName() + " (" + a.linkType() + ")";
                    capture = "yes";
                } else {
                    capture = a.reason() == LiveCaptureException.Reason.PERMISSION ? "no permission"
                            : a.reason() == LiveCaptureException.Reason.INTERFACE_DOWN ? "no (down)" : "no";
                    anyRefused |= a.reason() == LiveCaptureException.Reason.PERMISSION;
                }
            }
            String state = !i.up() ? "down" : i.running() || i.loopback() ? "up" : "up, no carrier";
            String description = i.description() == null ? "" : i.description();
            if (i.loopback() && description.isEmpty()) {
                description = "loopback";
            }
            rows.add(new String[]{Integer.toString(i.index()), i.name(), state, link, capture,
                    String.join(", ", i.addresses()), description});
        }
        Writer out = new BufferedWriter(new OutputStreamWriter(stdout, StandardCharsets.UTF_8));
        new Table(Table.Column.right("#"), Table.Column.left("NAME"), Table.Column.left("STATE"),
                Table.Column.left("LINK TYPE"), Table.Column.left("CAPTURE"), Table.Column.left("ADDRESSES"),
                Table.Column.left("DESCRIPTION")).print(out, rows, r -> r);
        out.flush();
        if (anyRefused) {
            err.println("rdmascope: capture needs root, or CAP_NET_RAW and CAP_NET_ADMIN (see docs/capture.md)");
        }
        return Main.EXIT_OK;
    }
}
