package io.rdmascope.filter;

import io.rdmascope.dissect.Dissection;

import java.nio.ByteBuffer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A compiled test: true or false for the frame in a {@link Dissection}. Quantifiers follow
 * tshark 4.0 for fields with several values (verified with {@code ip.addr}): {@code ==} and the
 * orderings hold if any value does, {@code !=} if every value differs, {@code ===} if every value
 * equals, {@code !==} if any value differs; a field the frame lacks makes every comparison false.
 */
abstract class Node {
    abstract boolean eval(Dissection d);

    /** The relation of a comparison, applied to a {@code compare(value, other)} result. */
    enum Relation {
        EQ, NE, LT, LE, GT, GE;

        boolean holds(int c) {
            return switch (this) {
                case EQ -> c == 0;
                case NE -> c != 0;
                case LT -> c < 0;
                case LE -> c <= 0;
                case GT -> c > 0;
                case GE -> c >= 0;
            };
        }
    }

    static final class And extends Node {
        private final Node left;
        private final Node right;

        And(Node left, Node right) {
            this.left = left;
            this.right = right;
        }

        @Override
        boolean eval(Dissection d) {
            return left.eval(d) && right.eval(d);
        }
    }

    static final class Or extends Node {
        private final Node left;
        private final Node right;

        Or(Node left, Node right) {
            this.left = left;
            this.right = right;
        }

        @Override
        boolean eval(Dissection d) {
            return left.eval(d) || right.eval(d);
        }
    }

    static final class Not extends Node {
        private final Node operand;

        Not(Node operand) {
            this.operand = operand;
        }

        @Override
        boolean eval(Dissection d) {
            return !operand.eval(d);
        }
    }

    /** A field, protocol, slice or function result standing alone: present (has a value). */
    static final class Exists extends Node {
        private final Operand operand;

        Exists(Operand operand) {
            this.operand = operand;
        }

        Operand operand() {
            return operand;
        }

        @Override
        boolean eval(Dissection d) {
            operand.reset(d);
            return operand.next();
        }
    }

    /** {@code x & mask} standing alone: some value is not zero. */
    static final class NonZero extends Node {
        private final Operand operand;

        NonZero(Operand operand) {
            this.operand = operand;
        }

        @Override
        boolean eval(Dissection d) {
            operand.reset(d);
            while (operand.next()) {
                if (operand.kind.isLong()) {
                    if (operand.longValue() != 0) {
                        return true;
                    }
                } else {
                    ByteBuffer b = operand.bytes();
                    for (int i = operand.at(), end = i + operand.length(); i < end; i++) {
                        if (b.get(i) != 0) {
                            return true;
                        }
                    }
                }
            }
            return false;
        }
    }

    /** A value against a constant: the fast path, no allocation. */
    static final class CompareConstant extends Node {
        private final Operand operand;
        private final Relation relation;
        private final boolean all;
        private final Constant constant;

        CompareConstant(Operand operand, Relation relation, boolean all, Constant constant) {
            this.operand = operand;
            this.relation = relation;
            this.all = all;
            this.constant = constant;
        }

        @Override
        boolean eval(Dissection d) {
            operand.reset(d);
            if (!all) {
                while (operand.next()) {
                    if (relation.holds(constant.compare(operand))) {
                        return true;
                    }
                }
                return false;
            }
            boolean any = false;
            while (operand.next()) {
                any = true;
                if (!relation.holds(constant.compare(operand))) {
                    return false;
                }
            }
            return any;
        }
    }

    /** How two operands compare, chosen once their types are known. */
    enum Domain {
        UNSIGNED, SIGNED, BOOL, BYTES, TEXT;

        int compare(Operand a, Operand b) {
            return switch (this) {
                case UNSIGNED -> Long.compareUnsigned(a.longValue(), b.longValue());
                case SIGNED -> Long.compare(a.longValue(), b.longValue());
                case BOOL -> Boolean.compare(a.longValue() != 0, b.longValue() != 0);
                case BYTES -> compareBytes(a.bytes(), a.at(), a.length(), b.bytes(), b.at(), b.length());
                case TEXT -> compareText(a.text(), b.text());
            };
        }
    }

    /** Two operands: every pair of their values, quantified as for a constant. */
    static final class CompareOperands extends Node {
        private final Operand left;
        private final Relation relation;
        private final boolean all;
        private final Operand right;
        private final Domain domain;

