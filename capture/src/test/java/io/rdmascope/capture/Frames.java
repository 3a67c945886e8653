package io.rdmascope.capture;

import io.rdmascope.frame.Frame;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/** Test helpers to read whole captures into comparable values. */
final class Frames {

    /** A frame's observable content, with value equality (frames themselves compare buffers by identity). */
    record Seen(long number, long timeNanos, int capturedLength, int wireLength, int linkType, int interfaceId,
                String hex) {
        static Seen of(Frame f) {
            return new Seen(f.number(), f.timeNanos(), f.capturedLength(), f.wireLength(), f.linkType(),
                    f.interfaceId(), HexFormat.of().formatHex(f.toByteArray()));
        }
    }

    /** What reading a whole capture gave: the frames, then the error that stopped it (or null). */
    record Outcome(List<Seen> frames, CaptureFormatException error) {
    }

    private Frames() {
    }

    static Path write(Path dir, String name, byte[] content) throws IOException {
        return Files.write(dir.resolve(name), content);
    }

    static List<Seen> readAll(PacketSource source) throws IOException {
        List<Seen> frames = new ArrayList<>();
        for (Frame f = source.next(); f != null; f = source.next()) {
            frames.add(Seen.of(f));
        }
        return frames;
    }

    static List<Seen> readAll(Path file) throws IOException {
        try (PacketSource source = CaptureFiles.open(file)) {
            return readAll(source);
        }
    }

    static List<Seen> readAll(Path file, long window) throws IOException {
        try (PacketSource source = CaptureFiles.open(file, window)) {
            return readAll(source);
        }
    }

    /** Reads until the end or the first format error, which is returned rather than thrown. */
    static Outcome readUntilError(PacketSource source) throws IOException {
        List<Seen> frames = new ArrayList<>();
        try {
            for (Frame f = source.next(); f != null; f = source.next()) {
                frames.add(Seen.of(f));
            }
            return new Outcome(frames, null);
        } catch (CaptureFormatException e) {
            return new Outcome(frames, e);
        }
    }
}
