package io.rdmascope.filter;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.field.FieldRegistry;
import io.rdmascope.field.FieldType;
import io.rdmascope.field.ValueNames;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The extension point for fields computed outside the dissectors, exercised with a fake of what the
 * replay engine will supply: per-frame analysis keyed by frame number.
 */
class FilterFieldProviderTest {
    private static final Path CAPTURE = Captures.sample("rc_loss_nak");

    /** A provider of a few analysis fields for rc_loss_nak, keyed by frame number. */
    static final class FakeAnalysis implements FilterFieldProvider {
        final List<String> asked = new ArrayList<>();
        private final Map<String, ProvidedField> fields = Map.of(
                "rdmascope.analysis.retransmission", provided(FieldType.BOOLEAN, null, (d, out) -> {
                    long n = d.frame().number();
                    if (n == 8 || n == 9 || n == 10 || n == 16 || n == 17) {
                        out.add(1);
                    } else if (d.rdma().isRdma()) {
                        out.add(0);
                    }
                }),
                "rdmascope.message.id", provided(FieldType.UINT32, null, (d, out) -> {
                    long n = d.frame().number();
                    if (n >= 3 && n <= 10) {
                        out.add(2);
                    } else if (n >= 12 && n <= 17) {
                        out.add(3);
                    }
                }),
                "rdmascope.analysis.acked_messages", provided(FieldType.UINT32, null, (d, out) -> {
                    if (d.frame().number() == 11) {
                        out.add(2).add(3); // two values: one frame can acknowledge several messages
                    }
                }),
                "rdmascope.analysis.kind", provided(FieldType.UINT8, ValueNames.of(0, "ok", 1, "nak", 2, "retry"),
                        (d, out) -> out.add(d.frame().number() == 7 || d.frame().number() == 15 ? 1 : 0)),
                "rdmascope.message.note", provided(FieldType.STRING, null, (d, out) -> {
                    if (d.frame().number() == 7) {
                        out.add("PSN sequence error: 15278830 missing");
                    }
                }),
                "rdmascope.message.requester", provided(FieldType.IPV4, null, (d, out) -> out.add(0x0a000001L)),
                "rdmascope.message.gid", provided(FieldType.IPV6, null, (d, out) -> {
                    byte[] gid = new byte[16];
                    gid[10] = (byte) 0xff;
                    gid[11] = (byte) 0xff;
                    gid[12] = 10;
                    gid[15] = (byte) d.frame().number();
                    out.add(gid);
                }),
                "rdmascope.message.payload", provided(FieldType.BYTES, null, (d, out) -> {
                    if (d.frame().number() == 3) {
                        out.add(new byte[]{(byte) 0xde, (byte) 0xad, (byte) 0xbe, (byte) 0xef});
                    }
                }));

        @Override
        public ProvidedField field(String name) {
            asked.add(name);
            return fields.get(name);
        }

        @Override
        public Collection<String> names() {
            return fields.keySet();
        }
    }

    private static ProvidedField provided(FieldType type, ValueNames names, BiConsumer<Dissection, FilterValues> values) {
        return new ProvidedField() {
            @Override
            public FieldType type() {
                return type;
            }

            @Override
            public ValueNames valueNames() {
                return names;
            }

            @Override
            public void values(Dissection d, FilterValues out) {
                values.accept(d, out);
            }
        };
    }

    private static List<Long> matching(String filter) throws Exception {
        return Captures.matching(CAPTURE, DisplayFilter.compile(filter, FieldRegistry.standard(),
                List.of(new FakeAnalysis())));
    }