        CompareOperands(Operand left, Relation relation, boolean all, Operand right, Domain domain) {
            this.left = left;
            this.relation = relation;
            this.all = all;
            this.right = right;
            this.domain = domain;
        }

        @Override
        boolean eval(Dissection d) {
            boolean any = false;
            left.reset(d);
            while (left.next()) {
                right.reset(d);
                while (right.next()) {
                    any = true;
                    boolean holds = relation.holds(domain.compare(left, right));
                    if (holds != all) {
                        return holds;
                    }
                }
            }
            return all && any;
        }
    }

    /**
     * {@code x in {…}}: some value equals a member (a constant, or any value of a field member) or
     * lies in a member range (ends included).
     */
    static final class InSet extends Node {
        private final Operand operand;
        private final Constant[] lows;
        private final Constant[] highs;
        private final Operand[] fields;
        private final Domain[] domains;

        InSet(Operand operand, Constant[] lows, Constant[] highs, Operand[] fields, Domain[] domains) {
            this.operand = operand;
            this.lows = lows;
            this.highs = highs;
            this.fields = fields;
            this.domains = domains;
        }

        @Override
        boolean eval(Dissection d) {
            operand.reset(d);
            while (operand.next()) {
                for (int i = 0; i < lows.length; i++) {
                    if (fields[i] != null) {
                        Operand member = fields[i];
                        member.reset(d);
                        while (member.next()) {
                            if (domains[i].compare(operand, member) == 0) {
                                return true;
                            }
                        }
                    } else if (highs[i] == null) {
                        if (lows[i].compare(operand) == 0) {
                            return true;
                        }
                    } else if (lows[i].compare(operand) >= 0 && highs[i].compare(operand) <= 0) {
                        return true;
                    }
                }
            }
            return false;
        }
    }

    /** {@code x contains bytes}. */
    static final class ContainsBytes extends Node {
        private final Operand operand;
        private final byte[] needle;

        ContainsBytes(Operand operand, byte[] needle) {
            this.operand = operand;
            this.needle = needle;
        }

        @Override
        boolean eval(Dissection d) {
            operand.reset(d);
            while (operand.next()) {
                if (indexOf(operand.bytes(), operand.at(), operand.length(), needle) >= 0) {
                    return true;
                }
            }
            return false;
        }
    }

    /** {@code string contains "text"} (case-sensitive, as in Wireshark). */
    static final class ContainsText extends Node {
        private final Operand operand;
        private final String needle;

        ContainsText(Operand operand, String needle) {
            this.operand = operand;
            this.needle = needle;
        }

        @Override
        boolean eval(Dissection d) {
            operand.reset(d);
            while (operand.next()) {
                if (indexOf(operand.text(), needle) >= 0) {
                    return true;
                }
            }
            return false;
        }
    }

    /** {@code x contains y} for two operands. */
    static final class ContainsOperand extends Node {
        private final Operand left;
        private final Operand right;
        private final boolean text;

        ContainsOperand(Operand left, Operand right, boolean text) {
            this.left = left;
            this.right = right;
            this.text = text;
        }

        @Override
        boolean eval(Dissection d) {
            left.reset(d);
            while (left.next()) {
                right.reset(d);
                while (right.next()) {
                    boolean found = text ? indexOf(left.text(), right.text().toString()) >= 0
                            : indexOf(left.bytes(), left.at(), left.length(), right.bytes(), right.at(),
                            right.length()) >= 0;
                    if (found) {
                        return true;
                    }
                }
            }
            return false;
        }
    }

    /** {@code x matches "regex"}: a match anywhere in some value. */
    static final class Matches extends Node {
        private final Operand operand;
        private final Matcher matcher;

        Matches(Operand operand, Pattern pattern) {
            this.operand = operand;
            this.matcher = pattern.matcher("");
        }

        @Override
        boolean eval(Dissection d) {
            operand.reset(d);
            while (operand.next()) {
                if (matcher.reset(operand.text()).find()) {
                    return true;
                }
            }
            return false;
        }
    }

    /** Matches every frame: the blank filter. */
    static final class Always extends Node {
        @Override
        boolean eval(Dissection d) {
            return true;
        }
    }

    // ---- constants ------------------------------------------------------------------------------

    /** A literal read for the type it is compared with; {@link #compare} orders an operand's value against it. */
    abstract static class Constant {
        /** Negative, zero or positive as the operand's current value is below, equal to or above this. */
        abstract int compare(Operand o);
    }

