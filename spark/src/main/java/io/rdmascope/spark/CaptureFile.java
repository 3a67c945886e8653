package io.rdmascope.spark;

import java.io.Serializable;

/**
 * One capture file of the input tree (a JavaBean: Spark's bean encoder does not take records). Its
 * frames are numbered within the vantage from {@code firstFrame}, as if the vantage's ring files,
 * in name order, were one capture.
 */
public final class CaptureFile implements Serializable {
    private String vantage;
    /** Where to read it: a URI (file:, hdfs:, s3a:, …). */
    private String uri;
    /** Its path under the input directory, '/'-separated: what the output's {@code file} column names. */
    private String name;
    /** Number, within its vantage, of its first frame (1 for the vantage's first file). */
    private long firstFrame;

    public CaptureFile() {
    }

    public CaptureFile(String vantage, String uri, String name, long firstFrame) {
        this.vantage = vantage;
        this.uri = uri;
        this.name = name;
        this.firstFrame = firstFrame;
    }

    public String getVantage() {
        return vantage;
    }

    public void setVantage(String vantage) {
        this.vantage = vantage;
    }

    public String getUri() {
        return uri;
    }

    public void setUri(String uri) {
        this.uri = uri;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public long getFirstFrame() {
        return firstFrame;
    }

    public void setFirstFrame(long firstFrame) {
        this.firstFrame = firstFrame;
    }
}
