package io.rdmascope.cli;

import io.rdmascope.capture.PacketSource;
import io.rdmascope.capture.PcapngWriter;
import io.rdmascope.frame.Frame;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * {@code dissect -w}: the frames kept, written as pcapng. Each interface of the source (a pcap has one)
 * becomes an interface of the copy, with its link type and its timestamp precision (if_tsresol), added
 * when its first frame is written; frames keep their bytes, captured and wire lengths and times.
 */
final class FrameWriter implements Closeable {
    private final PcapngWriter writer;
    private final PacketSource source;
    /** Source interface id to the copy's. */
    private final Map<Integer, Integer> interfaces = new HashMap<>();

    private FrameWriter(PcapngWriter writer, PacketSource source) {
        this.writer = writer;
        this.source = source;
    }

    static FrameWriter create(Path file, PacketSource source) throws IOException {
        Path folder = file.toAbsolutePath().getParent();
        if (folder == null || !java.nio.file.Files.isDirectory(folder)) {
            throw new DissectCommand.UsageError("-w: no such folder for " + file);
        }
        return new FrameWriter(PcapngWriter.create(file, null, System.getProperty("os.name"), "rdmascope"), source);
    }

    /** A copy written to {@code out} (dissect -w -), which stays open: the caller flushes and closes it. */
    static FrameWriter create(java.io.OutputStream out, PacketSource source) throws IOException {
        java.io.OutputStream unclosed = new java.io.FilterOutputStream(out) {
            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
            }

            @Override
            public void close() throws IOException {
                out.flush();
            }
        };
        return new FrameWriter(new PcapngWriter(unclosed, null, System.getProperty("os.name"), "rdmascope"), source);
    }

    void write(Frame frame) throws IOException {
        Integer id = interfaces.get(frame.interfaceId());
        if (id == null) {
            id = writer.addInterface(frame.linkType(), 0, null, null, null,
                    source.timestampDigits(frame.interfaceId()));
            interfaces.put(frame.interfaceId(), id);
        }
        writer.write(id, frame);
    }

    @Override
    public void close() throws IOException {
        writer.close();
    }
}
