package io.rdmascope.field;

import io.rdmascope.testsupport.SharedFiles;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The whole registry: names unique, each under its protocol, and spelled as Wireshark spells them. */
class FieldRegistryTest {
    private final FieldRegistry registry = FieldRegistry.standard();

    @Test
    void everyAbbreviationIsUniqueAndUnderItsProtocolsPrefix() {
        Set<String> seen = new HashSet<>();
        for (HeaderType h : registry.headerTypes()) {
            String prefix = h.protocol().abbrev();
            assertTrue(h.abbrev().equals(prefix) || h.abbrev().startsWith(prefix + "."),
                    h.abbrev() + " is not under " + prefix);
            for (Field f : h.fields()) {
                assertTrue(f.abbrev().startsWith(prefix + "."), f.abbrev() + " is not under " + prefix + ".");
                FieldRegistry.Entry e = registry.lookup(f.abbrev());
                assertTrue(e instanceof FieldRegistry.FieldEntry fe && fe.field().type() == f.type(),
                        f.abbrev() + " resolves to something else");
                seen.add(f.abbrev());
            }
        }
        long fieldEntries = registry.entries().stream().filter(e -> e instanceof FieldRegistry.FieldEntry).count();
        assertEquals(seen.size(), fieldEntries);
    }

    @Test
    void aDuplicateAbbreviationWithAnotherTypeIsRefused() {
        Protocol p = new Protocol("test", "Test");
        HeaderType a = HeaderType.protocolHeader(p, Field.uint8("test.x", "X", 0));
        HeaderType b = HeaderType.subHeader(p, "test.b", "B", Field.uint16("test.x", "X", 0));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> FieldRegistry.build(List.of(a, b)));
    }

    /**
     * Where Wireshark has a field of the same name, ours has the same type, base and mask, so that a
     * filter or -e written for Wireshark means the same here. Listed exceptions are deliberate.
     */
    @Test
    void everyNameWiresharkAlsoHasIsDeclaredAsWiresharkDeclaresIt() throws IOException {
        Path tsv = SharedFiles.reference("wireshark-fields.tsv");
        Map<String, String[]> wireshark = new HashMap<>();
        for (String line : Files.readAllLines(tsv)) {
            String[] cols = line.split("\t", -1);
            if (cols.length >= 5 && !line.startsWith("#")) {
                wireshark.put(cols[0], cols);
            }
        }
        List<String> problems = new ArrayList<>();
        int matched = 0;
        for (FieldRegistry.Entry e : registry.entries()) {
            String[] ws = wireshark.get(e.abbrev());
            if (ws == null) {
                continue;
            }
            matched++;
            if (e instanceof FieldRegistry.FieldEntry fe) {
                Field f = fe.field();
                String type = "FT_" + f.type().name().replace("IPV", "IPv");
                if (!ws[1].equals(type)) {
                    problems.add(e.abbrev() + ": type " + type + " but Wireshark " + ws[1]);
                }
                if (f.isComputed()) {
                    continue;
                }
                long mask = Long.decode(ws[4]);
                if (mask != 0 && mask != f.mask()) {
                    problems.add(e.abbrev() + ": mask 0x" + Long.toHexString(f.mask()) + " but Wireshark " + ws[4]);
                }
                boolean wsHex = ws[3].startsWith("BASE_HEX");
                boolean ourHex = f.base() == Base.HEX || f.base() == Base.HEX_DEC;
                if (f.type().isUnsignedInteger() && wsHex != ourHex) {
                    problems.add(e.abbrev() + ": base " + f.base() + " but Wireshark " + ws[3]);
                }
            } else if (e instanceof FieldRegistry.HeaderEntry he) {
                String type = "FT_" + he.header().selfType().name();
                if (!ws[1].equals(type)) {
                    problems.add(e.abbrev() + ": header printed as " + type + " but Wireshark " + ws[1]);
                }
            }
        }
        assertTrue(matched > 80, "only " + matched + " names shared with Wireshark");
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    /** The names we add for what Wireshark 4.0 lacks; a typo in a Wireshark name would land here. */
    @Test
    void namesWiresharkLacksAreTheOnesWeMeantToAdd() throws IOException {
        Path tsv = SharedFiles.reference("wireshark-fields.tsv");
        Set<String> wireshark = new HashSet<>();
        for (String line : Files.readAllLines(tsv)) {
            wireshark.add(line.split("\t", -1)[0]);
        }
        List<String> ours = new ArrayList<>();
        for (FieldRegistry.Entry e : registry.entries()) {
            if (e.abbrev().startsWith("infiniband.") && !e.abbrev().startsWith("infiniband.cm.")
                    && !e.abbrev().startsWith("infiniband.mad") && !wireshark.contains(e.abbrev())) {
                ours.add(e.abbrev());
            }
        }
        Set<String> intended = Set.of("infiniband.bth.fecn", "infiniband.bth.becn", "infiniband.bth.reserved6",
                "infiniband.atomiceth.va", "infiniband.atomiceth.r_key", "infiniband.immdt.value",
                "infiniband.ieth.r_key", "infiniband.xrceth", "infiniband.xrceth.xrcsrq", "infiniband.feth",
                "infiniband.feth.sel", "infiniband.feth.plt", "infiniband.cnp", "infiniband.cnp.reserved",
                // Mellanox DC (issue 16, docs/dc.md): Wireshark 4.0 names none of these bytes.
                "infiniband.dceth", "infiniband.dceth.flags", "infiniband.dceth.srcqp", "infiniband.dceth.dctn",
                "infiniband.dceth.id", "infiniband.dcceth", "infiniband.dcceth.control", "infiniband.dcceth.reserved",
                "infiniband.dcceth.access_key",
                "infiniband.vendor.data", "infiniband.pad", "infiniband.pad.bytes", "infiniband.invariant",
                "infiniband.invariant.crc.computed", "infiniband.invariant.crc.status", "infiniband.variant",
                "infiniband.variant.crc.computed", "infiniband.variant.crc.status");
        List<String> unexpected = ours.stream().filter(n -> !intended.contains(n)).toList();
        assertTrue(unexpected.isEmpty(), "names not in Wireshark and not on our list: " + unexpected);
    }
}
