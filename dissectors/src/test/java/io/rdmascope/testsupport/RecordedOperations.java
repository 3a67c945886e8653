package io.rdmascope.testsupport;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.ProtocolModule;
import io.rdmascope.dissect.ops.OperationEvents;
import io.rdmascope.dissect.ops.OperationExtractor;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/** What a protocol's {@link OperationExtractor} reports on each of a capture's frames, as text lines. */
public final class RecordedOperations {
    private RecordedOperations() {
    }

    /**
     * "frame N command ID OPCODE size S buffers [...]" and "frame N response ID failure F" lines, one per
     * event, for {@code module}'s extractor over the dissected frames (in capture order).
     */
    public static List<String> of(ProtocolModule module, List<Dissection> frames) {
        return record(module, frames, (frame, lines) -> new OperationEvents() {
            @Override
            public void command(Command c) {
                lines.add("frame " + frame + " command " + c.queue() + " " + c.idText() + " " + c.opcode()
                        + (c.description().equals(c.opcode()) ? "" : " (" + c.description() + ")") + " size " + c.size() + " buffers " + c.buffers());
            }

            @Override
            public void response(Response r) {
                lines.add("frame " + frame + " response " + r.queue() + " " + Long.toHexString(r.id())
                        + " failure " + r.failure() + (r.statusCode() == null ? "" : " code 0x" + Long.toHexString(r.statusCode())));
            }
        });
    }

    /**
     * "frame N send requester|responder spends|free granted G" (send credits) and "frame N grant C" (call
     * credits) lines, one per credit event {@code module}'s extractor reports over the dissected frames.
     */
    public static List<String> credits(ProtocolModule module, List<Dissection> frames) {
        return record(module, frames, (frame, lines) -> new OperationEvents() {
            @Override
            public void command(Command c) {
            }

            @Override
            public void response(Response r) {
            }

            @Override
            public void sendCredits(SendCredits c) {
                lines.add("frame " + frame + " send " + (c.byRequester() ? "requester" : "responder")
                        + (c.spends() ? " spends" : " free") + " granted " + c.granted());
            }

            @Override
            public void requestCredits(RequestCredits c) {
                lines.add("frame " + frame + " grant " + c.credits());
            }
        });
    }

    /** Runs the extractor over the frames, each frame's events written by {@code recorder(frame, lines)}. */
    private static List<String> record(ProtocolModule module, List<Dissection> frames,
                                       BiFunction<Long, List<String>, OperationEvents> recorder) {
        OperationExtractor extractor = module.operations();
        List<String> lines = new ArrayList<>();
        for (Dissection d : frames) {
            extractor.extract(d, recorder.apply(d.frame().number(), lines));
        }
        return lines;
    }
}
