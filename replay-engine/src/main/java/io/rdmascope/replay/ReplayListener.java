package io.rdmascope.replay;

/**
 * Receives what the engine finds, as it finds it. Messages arrive when they are finished (completed,
 * failed, dropped) or when the capture ends (incomplete), so not in order of first frame;
 * {@link ReplayResult} sorts them.
 */
public interface ReplayListener {
    void message(Message message);

    void observation(Observation observation);
}
