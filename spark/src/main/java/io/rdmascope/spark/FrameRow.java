package io.rdmascope.spark;

import java.io.Serializable;

/**
 * One captured frame on its way to its group's replay (JavaBean): its vantage, its host pair
 * ({@link io.rdmascope.replay.HostPair}), its number within the vantage, and the record itself.
 */
public final class FrameRow implements Serializable {
    private String vantage;
    private String pair;
    private long frame;
    private long timeNanos;
    private int wireLength;
    private int linkType;
    private int interfaceId;
    private byte[] bytes;

    public FrameRow() {
    }

    /** {@code frame}, numbered {@code number} within {@code vantage}, its bytes copied; the host pair still to set. */
    static FrameRow of(String vantage, long number, io.rdmascope.frame.Frame frame) {
        FrameRow row = new FrameRow();
        row.setVantage(vantage);
        row.setFrame(number);
        row.setTimeNanos(frame.timeNanos());
        row.setWireLength(frame.wireLength());
        row.setLinkType(frame.linkType());
        row.setInterfaceId(frame.interfaceId());
        row.setBytes(frame.toByteArray());
        return row;
    }

    public String getVantage() {
        return vantage;
    }

    public void setVantage(String vantage) {
        this.vantage = vantage;
    }

    public String getPair() {
        return pair;
    }

    public void setPair(String pair) {
        this.pair = pair;
    }

    public long getFrame() {
        return frame;
    }

    public void setFrame(long frame) {
        this.frame = frame;
    }

    public long getTimeNanos() {
        return timeNanos;
    }

    public void setTimeNanos(long timeNanos) {
        this.timeNanos = timeNanos;
    }

    public int getWireLength() {
        return wireLength;
    }

    public void setWireLength(int wireLength) {
        this.wireLength = wireLength;
    }

    public int getLinkType() {
        return linkType;
    }

    public void setLinkType(int linkType) {
        this.linkType = linkType;
    }

    public int getInterfaceId() {
        return interfaceId;
    }

    public void setInterfaceId(int interfaceId) {
        this.interfaceId = interfaceId;
    }

    public byte[] getBytes() {
        return bytes;
    }

    public void setBytes(byte[] bytes) {
        this.bytes = bytes;
    }
}
