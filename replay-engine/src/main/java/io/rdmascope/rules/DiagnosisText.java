package io.rdmascope.rules;

import io.rdmascope.replay.Durations;
import io.rdmascope.replay.Flow;
import io.rdmascope.replay.Message;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The words of a {@link Diagnosis.Account}, one piece at a time: what {@code rdmascope explain} prints
 * after its labels and what the GUI's Diagnosis pane shows on its lines, so the two never drift apart.
 * Frames are written "frame N" (the GUI turns those into links).
 */
public final class DiagnosisText {
    private DiagnosisText() {
    }

    /** "Conversation 2: RC 10.0.0.1 QP 0x00143a ⇄ 10.0.0.2 QP 0x00676c, set up by CM, last state established". */
    public static String heading(Diagnosis.Account a) {
        Flow f = a.flow();
        return "Conversation " + f.conversation() + ": " + f.transport() + " " + side(f.a()) + " \u21c4 " + side(f.b())
                + ", " + ("cm".equals(f.setup()) ? "set up by CM" : "no CM exchange seen")
                + (f.state() == null ? "" : ", last state " + f.state());
    }

    /** The one line of a quiet conversation: its heading, "nothing to report" and its messages by status. */
    public static String quiet(Diagnosis.Account a) {
        return heading(a) + ": nothing to report; " + messageCounts(a.end()) + "."
                + (a.otherFindings().isEmpty() ? "" : " Notes: " + a.otherFindings().size() + ".");
    }

    private static String side(Flow.Side s) {
        return s.address() + (s.qpn() == null ? "" : String.format(Locale.ROOT, " QP 0x%06x", s.qpn()));
    }

    /** "frame 12: Request reuses a PSN (IB-RC-PSN-004, error): detail". */
    public static String finding(Finding f) {
        String at = f.frames().isEmpty() ? "no frame" : "frame " + f.firstFrame();
        return at + ": " + f.summary() + " (" + f.rule() + ", " + f.severity() + "): " + f.detail();
    }

    /** "frame 8: READ PSN 1-3, 3072 bytes, completed at frame 11". */
    public static String message(Message m) {
        String psns = m.firstPsn() == m.lastPsn() ? "PSN " + m.firstPsn() : "PSN " + m.firstPsn() + "-" + m.lastPsn();
        String first = m.frames().isEmpty() ? "" : "frame " + m.frames().get(0) + ": ";
        return first + m.kind() + " " + psns + ", " + m.bytes() + " bytes, " + m.status()
                + (m.completionFrame() == null ? "" : " at frame " + m.completionFrame());
    }

    /** "3 messages: 2 completed, 1 failed", or "no messages". */
    public static String messageCounts(Diagnosis.End e) {
        List<String> parts = new ArrayList<>();
        int total = 0;
        for (Map.Entry<String, Integer> s : e.messagesByStatus().entrySet()) {
            total += s.getValue();
            if (s.getValue() > 0) {
                parts.add(s.getValue() + " " + s.getKey());
            }
        }
        return total == 0 ? "no messages" : total + (total == 1 ? " message: " : " messages: ") + String.join(", ", parts);
    }

    /** The state at the end: messages by status, the unfinished ones, the silence before the capture ended. */
    public static String end(Diagnosis.End e) {
        StringBuilder sb = new StringBuilder(messageCounts(e));
        if (e.unfinishedCount() > 0) {
            sb.append("; unfinished: ");
            for (int i = 0; i < e.unfinished().size(); i++) {
                Message m = e.unfinished().get(i);
                sb.append(i == 0 ? "" : ", ").append(m.kind()).append(" PSN ").append(m.firstPsn())
                        .append(m.frames().isEmpty() ? "" : " (frame " + m.frames().get(0) + ")");
            }
            if (e.unfinishedCount() > e.unfinished().size()) {
                sb.append(" and ").append(e.unfinishedCount() - e.unfinished().size()).append(" more");
            }
        }
        sb.append("; its last frame came ").append(Durations.text(e.silenceNanos())).append(" before the capture ended");
        return sb.toString();
    }
}