    static final class LongConstant extends Constant {
        private final long value;
        private final boolean unsigned;

        LongConstant(long value, boolean unsigned) {
            this.value = value;
            this.unsigned = unsigned;
        }

        @Override
        int compare(Operand o) {
            return unsigned ? Long.compareUnsigned(o.longValue(), value) : Long.compare(o.longValue(), value);
        }
    }

    /** An IPv4 network {@code a.b.c.d/n}: both sides compared under the mask, as Wireshark does. */
    static final class NetworkConstant extends Constant {
        private final long value;
        private final long mask;

        NetworkConstant(long value, int prefix) {
            this.mask = prefix == 0 ? 0 : (0xFFFFFFFFL << (32 - prefix)) & 0xFFFFFFFFL;
            this.value = value & mask;
        }

        @Override
        int compare(Operand o) {
            return Long.compare(o.longValue() & mask, value);
        }
    }

    static final class BoolConstant extends Constant {
        private final boolean value;

        BoolConstant(boolean value) {
            this.value = value;
        }

        @Override
        int compare(Operand o) {
            return Boolean.compare(o.longValue() != 0, value);
        }
    }

    /** Bytes (MAC and IPv6 addresses, byte strings); an IPv6 network compares its first {@code prefixBits}. */
    static final class BytesConstant extends Constant {
        private final byte[] value;
        private final int prefixBits;

        BytesConstant(byte[] value, int prefixBits) {
            this.value = value;
            this.prefixBits = prefixBits;
        }

        @Override
        int compare(Operand o) {
            ByteBuffer b = o.bytes();
            int at = o.at();
            int len = o.length();
            if (prefixBits < 0 || prefixBits >= 8 * value.length) {
                return compareBytes(b, at, len, value);
            }
            int whole = prefixBits / 8;
            for (int i = 0; i < whole; i++) {
                if (i >= len) {
                    return -1;
                }
                int c = Integer.compare(b.get(at + i) & 0xFF, value[i] & 0xFF);
                if (c != 0) {
                    return c;
                }
            }
            int rest = prefixBits % 8;
            if (rest != 0) {
                if (whole >= len) {
                    return -1;
                }
                int mask = (0xFF << (8 - rest)) & 0xFF;
                return Integer.compare(b.get(at + whole) & mask, value[whole] & mask);
            }
            return 0;
        }
    }

    static final class TextConstant extends Constant {
        private final String value;

        TextConstant(String value) {
            this.value = value;
        }

        @Override
        int compare(Operand o) {
            return compareText(o.text(), value);
        }
    }

    // ---- byte and text helpers ------------------------------------------------------------------

    static int compareBytes(ByteBuffer a, int aAt, int aLen, byte[] b) {
        int n = Math.min(aLen, b.length);
        for (int i = 0; i < n; i++) {
            int c = Integer.compare(a.get(aAt + i) & 0xFF, b[i] & 0xFF);
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(aLen, b.length);
    }

    static int compareBytes(ByteBuffer a, int aAt, int aLen, ByteBuffer b, int bAt, int bLen) {
        int n = Math.min(aLen, bLen);
        for (int i = 0; i < n; i++) {
            int c = Integer.compare(a.get(aAt + i) & 0xFF, b.get(bAt + i) & 0xFF);
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(aLen, bLen);
    }

    static int compareText(CharSequence a, CharSequence b) {
        int n = Math.min(a.length(), b.length());
        for (int i = 0; i < n; i++) {
            int c = Character.compare(a.charAt(i), b.charAt(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.length(), b.length());
    }

    static int indexOf(ByteBuffer b, int at, int len, byte[] needle) {
        outer:
        for (int i = 0; i <= len - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (b.get(at + i + j) != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    static int indexOf(ByteBuffer b, int at, int len, ByteBuffer n, int nAt, int nLen) {
        outer:
        for (int i = 0; i <= len - nLen; i++) {
            for (int j = 0; j < nLen; j++) {
                if (b.get(at + i + j) != n.get(nAt + j)) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    static int indexOf(CharSequence s, String needle) {
        outer:
        for (int i = 0; i <= s.length() - needle.length(); i++) {
            for (int j = 0; j < needle.length(); j++) {
                if (s.charAt(i + j) != needle.charAt(j)) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
