package io.rdmascope.dissect.stream;

import io.rdmascope.dissect.Dissection;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Everything stream decoders keep across the frames of one {@link Dissection}, one entry per
 * decoder (iWARP's connection table today). Reached through {@link #of}; frames must come in capture
 * order, and a frame number that does not grow starts a new pass ({@link #beginFrame}).
 */
public final class StreamState {
    private final Map<Class<?>, Object> states = new IdentityHashMap<>(4);
    private long lastFrame = Long.MIN_VALUE;
    private long passes;

    private StreamState() {
    }

    /** The stream state of {@code d}, made on first use. */
    public static StreamState of(Dissection d) {
        Object s = d.streamState();
        if (s instanceof StreamState state) {
            return state;
        }
        StreamState state = new StreamState();
        d.setStreamState(state);
        return state;
    }

    /** The stream state of {@code d} if a decoder made one, else null (never makes one). */
    public static StreamState peek(Dissection d) {
        return d.streamState() instanceof StreamState s ? s : null;
    }

    /** Decoder {@code type}'s state in {@code d}'s stream state, or null when there is none (never makes one). */
    public static <T> T peek(Dissection d, Class<T> type) {
        StreamState s = peek(d);
        return s == null ? null : s.peek(type);
    }

    /**
     * Notes that frame {@code number} is being dissected. A number at or below the previous one
     * means the frames are no longer in capture order (another file, a second pass, random access):
     * every stream is forgotten so that nothing is decoded against bytes from the wrong place.
     */
    public void beginFrame(long number) {
        if (number <= lastFrame) {
            states.clear();
            passes++;
        }
        lastFrame = number;
    }

    /** The number of times streams were forgotten because frames went backwards. */
    public long restarts() {
        return passes;
    }

    /** Decoder {@code type}'s state, made by {@code create} on first use. */
    public <T> T get(Class<T> type, Supplier<T> create) {
        Object s = states.get(type);
        if (s == null) {
            s = create.get();
            states.put(type, s);
        }
        return type.cast(s);
    }

    /** Decoder {@code type}'s state, or null when it has none. */
    public <T> T peek(Class<T> type) {
        return type.cast(states.get(type));
    }
}
