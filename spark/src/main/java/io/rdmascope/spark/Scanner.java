package io.rdmascope.spark;

import io.rdmascope.capture.PacketSource;
import io.rdmascope.frame.Frame;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.SerializableConfiguration;

import java.io.IOException;

/**
 * The first, quick pass over one file: frames counted and timestamps followed, nothing dissected.
 * A file damaged part-way counts the frames before the damage (what the replay will read) and keeps
 * the error's one line for the report.
 */
final class Scanner implements Function<CaptureFile, FileScan> {
    private final Broadcast<SerializableConfiguration> hadoop;

    /** @param hadoop the job's Hadoop configuration, which says how to reach the input's file system */
    Scanner(Broadcast<SerializableConfiguration> hadoop) {
        this.hadoop = hadoop;
    }

    @Override
    public FileScan call(CaptureFile file) {
        FileScan scan = new FileScan();
        scan.setUri(file.getUri());
        scan.setOrdered(true);
        scan.setMaxNanos(Long.MIN_VALUE);
        long frames = 0;
        long previous = Long.MIN_VALUE;
        try (PacketSource source = CaptureInput.open(file.getUri(), hadoop.value().value())) {
            Frame f;
            while ((f = source.next()) != null) {
                long t = f.timeNanos();
                if (frames++ == 0) {
                    scan.setFirstNanos(t);
                }
                if (t < previous) {
                    scan.setOrdered(false);
                }
                previous = t;
                scan.setMaxNanos(Math.max(scan.getMaxNanos(), t));
            }
        } catch (IOException | RuntimeException e) {
            scan.setError(file.getName() + ": " + oneLine(e));
        }
        scan.setFrames(frames);
        scan.setLastNanos(previous);
        return scan;
    }

    static String oneLine(Throwable e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}
