package io.rdmascope.spark;

import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;

import java.io.IOException;
import java.net.URI;
import java.util.Arrays;

/**
 * Hadoop's raw local file system under a scheme of its own ({@code localstore:}), standing in for an
 * object store in tests: a scheme that is not {@code file:}, known only through the job's Hadoop
 * configuration ({@code spark.hadoop.fs.localstore.impl}), as {@code s3a:} is on a cluster. A job that
 * opened its input with {@code java.io.File}, or with a Hadoop configuration of its own rather than the
 * job's, fails on it.
 */
public final class LocalStoreFileSystem extends RawLocalFileSystem {
    static final String SCHEME = "localstore";

    @Override
    public String getScheme() {
        return SCHEME;
    }

    @Override
    public URI getUri() {
        return URI.create(SCHEME + ":///");
    }

    // The raw file system reads a file's permissions lazily through java.io.File on the path's URI, which
    // only a file: URI passes; an object store's statuses carry no such thing either. Lengths, kinds and
    // times are what the job uses.
    @Override
    public FileStatus getFileStatus(Path f) throws IOException {
        return withoutPermissions(super.getFileStatus(f));
    }

    @Override
    public FileStatus[] listStatus(Path f) throws IOException {
        return Arrays.stream(super.listStatus(f)).map(LocalStoreFileSystem::withoutPermissions).toArray(FileStatus[]::new);
    }

    private static FileStatus withoutPermissions(FileStatus s) {
        return new FileStatus(s.getLen(), s.isDirectory(), 1, s.getBlockSize(), s.getModificationTime(), s.getPath());
    }
}