    @Test
    void providedFieldsFilterLikeDeclaredOnes() throws Exception {
        assertEquals(List.of(8L, 9L, 10L, 16L, 17L), matching("rdmascope.analysis.retransmission == 1"));
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 11L, 12L, 13L, 14L, 15L, 18L, 19L, 20L, 21L, 22L),
                matching("rdmascope.analysis.retransmission == False"));
        assertEquals(List.of(12L, 13L, 14L, 15L, 16L, 17L), matching("rdmascope.message.id == 3 || frame.number == 15"));
        assertEquals(List.of(3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 12L, 13L, 14L, 15L, 16L, 17L),
                matching("rdmascope.message.id"));
        assertEquals(List.of(7L, 15L), matching("rdmascope.analysis.kind == nak"));
        assertEquals(List.of(7L), matching("rdmascope.message.note contains \"15278830\""));
        assertEquals(List.of(7L), matching("rdmascope.message.note matches \"^psn sequence\""));
        assertEquals(22, matching("rdmascope.message.requester == 10.0.0.0/24").size());
        assertEquals(List.of(3L), matching("rdmascope.message.gid == ::ffff:10.0.0.3"));
        assertEquals(List.of(3L), matching("rdmascope.message.payload[1:2] == ad:be"));
        assertEquals(List.of(3L), matching("len(rdmascope.message.payload) == 4"));
        assertEquals(List.of(3L), matching("rdmascope.message.requester[3] == 01 && infiniband.reth"));
    }

    @Test
    void severalValuesFollowTheSameQuantifiersAsDeclaredFields() throws Exception {
        assertEquals(List.of(11L), matching("rdmascope.analysis.acked_messages == 3"));
        assertEquals(List.of(), matching("rdmascope.analysis.acked_messages != 3"), "!= is all_ne");
        assertEquals(List.of(11L), matching("rdmascope.analysis.acked_messages !== 3"), "!== is any_ne");
        assertEquals(List.of(11L), matching("count(rdmascope.analysis.acked_messages) == 2"));
        assertEquals(List.of(11L), matching("rdmascope.analysis.acked_messages in {3, 7..9}"));
    }

    @Test
    void providedFieldsAreTypeCheckedAtCompileTime() {
        FilterException e = assertThrows(FilterException.class, () -> DisplayFilter.compile(
                "rdmascope.message.id contains 02", FieldRegistry.standard(), List.of(new FakeAnalysis())));
        assertEquals("column 1: 'contains' needs bytes, a MAC address, a protocol or a string on its left; "
                + "rdmascope.message.id is an unsigned integer", e.getMessage());
        e = assertThrows(FilterException.class, () -> DisplayFilter.compile("rdmascope.message.requester == "
                + "02:1e:67:00:00:01", FieldRegistry.standard(), List.of(new FakeAnalysis())));
        assertEquals(32, e.column());
        e = assertThrows(FilterException.class, () -> DisplayFilter.compile("rdmascope.analysis.kind == bogus",
                FieldRegistry.standard(), List.of(new FakeAnalysis())));
        assertEquals("column 28: 'bogus' is neither a number nor a value name of rdmascope.analysis.kind",
                e.getMessage());
        e = assertThrows(FilterException.class, () -> DisplayFilter.compile("rdmascope.message.id#1 == 2",
                FieldRegistry.standard(), List.of(new FakeAnalysis())));
        assertEquals("column 21: a layer number needs a dissected field; rdmascope.message.id is supplied per frame",
                e.getMessage());
    }

    @Test
    void misspeltProvidedNamesGetASuggestion() {
        FilterException e = assertThrows(FilterException.class, () -> DisplayFilter.compile(
                "rdmascope.analysis.retransmision", FieldRegistry.standard(), List.of(new FakeAnalysis())));
        assertEquals("column 1: unknown field 'rdmascope.analysis.retransmision' (did you mean "
                + "'rdmascope.analysis.retransmission'?)", e.getMessage());
        e = assertThrows(FilterException.class, () -> DisplayFilter.compile("rdmascope.analysis.retransmission"));
        assertEquals("column 1: unknown field 'rdmascope.analysis.retransmission'", e.getMessage(),
                "without the provider the name is unknown");
    }

    @Test
    void theRegistryIsAskedFirstAndProvidersOnlyForNamesItLacks() throws FilterException {
        FakeAnalysis provider = new FakeAnalysis();
        DisplayFilter.compile("ip.src == 10.0.0.1 && rdmascope.message.id == 2 && frame.len > 60",
                FieldRegistry.standard(), List.of(provider));
        assertTrue(provider.asked.contains("rdmascope.message.id"));
        assertFalse(provider.asked.contains("ip.src"));
        assertFalse(provider.asked.contains("frame.len"));
    }

    @Test
    void copiesEvaluateIndependently() throws Exception {
        DisplayFilter f = DisplayFilter.compile("rdmascope.message.id == 2", FieldRegistry.standard(),
                List.of(new FakeAnalysis()));
        DisplayFilter copy = f.copy();
        assertEquals(f.text(), copy.text());
        assertEquals(Captures.matching(CAPTURE, f), Captures.matching(CAPTURE, copy));
    }
}
