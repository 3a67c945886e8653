package io.rdmascope.spark;

import java.io.Serializable;

/**
 * What a first quick pass over one file learns (JavaBean): how many frames it holds, so that frames can
 * be numbered across a vantage's ring files, its first and last timestamps (the vantage's capture end),
 * and whether its timestamps never go back (the replay split by host pair is exact only then; see
 * docs/fleet.md). {@code error} is the one-line read error, or null.
 */
public final class FileScan implements Serializable {
    private String uri;
    private long frames;
    private long firstNanos;
    private long lastNanos;
    private long maxNanos;
    private boolean ordered;
    private String error;

    public FileScan() {
    }

    public String getUri() {
        return uri;
    }

    public void setUri(String uri) {
        this.uri = uri;
    }

    public long getFrames() {
        return frames;
    }

    public void setFrames(long frames) {
        this.frames = frames;
    }

    public long getFirstNanos() {
        return firstNanos;
    }

    public void setFirstNanos(long firstNanos) {
        this.firstNanos = firstNanos;
    }

    public long getLastNanos() {
        return lastNanos;
    }

    public void setLastNanos(long lastNanos) {
        this.lastNanos = lastNanos;
    }

    public long getMaxNanos() {
        return maxNanos;
    }

    public void setMaxNanos(long maxNanos) {
        this.maxNanos = maxNanos;
    }

    public boolean isOrdered() {
        return ordered;
    }

    public void setOrdered(boolean ordered) {
        this.ordered = ordered;
    }

    public String getError() {
        return error;
    }

    public void setError(String error) {
        this.error = error;
    }
}
