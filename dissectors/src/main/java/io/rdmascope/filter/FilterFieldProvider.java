package io.rdmascope.filter;

import java.util.Collection;
import java.util.List;

/**
 * Fields that the dissectors do not declare but a display filter may name: the replay engine's
 * per-frame analysis ({@code rdmascope.analysis.*}, {@code rdmascope.message.*}) is the case in
 * mind. The compiler asks providers, in order, for every name the {@link io.rdmascope.field.FieldRegistry}
 * does not know; the first non-null answer wins, and its type checks the filter like a registry
 * field's.
 *
 * <p>Pitfall: the values are asked for during {@link DisplayFilter#matches}, so a provider must
 * already know about the frame in the dissection it is given (for the replay engine: feed the
 * frame to the engine first, then filter).
 */
public interface FilterFieldProvider {
    /** The field named {@code name}, or null when this provider does not supply it. */
    ProvidedField field(String name);

    /** The names this provider supplies, used only to suggest a name for a misspelt one. */
    default Collection<String> names() {
        return List.of();
    }
}
