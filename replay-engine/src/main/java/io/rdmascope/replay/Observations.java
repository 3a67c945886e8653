package io.rdmascope.replay;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.Objects;

/** Operations over every kind of {@link Observation} at once. */
final class Observations {
    private Observations() {
    }

    /**
     * The same observation under another conversation id. Every observation is a record with a
     * {@code conversation} component, so one generic copy serves all kinds (and any added later)
     * rather than a method per record; it runs only when pairing renumbered conversations.
     */
    static Observation withConversation(Observation o, String id) {
        if (Objects.equals(o.conversation(), id)) {
            return o;
        }
        RecordComponent[] components = o.getClass().getRecordComponents();
        Object[] values = new Object[components.length];
        Class<?>[] types = new Class<?>[components.length];
        try {
            for (int i = 0; i < components.length; i++) {
                types[i] = components[i].getType();
                values[i] = components[i].getName().equals("conversation") ? id
                        : components[i].getAccessor().invoke(o);
            }
            Constructor<?> canonical = o.getClass().getDeclaredConstructor(types);
            return (Observation) canonical.newInstance(values);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot renumber " + o.kind(), e instanceof InvocationTargetException t
                    ? t.getCause() : e);
        }
    }
}
