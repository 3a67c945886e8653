package io.rdmascope.replay;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class RouteTableTest {
    private static Address v4(long a) {
        return new Address(Address.IPV4, 0, a);
    }

    @Test
    void everyKeyFieldSeparatesDirectionsAndGrowthKeepsThemAll() {
        RouteTable<String> table = new RouteTable<>();
        Address a = v4(0x0A000001L);
        Address b = v4(0x0A000002L);
        Address gidA = new Address(Address.IPV6, 0xFE80000000000000L, 0x0A000001L); // same low bits as a
        table.put(a, b, 0x11, -1, "a>b qp11");
        table.put(b, a, 0x11, -1, "b>a qp11");
        table.put(a, b, 0x11, 7, "a>b qp11 from ud 7");
        table.put(gidA, b, 0x11, -1, "gidA>b qp11");
        // Enough directions to grow the table several times over.
        for (int qp = 0; qp < 1_000; qp++) {
            table.put(v4(0x0B000000L + qp), b, qp, -1, "many " + qp);
        }
        assertEquals("a>b qp11", table.get(a, b, 0x11, -1));
        assertEquals("b>a qp11", table.get(b, a, 0x11, -1));
        assertEquals("a>b qp11 from ud 7", table.get(a, b, 0x11, 7));
        assertEquals("gidA>b qp11", table.get(Address.IPV6, gidA.hi(), gidA.lo(), 0, b.lo(), 0x11, -1));
        assertNull(table.get(a, b, 0x12, -1));
        assertNull(table.get(new Address(Address.LID, 0, 0x0A000001L), b, 0x11, -1), "a LID is not an IPv4 address");
        for (int qp = 0; qp < 1_000; qp++) {
            assertEquals("many " + qp, table.get(v4(0x0B000000L + qp), b, qp, -1));
        }
        assertEquals(1_004, table.size());
        table.put(a, b, 0x11, -1, "replaced");
        assertEquals("replaced", table.get(a, b, 0x11, -1));
        assertEquals(1_004, table.size());
    }

    @Test
    void aHandedOutFrameListNeverChangesAfterward() {
        FrameNumbers frames = new FrameNumbers(2);
        frames.add(10);
        frames.add(12);
        List<Integer> full = frames.toList(); // shares the full array
        frames.add(14);
        frames.clear();
        frames.add(99);
        frames.add(98);
        assertEquals(List.of(10, 12), full);
        assertEquals(List.of(98, 99), frames.toSortedList(), "capture order");
        assertEquals(List.of(99, 98), frames.toList(), "the order added");
        assertEquals(List.of(), new FrameNumbers(0).toList());

        FrameNumbers split = new FrameNumbers(2);
        split.add(5);
        split.add(6);
        List<Integer> before = split.toList();
        split.clear(); // a message split in two refills its list from the start
        split.add(7);
        assertEquals(List.of(5, 6), before);
    }
}
