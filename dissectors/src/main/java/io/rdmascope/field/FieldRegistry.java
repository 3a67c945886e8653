package io.rdmascope.field;

import io.rdmascope.dissect.ProtocolModule;
import io.rdmascope.proto.Protocols;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every header type and field the dissectors can produce, looked up by filter abbreviation: what
 * {@code -e NAME}, display filters and GUI columns resolve names through. Built from the protocol
 * declarations; immutable once built.
 */
public final class FieldRegistry {
    /** A resolvable name: a field, a header type (its bytes) or a whole protocol (its presence). */
    public sealed interface Entry permits FieldEntry, HeaderEntry, ProtocolEntry {
        String abbrev();

        /** Header types in which this name occurs. */
        List<HeaderType> headers();
    }

    /** A field, with every header type that declares it (SLL and SLL2 share names, as in Wireshark). */
    public record FieldEntry(Field field, List<HeaderType> headers) implements Entry {
        public String abbrev() {
            return field.abbrev();
        }
    }

    /** A header type named by its own abbreviation, e.g. {@code infiniband.bth}. */
    public record HeaderEntry(HeaderType header) implements Entry {
        public String abbrev() {
            return header.abbrev();
        }

        public List<HeaderType> headers() {
            return List.of(header);
        }
    }

    /** A protocol with no header of the same name, e.g. {@code infiniband}: present when any of its headers is. */
    public record ProtocolEntry(Protocol protocol, List<HeaderType> headers) implements Entry {
        public String abbrev() {
            return protocol.abbrev();
        }
    }

    private static final FieldRegistry STANDARD = build(standardHeaders());

    private final Map<String, Entry> entries;
    private final List<HeaderType> headers;

    private FieldRegistry(Map<String, Entry> entries, List<HeaderType> headers) {
        this.entries = Collections.unmodifiableMap(entries);
        this.headers = List.copyOf(headers);
    }

    /** The registry of every protocol this build decodes. */
    public static FieldRegistry standard() {
        return STANDARD;
    }

    /** Every package's header types, in {@link Protocols#ALL} order. */
    public static List<HeaderType> standardHeaders() {
        List<HeaderType> all = new ArrayList<>();
        for (ProtocolModule m : Protocols.ALL) {
            all.addAll(m.headers());
        }
        return all;
    }

    /** Builds a registry; fails on an abbreviation declared twice with different types. */
    public static FieldRegistry build(Collection<HeaderType> headerTypes) {
        Map<String, Entry> map = new LinkedHashMap<>();
        Map<String, List<HeaderType>> protocolHeaders = new LinkedHashMap<>();
        Map<String, Protocol> protocols = new LinkedHashMap<>();
        for (HeaderType h : headerTypes) {
            protocolHeaders.computeIfAbsent(h.protocol().abbrev(), k -> new ArrayList<>()).add(h);
            protocols.putIfAbsent(h.protocol().abbrev(), h.protocol());
            Entry existing = map.get(h.abbrev());
            if (existing == null) {
                map.put(h.abbrev(), new HeaderEntry(h));
            } else if (!(existing instanceof HeaderEntry he && he.header().protocol().abbrev()
                    .equals(h.protocol().abbrev()))) {
                throw new IllegalStateException("abbreviation declared twice: " + h.abbrev());
            }
            for (Field f : h.fields()) {
                Entry e = map.get(f.abbrev());
                if (e == null) {
                    List<HeaderType> in = new ArrayList<>();
                    in.add(h);
                    map.put(f.abbrev(), new FieldEntry(f, in));
                } else if (e instanceof FieldEntry fe && fe.field().type() == f.type()) {
                    fe.headers().add(h);
                } else {
                    throw new IllegalStateException("abbreviation declared twice with different types: "
                            + f.abbrev());
                }
            }
        }
        for (Map.Entry<String, Protocol> p : protocols.entrySet()) {
            if (!map.containsKey(p.getKey())) {
                map.put(p.getKey(), new ProtocolEntry(p.getValue(), List.copyOf(protocolHeaders.get(p.getKey()))));
            }
        }
        Map<String, Entry> frozen = new LinkedHashMap<>();
        for (Map.Entry<String, Entry> e : map.entrySet()) {
            Entry v = e.getValue();
            frozen.put(e.getKey(), v instanceof FieldEntry fe ? new FieldEntry(fe.field(), List.copyOf(fe.headers())) : v);
        }
        return new FieldRegistry(frozen, new ArrayList<>(headerTypes));
    }

    /** The entry named {@code abbrev}, or null. */
    public Entry lookup(String abbrev) {
        return entries.get(abbrev);
    }

    /** All entries in declaration order. */
    public Collection<Entry> entries() {
        return entries.values();
    }

    public List<HeaderType> headerTypes() {
        return headers;
    }
}
