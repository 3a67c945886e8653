package io.rdmascope.replay;

/**
 * Receives what the engine finds, as it finds it. Messages arrive when they are finished (completed,
 * failed, dropped) or when the capture ends (incomplete), so not in order of first frame;
 * {@link ReplayResult} sorts them.
 */
public interface ReplayListener {
    void message(Message message);

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
