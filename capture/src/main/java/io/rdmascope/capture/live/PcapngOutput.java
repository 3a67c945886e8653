package io.rdmascope.capture.live;

import io.rdmascope.capture.PcapngWriter;
import io.rdmascope.frame.Frame;

import java.io.Closeable;
import java.io.FilterOutputStream;
import java.io.Flushable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;

/**
 * Where a live capture's frames are written: one pcapng file, a stream, or a ring of files.
 *
 * <p>Every file starts with a section header ({@code shb_os}, {@code shb_userappl}) and one
 * interface description block per capture interface recording its name, filter ({@code if_filter})
 * and OS ({@code if_os}).
 *
 * <p>With a size limit, frames go to a series of files named as dumpcap names them,
 * {@code PREFIX_NNNNN_YYYYMMDDhhmmss.SUFFIX} — {@code -w out.pcapng} gives
 * {@code out_00001_20250101120000.pcapng}, {@code out_00002_…} — the time being when the file was
 * opened, local time. A file is closed once it holds the limit or more and the next frame goes to
 * a new one (so no file ends empty and a frame is never split). With a file count, only the newest
 * that many files are kept: opening one more deletes the oldest (a ring buffer).
 *
 * <p>Not thread-safe: one consumer writes.
 */
public final class PcapngOutput implements Closeable, Flushable {

    /** dumpcap's timestamp in ring file names. */
    static final DateTimeFormatter NAME_TIME = DateTimeFormatter.ofPattern("yyyyMMddHHmmss");

    /**
     * One interface block.
     *
     * @param linkType   LINKTYPE_ value of its frames
     * @param snapLength snap length
     * @param name       {@code if_name}
     * @param filter     {@code if_filter} (libpcap expression), or null when unfiltered
     * @param os         {@code if_os}
     */
    public record Interface(int linkType, int snapLength, String name, String filter, String os) {
        /** The interface block for a live capture's interface. */
        public static Interface of(LiveCapture capture) {
            return new Interface(capture.linkType(), capture.snapLength(), capture.name(), capture.filter(),
                    LiveCapture.operatingSystem());
        }
    }

    private final List<Interface> interfaces;
    private final String userApplication;
    private final long maxFileBytes;
    private final int maxFiles;
    private final Clock clock;
    private final Path directory;
    private final String prefix;
    private final String suffix;
    private final OutputStream stream;

    private PcapngWriter writer;
    private CountingStream counting;
    private Path current;
    private long currentBytes;
    private long currentFrames;
    private int fileNumber;
    private int opened;
    private final Deque<Path> kept = new ArrayDeque<>();
    private final List<Path> deleted = new ArrayList<>();
    private long framesWritten;
    private long bytesWritten;

    private PcapngOutput(List<Interface> interfaces, String userApplication, Path target, long maxFileBytes,
                         int maxFiles, Clock clock, OutputStream stream) {
        if (interfaces.isEmpty()) {
            throw new IllegalArgumentException("at least one interface");
        }
        if (maxFileBytes < 0 || maxFiles < 0) {
            throw new IllegalArgumentException("negative ring limits");
        }
        if (maxFiles > 0 && maxFileBytes == 0) {
            throw new IllegalArgumentException("a file count needs a file size limit");
        }
        this.interfaces = List.copyOf(interfaces);
        this.userApplication = userApplication;
        this.maxFileBytes = maxFileBytes;
        this.maxFiles = maxFiles;
        this.clock = clock;
        this.stream = stream;
        if (target != null) {
            Path absolute = target.toAbsolutePath();
            this.directory = absolute.getParent();
            String[] parts = splitName(absolute.getFileName().toString());
            this.prefix = parts[0];
            this.suffix = parts[1];
        } else {
            this.directory = null;
            this.prefix = null;
            this.suffix = null;
        }
    }

    /** One file at exactly {@code path} (created or replaced). */
    public static PcapngOutput file(Path path, List<Interface> interfaces, String userApplication) throws IOException {
        PcapngOutput out = new PcapngOutput(interfaces, userApplication, path, 0, 0, Clock.systemDefaultZone(), null);
        out.openFile(path);
        return out;
    }

    /** A stream (standard output, a pipe); it is closed with this output. */
    public static PcapngOutput stream(OutputStream stream, List<Interface> interfaces, String userApplication)
            throws IOException {
        PcapngOutput out = new PcapngOutput(interfaces, userApplication, null, 0, 0, Clock.systemDefaultZone(),
                Objects.requireNonNull(stream));
        out.openStream(stream);
        return out;
    }

