package io.rdmascope.cli;

import io.rdmascope.text.ProtocolHierarchy;
import io.rdmascope.dissect.Dissection;
import io.rdmascope.replay.IcrcCheck;

/**
 * One {@code dissect -z} statistic: fed every frame the -Y filter keeps (as tshark's taps see only the
 * frames that pass -Y), printed after the frames in tshark's layout. tshark prints its statistics in
 * the reverse order of its -z options, and so does dissect.
 */
sealed interface FrameStatistic permits FrameStatistic.Hierarchy, FrameStatistic.Addresses, FrameStatistic.Rdma {
    String RULE = "===================================================================";
    String KNOWN = "io,phs; conv,TYPE or endpoints,TYPE with TYPE eth, ip, ipv6, udp, tcp or ib; rdma,srt";

    void frame(Dissection d);

    void print(StringBuilder out);

    /** The statistic a -z argument names; a usage error for one rdmascope does not compute. */
    static FrameStatistic parse(String text, IcrcCheck icrc) {
        String z = text.strip();
        if (z.equals("io,phs")) {
            return new Hierarchy(new ProtocolHierarchy());
        }
        if (z.equals("rdma,srt")) {
            return new Rdma(new RdmaStatistics(icrc), Rdma.Table.SERVICE_RESPONSE_TIMES);
        }
        int comma = z.indexOf(',');
        String family = comma < 0 ? z : z.substring(0, comma);
        String type = comma < 0 ? "" : z.substring(comma + 1);
        if (family.equals("conv") || family.equals("endpoints")) {
            boolean conv = family.equals("conv");
            if (type.equals("ib")) {
                return new Rdma(new RdmaStatistics(icrc), conv ? Rdma.Table.CONVERSATIONS : Rdma.Table.ENDPOINTS);
            }
            AddressConversations.Kind kind = AddressConversations.Kind.of(type);
            if (kind != null) {
                return new Addresses(new AddressConversations(kind), !conv);
            }
        }
        throw new DissectCommand.UsageError("-z " + text + ": rdmascope computes " + KNOWN + " (docs/cli.md)");
    }

    /** {@code -z io,phs}: tshark's protocol hierarchy, in its frame of '=' lines. */
    record Hierarchy(ProtocolHierarchy hierarchy) implements FrameStatistic {
        @Override
        public void frame(Dissection d) {
            hierarchy.add(d, d.frame().wireLength()); // as summary counts them
        }

        @Override
        public void print(StringBuilder out) {
            out.append('\n').append(RULE).append("\nProtocol Hierarchy Statistics\nFilter: \n\n");
            ProtocolHierarchy.print(out, hierarchy.tree());
            out.append(RULE).append('\n');
        }
    }

    /** {@code -z conv,eth|ip|ipv6|udp|tcp} or, with {@code endpoints}, {@code -z endpoints,…}. */
    record Addresses(AddressConversations table, boolean endpoints) implements FrameStatistic {
        @Override
        public void frame(Dissection d) {
            table.frame(d);
        }

        @Override
        public void print(StringBuilder out) {
            if (endpoints) {
                table.printEndpoints(out);
            } else {
                table.printConversations(out);
            }
        }
    }

    /** {@code -z conv,ib}, {@code -z endpoints,ib} and {@code -z rdma,srt}: from a replay of the kept frames. */
    record Rdma(RdmaStatistics statistics, Table table) implements FrameStatistic {
        enum Table { CONVERSATIONS, ENDPOINTS, SERVICE_RESPONSE_TIMES }

        @Override
        public void frame(Dissection d) {
            statistics.frame(d);
        }

        @Override
        public void print(StringBuilder out) {
            switch (table) {
                case CONVERSATIONS -> statistics.printConversations(out);
                case ENDPOINTS -> statistics.printEndpoints(out);
                case SERVICE_RESPONSE_TIMES -> statistics.printServiceResponseTimes(out);
            }
        }
    }
}
