package io.rdmascope.filter;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Filters over the committed sample captures, with the frames each one passes. Where tshark 4.0
 * knows every name in a filter the expected frames are what {@code tshark -Y} printed; the rest use
 * fields only rdmascope has (ICRC status, FECN/BECN, CNP, XRCETH, ImmDt value, header names such as
 * infiniband.cm.req_msg) and were checked against each case's truth.json and -T fields output.
 */
class SampleCaptureFilterTest {

    /** capture | filter | frames ("-" for none, "a-b" for a run). */
    private static final String TABLE = """
            rc_loss_nak    | infiniband.aeth                                              | 2 7 11 15 18 20 22
            rc_loss_nak    | infiniband.aeth.syndrome.opcode == Nak                       | 7 15
            rc_loss_nak    | infiniband.aeth.syndrome.opcode == 3                         | 7 15
            rc_loss_nak    | infiniband.aeth.syndrome.error_code == "PSN Sequence Error"  | 7 15
            rc_loss_nak    | infiniband.bth.opcode == 4                                   | 1 19 21
            rc_loss_nak    | infiniband.bth.opcode == "Reliable Connection (RC) - SEND Only" | 1 19 21
            rc_loss_nak    | infiniband.bth.opcode in {6, 7, 8}                           | 3-6 8-10
            rc_loss_nak    | infiniband.bth.opcode in {0..2}                              | 12-14 16 17
            rc_loss_nak    | infiniband.bth.opcode not in {0..2, 17}                      | 1 3-6 8-10 19 21
            rc_loss_nak    | infiniband.bth.a == 1                                        | 1 6 10 14 17 19 21
            rc_loss_nak    | infiniband.bth.a == True                                     | 1 6 10 14 17 19 21
            rc_loss_nak    | infiniband.bth.a == false                                    | 2-5 7-9 11-13 15 16 18 20 22
            rc_loss_nak    | infiniband.bth.psn == 15278830                               | 7 8
            rc_loss_nak    | infiniband.bth.psn >= 15278834 and not infiniband.aeth       | 13 14 16 17 19 21
            rc_loss_nak    | ip.src == 10.0.0.2                                           | 2 7 11 15 18 20 22
            rc_loss_nak    | ip.addr != 10.0.0.1                                          | -
            rc_loss_nak    | ip.addr !== 10.0.0.1                                         | 1-22
            rc_loss_nak    | ip.addr == 10.0.0.0/24                                       | 1-22
            rc_loss_nak    | infiniband.reth[0:4] == 00:00:7f:3a                          | 3
            rc_loss_nak    | eth.src[0:3] == 02:1e:67                                     | 1-22
            rc_loss_nak    | eth.src == 02-1e-67-00-00-02                                 | 2 7 11 15 18 20 22
            rc_loss_nak    | frame.number in {1..3, 20..22}                               | 1-3 20-22
            rc_loss_nak    | ip.addr#1 == 10.0.0.2 && ip.dst in {ip.src, 10.0.0.1}         | 2 7 11 15 18 20 22
            rc_loss_nak    | frame.time_relative > 0.00002                                | 11-22
            rc_loss_nak    | frame.len == 62                                              | 2 7 11 15 18 20 22
            rc_loss_nak    | len(infiniband) == 516                                       | 1
            rc_loss_nak    | infiniband.invariant.crc.status == Good                      | 1-22
            rc_loss_nak    | frame.protocols contains "data" && infiniband.bth.a          | 1 3-6 8-10 12-14 16 17 19 21
            congestion_ecn | ip.dsfield.ecn == 3                                          | 9-12
            congestion_ecn | ip.dsfield.ecn == "Congestion Experienced"                   | 9-12
            congestion_ecn | ip.dsfield.ecn == 3 && infiniband.bth.opcode in {6..8}      | 9-12
            congestion_ecn | infiniband.cnp                                               | 18
            congestion_ecn | infiniband.bth.becn == 1                                     | 18
            congestion_ecn | infiniband.bth.fecn                                          | 1-18
            congestion_ecn | infiniband.bth.fecn == 1                                     | -
            congestion_ecn | infiniband.bth.opcode == 0x81                                | 18
            cm_lifecycle   | infiniband.mad.attributeid == 0x0010                         | 1 14
            cm_lifecycle   | infiniband.cm.req_msg                                        | 1 14
            cm_lifecycle   | infiniband.cm.rej_msg                                        | 15
            cm_lifecycle   | infiniband.bth.destqp == 1                                   | 1-3 12-15
            cm_lifecycle   | infiniband.cm.req.localqpn == 0x009833                       | 1
            cm_lifecycle   | infiniband.mad && ip.dst == 10.0.0.3                         | 14
            cm_lifecycle   | !infiniband.mad && infiniband.reth                           | 6 10
            roce_v2_vlan   | vlan.id == 100                                               | 1-11
            roce_v2_vlan   | vlan.priority == 3 && infiniband.atomiceth                   | 10
            roce_v2_vlan   | infiniband.bth.opcode in {16..20}                            | 2 6 10 11
            roce_v2_vlan   | infiniband.atomicacketh                                      | 11
            roce_v2_ipv6   | ipv6.src == fd00::1                                          | 1 3-5 7 10
            roce_v2_ipv6   | ipv6.dst == fd00::1 && infiniband.aeth                       | 2 6 8 9 11
            roce_v2_ipv6   | ipv6.addr == fd00::2/127                                     | 1-11
            roce_v2_ipv6   | ipv6.src[15] == 02                                           | 2 6 8 9 11
            roce_v2_ipv6   | ip                                                           | -
            violation_bad_icrc | infiniband.invariant.crc.status == Bad                   | 4
            violation_bad_icrc | infiniband.invariant.crc.status == 0                     | 4
            violation_bad_icrc | infiniband.invariant.crc != infiniband.invariant.crc.computed | 4
            uc_ud_xrc      | infiniband.xrceth.xrcsrq == 0x96                             | 10 11 13
            uc_ud_xrc      | infiniband.immdt.value == 0x55aa55aa                         | 8
            uc_ud_xrc      | infiniband.deth.q_key == 0x1111013d                          | 7-9
            captures/roce_v2_mixed.pcapng | infiniband.bth.opcode == 0x0c                 | 1 12 15 21 26 28 50 99 104 106 150 166 189 195 200 203 226 267 296
            captures/roce_v2_mixed.pcapng | ip.src == 10.0.0.1 && infiniband.bth.opcode == 12 | 26 99 200
            captures/roce_v2_mixed.pcapng | infiniband.aeth && ip.dst == 10.0.0.1          | 11 27 43 83 92 100 103 129 132 146 165 201 202 278 283 286 295
            captures/roce_v2_mixed.pcapng | infiniband.bth.opcode == 4 && udp.srcport > 60000 | 48 79 91 118 160 162 164 279
            """;

    static Stream<Arguments> table() {
        return TABLE.lines().filter(l -> !l.isBlank()).map(line -> {
            String[] cells = line.split("\\|");
            return Arguments.of(cells[0].strip(), cells[1].strip(), frames(cells[2].strip()));
        });
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("table")
    void filterPassesExactlyTheExpectedFrames(String capture, String filter, List<Long> expected) throws Exception {
        assertEquals(expected, Captures.matching(Captures.sample(capture), filter), filter);
    }

    private static List<Long> frames(String spec) {
        List<Long> out = new ArrayList<>();
        if (spec.equals("-")) {
            return out;
        }
        for (String part : spec.split("\\s+")) {
            if (part.contains("-")) {
                long[] r = Arrays.stream(part.split("-")).mapToLong(Long::parseLong).toArray();
                for (long n = r[0]; n <= r[1]; n++) {
                    out.add(n);
                }
            } else {
                out.add(Long.parseLong(part));
            }
        }
        return out;
    }
}
