package io.rdmascope.spark;

import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Opens an input file for the capture readers. A local file is read where it lies (memory-mapped, as
 * the CLI reads it); a file in an object store or HDFS is first copied to the task's local disk,
 * since the readers map files and do not stream from a remote store. The copy goes when the source
 * is closed.
 */
final class CaptureInput {
    private CaptureInput() {
    }

    static PacketSource open(String uri) throws IOException {
        URI u = URI.create(uri);
        if (u.getScheme() == null || u.getScheme().equals("file")) {
            return CaptureFiles.open(Path.of(u.getScheme() == null ? URI.create("file://" + uri) : u));
        }
        Path local = Files.createTempFile("rdmascope-fleet-", "-" + Path.of(u.getPath()).getFileName());
        try {
            FileSystem fs = FileSystem.get(u, new Configuration());
            fs.copyToLocalFile(false, new org.apache.hadoop.fs.Path(u), new org.apache.hadoop.fs.Path(local.toUri()), true);
            PacketSource source = CaptureFiles.open(local);
            return new PacketSource() {
                @Override
                public io.rdmascope.frame.Frame next() throws IOException {
                    return source.next();
                }

                @Override
                public String name() {
                    return source.name();
                }

                @Override
                public void close() {
                    try {
                        source.close();
                    } finally {
                        try {
                            Files.deleteIfExists(local);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    }
                }
            };
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(local);
            throw e;
        }
    }

    /** {@link #open} for Spark functions, which may not throw checked exceptions past their own signature. */
    static PacketSource openUnchecked(String uri) {
        try {
            return open(uri);
        } catch (IOException e) {
            throw new UncheckedIOException(uri + ": " + e.getMessage(), e);
        }
    }
}
