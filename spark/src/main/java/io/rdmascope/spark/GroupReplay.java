package io.rdmascope.spark;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.dissect.DissectorChain;
import io.rdmascope.frame.Frame;
import io.rdmascope.ops.OperationRules;
import io.rdmascope.ops.OperationTracker;
import io.rdmascope.replay.Flow;
import io.rdmascope.replay.IcrcCheck;
import io.rdmascope.replay.Message;
import io.rdmascope.replay.Observation;
import io.rdmascope.replay.ObservationKind;
import io.rdmascope.replay.ReplayEngine;
import io.rdmascope.replay.ReplayLimits;
import io.rdmascope.replay.ReplayListener;
import io.rdmascope.rules.Finding;
import io.rdmascope.rules.Rules;
import io.rdmascope.rules.RulesConfig;
import org.apache.spark.api.java.function.FlatMapGroupsFunction;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * Replays one group — one vantage's frames between one pair of hosts, in capture order — through its
 * own {@link ReplayEngine}, streaming: each frame is dissected and replayed as Spark's sorted group
 * iterator hands it over, and each message leaves as soon as the engine finishes it, so a busy host
 * pair never has to fit in memory (the engine's own state is bounded by {@link ReplayLimits}). What
 * must see the whole group — the rules over its observations, its flows, its conversations' first
 * frames for the vantage-wide numbering — comes out after the last frame.
 */
final class GroupReplay implements FlatMapGroupsFunction<String, FrameRow, ReplayRow> {
    /**
     * Observations whose meaning reaches beyond one host pair (docs/fleet.md, "Dependencies across host
     * pairs"): ICRC verdicts are judged per sender and per capture interface, cut frames are summed per
     * capture, the conversation limit counts every host pair, and one conversation's packets missing
     * from the capture change how every other conversation's stalls and unanswered responses are read.
     */
    static final Set<ObservationKind> CROSS_PAIR = EnumSet.of(ObservationKind.BAD_ICRC,
            ObservationKind.ICRC_NOT_VERIFIABLE, ObservationKind.FRAMES_CUT_SILENTLY, ObservationKind.HEADERS_CUT,
            ObservationKind.LIMIT_REACHED, ObservationKind.MISSING_FROM_CAPTURE);

    private final Map<String, Long> captureEnds;

    /** @param captureEnds each vantage's last timestamp: a group judges what is left unanswered against it */
    GroupReplay(Map<String, Long> captureEnds) {
        this.captureEnds = Map.copyOf(captureEnds);
    }

    @Override
    public Iterator<ReplayRow> call(String key, Iterator<FrameRow> frames) {
        return new Run(key, frames);
    }

    /** The group's key: its vantage and host pair, tab-separated. */
    static String key(String vantage, String pair) {
        return vantage + '\t' + pair;
    }

    private final class Run implements Iterator<ReplayRow>, ReplayListener {
        private final ObjectMapper json = new ObjectMapper();
        private final String vantage;
        private final String group;
        private final Iterator<FrameRow> frames;
        private final ReplayEngine engine = new ReplayEngine(this, ReplayLimits.defaults(), IcrcCheck.AUTO);
        private final DissectorChain chain = DissectorChain.standard();
        private final Dissection dissection = new Dissection();
        // The storage protocols' rules (issue 19), as check runs them: operations tracked beside the replay.
        private final OperationRules storageRules = new OperationRules();
        private final OperationTracker operations = storageRules.tracker(o -> { });
        private final ArrayDeque<ReplayRow> ready = new ArrayDeque<>();
        private final List<Observation> observations = new ArrayList<>();
        private final Set<ObservationKind> crossPair = EnumSet.noneOf(ObservationKind.class);
        private boolean finished;

        Run(String key, Iterator<FrameRow> frames) {
            int tab = key.indexOf('\t');
            this.vantage = key.substring(0, tab);
            this.group = key.substring(tab + 1);
            this.frames = frames;
        }

        @Override
        public boolean hasNext() {
            while (ready.isEmpty() && !finished) {
                if (frames.hasNext()) {
                    replay(frames.next());
                } else {
                    finish();
                }
            }
            return !ready.isEmpty();
        }

        @Override
        public ReplayRow next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            return ready.poll();
        }

        private void replay(FrameRow row) {
            byte[] bytes = row.getBytes();
            Frame frame = new Frame(row.getFrame(), row.getTimeNanos(), bytes.length, row.getWireLength(),
                    row.getLinkType(), row.getInterfaceId(), ByteBuffer.wrap(bytes).asReadOnlyBuffer(), 0);
            chain.dissect(frame, dissection);
            operations.accept(dissection);
            engine.accept(dissection);
        }

        @Override
        public void message(Message message) {
            ready.add(row(ReplayRow.MESSAGE, json.valueToTree(message)));
        }

        @Override
        public void observation(Observation observation) {
            observations.add(observation);
            if (CROSS_PAIR.contains(observation.kind())) {
                crossPair.add(observation.kind());
            }
        }

        private void finish() {
            finished = true;
            engine.finish(captureEnds.getOrDefault(vantage, Long.MIN_VALUE));
            operations.finish();
            Map<String, String> provisionalOfFinal = new HashMap<>();
            Map<String, Long> firstFrames = engine.conversationFirstFrames();
            for (String id : firstFrames.keySet()) {
                provisionalOfFinal.put(engine.finalConversationId(id), id);
            }
            // Flows carry the engine's final ids; every other row the provisional ones the listener saw.
            List<Flow> flows = new ArrayList<>();
            for (Flow f : engine.flows()) {
                flows.add(f.withConversation(provisionalOfFinal.getOrDefault(f.conversation(), f.conversation())));
            }
            // No frame placements are kept here (check's replay keeps none either): a queue is found by its QPs.
            observations.addAll(storageRules.observations(flows, frame -> null));
            // As ReplayResult orders them before the rules see them: by frame, the frameless last, stable.
            observations.sort(Comparator.comparingLong(o -> o.frame() == 0 ? Long.MAX_VALUE : o.frame()));
            for (Finding f : Rules.evaluate(observations, RulesConfig.defaults())) {
                // The record's members are check --report json's (the test holds them equal), frames still vantage-wide.
                ready.add(row(ReplayRow.FINDING, json.valueToTree(f)));
            }
            for (Map.Entry<String, Long> e : firstFrames.entrySet()) {
                ObjectNode c = json.createObjectNode();
                c.put("id", e.getKey());
                c.put("firstFrame", e.getValue());
                ready.add(row(ReplayRow.CONVERSATION, c));
            }
            for (Flow f : flows) {
                ready.add(row(ReplayRow.FLOW, json.valueToTree(f)));
            }
            if (!crossPair.isEmpty()) {
                ObjectNode c = json.createObjectNode();
                crossPair.forEach(k -> c.withArray("kinds").add(k.name().toLowerCase(java.util.Locale.ROOT)));
                ready.add(row(ReplayRow.CROSS_PAIR, c));
            }
        }

        private ReplayRow row(String kind, com.fasterxml.jackson.databind.JsonNode node) {
            return new ReplayRow(vantage, group, kind, node.toString());
        }
    }
}
