package io.rdmascope.spark;

import java.io.Serializable;

/**
 * One thing a group's replay found (JavaBean), as JSON in the CLI's contract but with the group's own
 * conversation ids and vantage-wide frame numbers, which the job maps afterwards: a {@code message},
 * {@code finding} or {@code flow}; a {@code conversation} ({@code {"id", "firstFrame"}}) for the
 * vantage-wide numbering; a {@code crossPair} naming something the group saw that reaches beyond its
 * host pair (docs/fleet.md).
 */
public final class ReplayRow implements Serializable {
    static final String MESSAGE = "message";
    static final String FINDING = "finding";
    static final String FLOW = "flow";
    static final String CONVERSATION = "conversation";
    static final String CROSS_PAIR = "crossPair";

    private String vantage;
    private String group;
    private String kind;
    private String json;

    public ReplayRow() {
    }

    ReplayRow(String vantage, String group, String kind, String json) {
        this.vantage = vantage;
        this.group = group;
        this.kind = kind;
        this.json = json;
    }

    public String getVantage() {
        return vantage;
    }

    public void setVantage(String vantage) {
        this.vantage = vantage;
    }

    public String getGroup() {
        return group;
    }

    public void setGroup(String group) {
        this.group = group;
    }

    public String getKind() {
        return kind;
    }

    public void setKind(String kind) {
        this.kind = kind;
    }

    public String getJson() {
        return json;
    }

    public void setJson(String json) {
        this.json = json;
    }
}
