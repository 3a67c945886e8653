package io.rdmascope.capture;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * Opens capture files, recognising the format by content, never by name: classic pcap (four
 * magics), pcapng, Endace ERF (no magic: recognised by plausible first records, and only once the
 * pcap and pcapng magics have failed), and any of them gzip-compressed.
 *
 * <p>Plain files are memory-mapped and frames point into the mapping. Compressed files and streams
 * are decompressed on the fly; their frames own exact-size copies.
 */
public final class CaptureFiles {

    /** Mapping window for files too large for one mapping (over 2 GiB - 1 bytes). */
    public static final long DEFAULT_WINDOW = 1L << 30;

    private static final int GZIP_MAGIC = 0x1F8B;
    private static final int GZIP_BUFFER = 64 * 1024;
    private static final String NOT_A_CAPTURE = "not a pcap, pcapng or ERF capture";

    private CaptureFiles() {
    }

    /**
     * Opens a capture file for reading.
     *
     * @throws CaptureFormatException when the content is not a capture this project reads, or its
     *                                header is damaged
     */
    public static PacketSource open(Path path) throws IOException {
        // One mapping covers files up to 2 GiB - 1; only bigger ones pay for window changes.
        long size = Files.size(path);
        return open(path, size <= Integer.MAX_VALUE ? Integer.MAX_VALUE : DEFAULT_WINDOW);
    }

    /**
     * Opens a capture file, mapping at most {@code windowBytes} at a time (records bigger than that
     * get a window of their own). Small windows exist for tests of the windowing on small files.
     */
    public static PacketSource open(Path path, long windowBytes) throws IOException {
        return open(path, windowBytes, MappedCaptureBytes.TOUCH_AHEAD_FROM);
    }

    /** As {@link #open(Path, long)}, touching pages ahead of the reader from {@code touchAheadFrom} bytes on. */
    static PacketSource open(Path path, long windowBytes, long touchAheadFrom) throws IOException {
        String name = path.toString();
        if (!Files.isRegularFile(path) && Files.exists(path)) {
            // Pipes and devices (/dev/stdin, a shell's <(zcat ...)) cannot be mapped: stream them.
            // FileInputStream, because on JDK 17 the stream from Files.newInputStream throws
            // "Illegal seek" from available() on a pipe, and BufferedInputStream calls it.
            return open(new FileInputStream(path.toFile()), name);
        }
        FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
        try {
            if (startsWithGzipMagic(channel)) {
                channel.close();
                return gzip(name, Files.newInputStream(path));
            }
            return detect(new MappedCaptureBytes(name, channel, windowBytes, touchAheadFrom));
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    private static boolean startsWithGzipMagic(FileChannel channel) throws IOException {
        ByteBuffer head = ByteBuffer.allocate(2);
        while (head.hasRemaining()) {
            if (channel.read(head, head.position()) < 0) {
                return false;
            }
        }
        return (head.getShort(0) & 0xFFFF) == GZIP_MAGIC;
    }

    /**
     * Reads a capture from a stream (standard input, a network socket), gzip-compressed or not.
     * The stream is closed with the returned source.
     *
     * @param name what error messages call the input, e.g. {@code "<stdin>"}
     */
    public static PacketSource open(InputStream in, String name) throws IOException {
        BufferedInputStream buffered = new BufferedInputStream(in, GZIP_BUFFER);
        try {
            buffered.mark(2);
            int first = buffered.read();
            int second = buffered.read();
            buffered.reset();
            if ((first << 8 | second) == GZIP_MAGIC) {
                return gzip(name, buffered);
            }
            return detect(new StreamCaptureBytes(name, buffered, false));
        } catch (IOException | RuntimeException e) {
            buffered.close();
            throw e;
        }
    }

    private static PacketSource gzip(String name, InputStream compressed) throws IOException {
        GZIPInputStream in;
        try {
            // The constructor already parses the gzip header, so a cut or bad header fails here.
            in = new GZIPInputStream(compressed, GZIP_BUFFER);
        } catch (EOFException | ZipException e) {
            compressed.close();
            throw new CaptureFormatException(name, 0, 0, false, "corrupt gzip header", e.getMessage(), e);
        }
        return detect(new StreamCaptureBytes(name, in, true));
    }

    /**
     * Picks the reader from the first four bytes, or failing a magic, from the first ERF records;
     * closes the input when that fails.
     */
    private static PacketSource detect(CaptureBytes bytes) throws IOException {
        try {
            if (!bytes.ensure(0, 4)) {
                long present = bytes.remaining(0);
                throw bytes.error(0, 0, NOT_A_CAPTURE,
                        present == 0 ? "it is empty" : "only " + present + " bytes long");
            }
            int magic = bytes.bigEndianI32(0);
            return switch (magic) {
                case PcapReader.MAGIC_MICROS, PcapReader.MAGIC_MICROS_SWAPPED,
                        PcapReader.MAGIC_NANOS, PcapReader.MAGIC_NANOS_SWAPPED -> PcapReader.open(bytes);
                case PcapngReader.SECTION_HEADER -> PcapngReader.open(bytes);
                default -> {
                    if (ErfReader.looksLikeErf(bytes)) {
                        yield ErfReader.open(bytes);
                    }
                    throw bytes.error(0, 0, String.format(NOT_A_CAPTURE + " (magic 0x%08X)", magic), null);
                }
            };
        } catch (DamagedInputException e) {
            bytes.close();
            throw e.toCaptureError(bytes, 0);
        } catch (IOException | RuntimeException e) {
            bytes.close();
            throw e;
        }
    }
}