    /**
     * Numbered files derived from {@code template}, each closed at {@code maxFileBytes}; with
     * {@code maxFiles} &gt; 0 only the newest that many are kept. The first file is opened at once.
     */
    public static PcapngOutput ring(Path template, long maxFileBytes, int maxFiles, List<Interface> interfaces,
                                    String userApplication, Clock clock) throws IOException {
        if (maxFileBytes <= 0) {
            throw new IllegalArgumentException("a ring needs a positive file size: " + maxFileBytes);
        }
        PcapngOutput out = new PcapngOutput(interfaces, userApplication, template, maxFileBytes, maxFiles, clock, null);
        out.nextFile();
        return out;
    }

    /**
     * dumpcap's name for file {@code number} of a series: {@code PREFIX_NNNNN_YYYYMMDDhhmmss.SUFFIX}.
     *
     * @param template the name given with {@code -w}; its last extension is the suffix (none: no suffix)
     */
    public static String ringFileName(String template, int number, LocalDateTime opened) {
        String[] parts = splitName(template);
        return String.format("%s_%05d_%s%s", parts[0], number, NAME_TIME.format(opened), parts[1]);
    }

    /** {prefix, suffix-with-dot}: {@code a.b.pcapng} → {@code a.b}, {@code .pcapng}; no dot (or a leading one only) → no suffix. */
    static String[] splitName(String name) {
        int dot = name.lastIndexOf('.');
        if (dot <= 0) {
            return new String[]{name, ""};
        }
        return new String[]{name.substring(0, dot), name.substring(dot)};
    }

    /** Writes one frame on its interface, switching files first if the current one is full. */
    public void write(Frame frame) throws IOException {
        if (maxFileBytes > 0 && currentFrames > 0 && currentBytes >= maxFileBytes) {
            nextFile();
        }
        writer.write(frame.interfaceId(), frame);
        int snap = interfaces.get(frame.interfaceId()).snapLength();
        int captured = snap == 0 ? frame.capturedLength() : Math.min(frame.capturedLength(), snap);
        long block = 32L + captured + ((4 - (captured & 3)) & 3);
        currentBytes += block;
        bytesWritten += block;
        currentFrames++;
        framesWritten++;
    }

    private void nextFile() throws IOException {
        closeCurrent();
        fileNumber++;
        Path path = directory.resolve(String.format("%s_%05d_%s%s", prefix, fileNumber,
                NAME_TIME.format(LocalDateTime.now(clock)), suffix));
        if (maxFiles > 0) {
            while (kept.size() >= maxFiles) {
                Path oldest = kept.removeFirst();
                Files.deleteIfExists(oldest);
                deleted.add(oldest);
            }
        }
        openFile(path);
    }

    private void openFile(Path path) throws IOException {
        OutputStream file = Files.newOutputStream(path);
        current = path;
        opened++;
        kept.addLast(path);
        try {
            openStream(file);
        } catch (IOException | RuntimeException e) {
            file.close();
            throw e;
        }
    }

    private void openStream(OutputStream out) throws IOException {
        counting = new CountingStream(out);
        writer = new PcapngWriter(counting, null, LiveCapture.operatingSystem(), userApplication);
        for (Interface i : interfaces) {
            writer.addInterface(i.linkType(), i.snapLength(), i.name(), i.filter(), i.os());
        }
        writer.flush();
        currentBytes = counting.count;   // the headers, exactly
        bytesWritten += currentBytes;
        currentFrames = 0;
    }

    private void closeCurrent() throws IOException {
        if (writer != null) {
            PcapngWriter w = writer;
            writer = null;
            w.close();
        }
    }

    /** Frames written so far, over every file. */
    public long framesWritten() {
        return framesWritten;
    }

    /** Bytes written so far, over every file (deleted ring files included). */
    public long bytesWritten() {
        return bytesWritten;
    }

    /** Files written and still present, oldest first (empty for a stream). */
    public List<Path> files() {
        return List.copyOf(kept);
    }

    /** Ring files deleted to respect the file count, oldest first. */
    public List<Path> deletedFiles() {
        return List.copyOf(deleted);
    }

    /** Files opened so far (a ring's running number). */
    public int filesOpened() {
        return opened;
    }

    /** The file being written, or null for a stream. */
    public Path currentFile() {
        return stream != null ? null : current;
    }

    @Override
    public void flush() throws IOException {
        if (writer != null) {
            writer.flush();
        }
    }

    @Override
    public void close() throws IOException {
        closeCurrent();
    }

    /** Counts bytes on their way to the file, to know the header blocks' exact size. */
    private static final class CountingStream extends FilterOutputStream {
        long count;

        CountingStream(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            count += len;
        }
    }
}
