package org.kjson.parity.decode;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A JSON document as a tree that keeps every scalar's text as written (strings with their quotes
 * and escapes, numbers with their digits), so Flink-written rows can be wrapped into envelopes and
 * mutated without re-spelling a value. Text is held as ISO-8859-1 (one char per byte), so any
 * byte, valid UTF-8 or not, survives a parse and {@link #bytes}.
 */
final class JsonText {

    sealed interface Node permits Scalar, Obj, Arr {}

    /** A string (with quotes), number, true, false or null, exactly as written. */
    record Scalar(String text) implements Node {
        boolean isString() {
            return text.startsWith("\"");
        }

        boolean isNumber() {
            return !text.isEmpty() && (text.charAt(0) == '-' || Character.isDigit(text.charAt(0)));
        }
    }

    /** A member name with its quotes and escapes, as written. */
    static final class Member {
        String name;
        Node value;

        Member(String name, Node value) {
            this.name = name;
            this.value = value;
        }
    }

    static final class Obj implements Node {
        final List<Member> members = new ArrayList<>();

        Obj put(String plainName, Node value) {
            members.add(new Member(quote(plainName), value));
            return this;
        }
    }

    static final class Arr implements Node {
        final List<Node> items = new ArrayList<>();
    }

    private final String text;
    private int pos;

    private JsonText(String text) {
        this.text = text;
    }

    /** Parses one JSON value; the input must be well formed (Flink's own output). */
    static Node parse(byte[] bytes) {
        JsonText p = new JsonText(new String(bytes, StandardCharsets.ISO_8859_1));
        Node node = p.value();
        p.skipWhitespace();
        if (p.pos != p.text.length()) {
            throw new IllegalArgumentException("oracle: trailing text after JSON at " + p.pos);
        }
        return node;
    }

    static Scalar raw(String text) {
        return new Scalar(text);
    }

    /** A JSON string literal of plain ASCII text (the envelope's own names and values). */
    static Scalar string(String plain) {
        return new Scalar(quote(plain));
    }

    private static String quote(String plain) {
        return "\"" + plain.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    static byte[] bytes(Node node) {
        StringBuilder sb = new StringBuilder();
        write(node, sb);
        return sb.toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    static String text(Node node) {
        StringBuilder sb = new StringBuilder();
        write(node, sb);
        return sb.toString();
    }

    private static void write(Node node, StringBuilder sb) {
        if (node instanceof Scalar s) {
            sb.append(s.text());
        } else if (node instanceof Obj o) {
            sb.append('{');
            for (int i = 0; i < o.members.size(); i++) {
                if (i > 0) {
                    sb.append(',');
                }
                sb.append(o.members.get(i).name).append(':');
                write(o.members.get(i).value, sb);
            }
            sb.append('}');
        } else {
            Arr a = (Arr) node;
            sb.append('[');
            for (int i = 0; i < a.items.size(); i++) {
                if (i > 0) {
                    sb.append(',');
                }
                write(a.items.get(i), sb);
            }
            sb.append(']');
        }
    }

    /** Every object in the tree, the root first (the places a mutation can hit). */
    static List<Obj> objects(Node node) {
        List<Obj> out = new ArrayList<>();
        collect(node, out);
        return out;
    }

    private static void collect(Node node, List<Obj> out) {
        if (node instanceof Obj o) {
            out.add(o);
            for (Member m : o.members) {
                collect(m.value, out);
            }
        } else if (node instanceof Arr a) {
            for (Node n : a.items) {
                collect(n, out);
            }
        }
    }

    private Node value() {
        skipWhitespace();
        char c = text.charAt(pos);
        if (c == '{') {
            pos++;
            Obj obj = new Obj();
            skipWhitespace();
            if (text.charAt(pos) == '}') {
                pos++;
                return obj;
            }
            while (true) {
                skipWhitespace();
                String name = stringLiteral();
                skipWhitespace();
                expect(':');
                obj.members.add(new Member(name, value()));
                skipWhitespace();
                if (text.charAt(pos++) == '}') {
                    return obj;
                }
            }
        }
        if (c == '[') {
            pos++;
            Arr arr = new Arr();
            skipWhitespace();
            if (text.charAt(pos) == ']') {
                pos++;
                return arr;
            }
            while (true) {
                arr.items.add(value());
                skipWhitespace();
                if (text.charAt(pos++) == ']') {
                    return arr;
                }
            }
        }
        if (c == '"') {
            return new Scalar(stringLiteral());
        }
        int start = pos;
        while (pos < text.length() && ",}] \t\r\n".indexOf(text.charAt(pos)) < 0) {
            pos++;
        }
        return new Scalar(text.substring(start, pos));
    }

    private String stringLiteral() {
        int start = pos;
        expect('"');
        while (text.charAt(pos) != '"') {
            pos += text.charAt(pos) == '\\' ? 2 : 1;
        }
        pos++;
        return text.substring(start, pos);
    }

    private void expect(char c) {
        if (text.charAt(pos) != c) {
            throw new IllegalArgumentException("oracle: expected '" + c + "' at " + pos + " in " + text);
        }
        pos++;
    }

    private void skipWhitespace() {
        while (pos < text.length() && " \t\r\n".indexOf(text.charAt(pos)) >= 0) {
            pos++;
        }
    }
}
