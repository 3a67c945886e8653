package io.rdmascope.replay;

/**
 * Receives what the engine finds, as it finds it. Messages arrive when they are finished (completed,
 * failed, dropped) or when the capture ends (incomplete), so not in order of first frame;
 * {@link ReplayResult} sorts them.
 */
public interface ReplayListener {
    void message(Message message);

    /**
     * Whether this listener is handed each message as a {@link Message}; asked once per conversation, when
     * the engine makes it. A listener that only counts messages says false and is called at
     * {@link #messageCounted()} instead: the engine then builds no {@code Message}, with its frame lists
     * and boxed fields, for a listener that would drop it (one message every few frames).
     */
    default boolean keepsMessages() {
        return true;
    }

    /** A message finished, told in place of {@link #message} to a listener that does not keep messages. */
    default void messageCounted() {
    }

    void observation(Observation observation);

    /**
     * Frame {@code frame} belongs to conversation {@code conversation}, sent by its endpoint
     * {@code side} (0 or 1, as flows number them), as {@code role}. Every frame the engine places
     * is told once, when it is replayed; frames of directions not yet paired are told when pairing
     * decides (so not necessarily in frame order).
     */
    default void placement(long frame, String conversation, int side, FrameRole role) {
    }
}
