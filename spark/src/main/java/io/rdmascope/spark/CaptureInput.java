package io.rdmascope.spark;

import io.rdmascope.capture.CaptureFiles;
import io.rdmascope.capture.PacketSource;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;

/**
 * Opens an input file for the capture readers through Hadoop's {@link FileSystem}, whatever holds it:
 * the local disk ({@code file:}), HDFS, an object store ({@code s3a:}, {@code gs:}, {@code abfs:}) —
 * whichever file systems the cluster's Hadoop has, configured as the job's Hadoop configuration says
 * ({@code --conf spark.hadoop.fs.s3a.*}, docs/fleet.md). The file is streamed, never copied to the
 * task's disk first: the readers take a stream and recognise the format, gzip included, by content
 * ({@link CaptureFiles#open(java.io.InputStream, String)}).
 */
final class CaptureInput {
    /** Read-ahead asked of the file system: object stores answer large ranged reads best. */
    private static final int READ_BUFFER = 1 << 20;

    private CaptureInput() {
    }

    /**
     * @param uri  the file, as listed ({@link CaptureFile#getUri()}); a path without a scheme is the
     *             configuration's default file system's
     * @param conf the job's Hadoop configuration (the driver's, shipped to the executors)
     */
    static PacketSource open(String uri, Configuration conf) throws IOException {
        Path path = new Path(URI.create(uri));
        FileSystem fs = path.getFileSystem(conf);
        // CaptureFiles closes the stream when it is not a capture, and with the source otherwise.
        return CaptureFiles.open(fs.open(path, READ_BUFFER), uri);
    }

    /** {@link #open} for Spark functions, which may not throw checked exceptions past their own signature. */
    static PacketSource openUnchecked(String uri, Configuration conf) {
        try {
            return open(uri, conf);
        } catch (IOException e) {
            throw new UncheckedIOException(uri + ": " + e.getMessage(), e);
        }
    }
}
