package org.kjson.parity.decode;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Turns a well-formed message into a hostile one, seeded: truncation, wrong JSON types, numbers
 * and strings swapped, huge and odd numbers, deep nesting, invalid UTF-8, lone surrogates,
 * duplicate / escaped / unknown / missing keys, odd temporal and base64 spellings, empty and null
 * messages, top-level arrays and whitespace. Most kinds hit a random object of the document (the
 * envelope or a row inside it), so nested rows are mutated as often as the top level.
 */
final class Mutator {

    enum Kind {
        TRUNCATE, WRONG_TYPE, NUMBER_AS_STRING, STRING_AS_NUMBER, HUGE_NUMBER, ODD_NUMBER, DEEP_NESTING,
        INVALID_UTF8, LONE_SURROGATE, DUPLICATE_KEY, ESCAPED_KEY, UNKNOWN_FIELD, MISSING_FIELD,
        ODD_STRING, EMPTY_OR_NULL, TOP_LEVEL_ARRAY, WHITESPACE
    }

    private static final String[] OTHER_TYPES = {
        "{}", "[]", "{\"x\":1}", "[1,2]", "\"str\"", "\"\"", "12", "true", "false", "null", "-7.5", "[null]", "[{}]",
    };
    private static final String[] ODD_NUMBERS = {
        "-0", "-0.0", "0.0", "1E2", "1e-2", "1.0E+2", "-1.5E-7", "01", "+1", ".5", "1.", "0x10", "NaN", "-Infinity",
        "Infinity", "1e400", "-1e400", "4.9e-325", "127", "128", "-129", "32768", "2147483648", "-2147483649",
        "9223372036854775808", "-9223372036854775809", "1.5", "-1.5", "2.5", "0.125", "3.4028235E38", "3.5e38",
        "99999999999999999999", "12345678901234567890.123456789",
    };
    private static final String[] ODD_STRINGS = {
        "\"\"", "\" \"", "\" 12 \"", "\"1.5\"", "\"-0\"", "\"1e3\"", "\"NaN\"", "\"Infinity\"", "\"0x1p3\"", "\"1f\"",
        "\"TRUE\"", "\"yes\"", "\"true \"", "\"2024-02-30\"", "\"2024-02-29\"", "\"2023-02-29\"", "\"0000-01-01\"",
        "\"-0001-01-01\"", "\"+10000-01-01\"", "\"2024-1-1\"", "\"24:00:00\"", "\"23:59:59.999\"", "\"23:59:60\"",
        "\"12:00\"", "\"12:00:00.123456789\"", "\"2024-01-01 00:00:00\"", "\"2024-01-01T00:00:00\"",
        "\"2024-01-01T00:00:00Z\"", "\"2024-01-01 00:00:00Z\"", "\"2024-01-01 24:00:00\"", "\"2024-02-30 12:00:00\"",
        "\"2024-01-01 00:00:00.1234567891\"", "\"2024-01-01T00:00:00.5+01:00\"", "\"2024-01-01 00:00:00.\"",
        "\"AQ==\"", "\"AQ\"", "\"A\"", "\"AQI=\"", "\"AQID\"", "\"!!!!\"", "\"AQ==\\n\"", "\"AQ ==\"", "\"_-8=\"",
        "\"\\u0000\"", "\"\\ud83d\\ude00\"", "\"\\/\"", "\"a\\tb\"",
    };
    private static final String[][] INVALID_UTF8 = {
        {"\u00ff"}, {"\u00c3", "("}, {"\u00e2", "\u0082"}, {"\u00ed", "\u00a0", "\u0080"}, {"\u00c0", "\u00af"},
        {"\u00f5", "\u0080", "\u0080", "\u0080"}, {"\u0080"}, {"\u00f0", "\u009f", "\u0098"}, {"\u00fe"},
    };
    private static final String[] SURROGATES = {"\\ud800", "\\udc00", "\\ud83d", "\\udfff\\ud800", "\\ud800\\u0041"};

    private final SplittableRandom random;

    Mutator(SplittableRandom random) {
        this.random = random;
    }

    /** One hostile version of {@code bytes} (which may itself be null or not JSON). */
    byte[] mutate(byte[] bytes, Kind kind) {
        if (bytes == null) {
            bytes = new byte[0];
        }
        JsonText.Node root;
        try {
            root = JsonText.parse(bytes);
        } catch (RuntimeException e) {
            root = null;
        }
        switch (kind) {
            case TRUNCATE:
                return bytes.length == 0 ? bytes : Arrays.copyOf(bytes, random.nextInt(bytes.length));
            case EMPTY_OR_NULL:
                return pick(new byte[][] {null, new byte[0], b("null"), b(" "), b("\n"), b("{}"), b("[]"), b("\"x\""), b("1")});
            case TOP_LEVEL_ARRAY:
                return topLevelArray(bytes);
            case WHITESPACE:
                return root == null ? bytes : JsonText.bytes(new JsonText.Scalar(spaced(root)));
            default:
                break;
        }
        if (root == null) {
            return Arrays.copyOf(bytes, Math.max(0, bytes.length - 1));
        }
        List<JsonText.Obj> objects = JsonText.objects(root);
        if (objects.isEmpty()) {
            return bytes;
        }
        // Half the time the top-level object, else any (nested rows, envelope parts).
        JsonText.Obj target = random.nextBoolean() ? objects.get(0) : objects.get(random.nextInt(objects.size()));
        mutateObject(target, kind);
        return JsonText.bytes(root);
    }

    private void mutateObject(JsonText.Obj obj, Kind kind) {
        List<JsonText.Member> members = obj.members;
        JsonText.Member m = members.isEmpty() ? null : members.get(random.nextInt(members.size()));
        switch (kind) {
            case WRONG_TYPE -> {
                if (m != null) {
                    m.value = JsonText.raw(pick(OTHER_TYPES));
                }
            }
            case NUMBER_AS_STRING -> {
                JsonText.Member n = find(members, true);
                if (n != null) {
                    n.value = JsonText.raw("\"" + ((JsonText.Scalar) n.value).text() + "\"");
                } else if (m != null) {
                    m.value = JsonText.raw("\"" + random.nextInt(-1000, 1000) + "\"");
                }
            }
            case STRING_AS_NUMBER -> {
                JsonText.Member s = find(members, false);
                if (s != null) {
                    String text = ((JsonText.Scalar) s.value).text();
                    String inner = text.substring(1, text.length() - 1);
                    s.value = JsonText.raw(inner.matches("-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?") ? inner : pick(ODD_NUMBERS));
                }
            }
            case HUGE_NUMBER -> {
                if (m != null) {
                    m.value = JsonText.raw(hugeNumber());
                }
            }
            case ODD_NUMBER -> {
                JsonText.Member n = find(members, true);
                (n != null ? n : m == null ? new JsonText.Member("", null) : m).value = JsonText.raw(pick(ODD_NUMBERS));
            }
            case ODD_STRING -> {
                JsonText.Member s = find(members, false);
                (s != null ? s : m == null ? new JsonText.Member("", null) : m).value = JsonText.raw(pick(ODD_STRINGS));
            }
            case DEEP_NESTING -> {
                if (m != null) {
                    m.value = JsonText.raw(nested(pick(new int[] {3, 40, 999, 1001, 1500})));
                }
            }
            case INVALID_UTF8, LONE_SURROGATE -> insertIntoString(obj, m, kind);
            case DUPLICATE_KEY -> {
                if (m != null) {
                    JsonText.Node value = random.nextBoolean() ? JsonText.raw(pick(OTHER_TYPES)) : m.value;
                    members.add(random.nextInt(members.size() + 1), new JsonText.Member(m.name, value));
                }
            }
            case ESCAPED_KEY -> {
                if (m != null && m.name.length() > 2 && m.name.charAt(1) != '\\') {
                    m.name = "\"" + String.format("\\u%04x", (int) m.name.charAt(1)) + m.name.substring(2);
                }
            }
            case UNKNOWN_FIELD -> members.add(random.nextInt(members.size() + 1), new JsonText.Member(
                    pick(new String[] {"\"kjson_unknown\"", "\"\"", "\"_\"", "\"a b\"", "\"\\u00e9t\u00e9\""}),
                    JsonText.raw(pick(new String[] {"{\"a\":[1,{\"b\":null}]}", "[[],[{}]]", "1", "\"x\"", "null"}))));
            case MISSING_FIELD -> {
                if (m != null) {
                    members.remove(m);
                }
            }
            default -> throw new IllegalStateException("oracle: unexpected mutation " + kind);
        }
    }

    /** A member holding a number ({@code numbers}) or a string, or null. */
    private JsonText.Member find(List<JsonText.Member> members, boolean numbers) {
        List<JsonText.Member> hits = new ArrayList<>();
        for (JsonText.Member m : members) {
            if (m.value instanceof JsonText.Scalar s && (numbers ? s.isNumber() : s.isString())) {
                hits.add(m);
            }
        }
        return hits.isEmpty() ? null : hits.get(random.nextInt(hits.size()));
    }

    /** Bad bytes or a lone surrogate escape into a string value, or else into a member name. */
    private void insertIntoString(JsonText.Obj obj, JsonText.Member m, Kind kind) {
        String insert = kind == Kind.INVALID_UTF8 ? String.join("", INVALID_UTF8[random.nextInt(INVALID_UTF8.length)])
                : pick(SURROGATES);
        JsonText.Member s = find(obj.members, false);
        if (s != null) {
            String text = ((JsonText.Scalar) s.value).text();
            int at = 1 + random.nextInt(text.length() - 1);
            while (at > 1 && text.charAt(at - 1) == '\\') {
                at--;
            }
            s.value = JsonText.raw(text.substring(0, at) + insert + text.substring(at));
        } else if (m != null) {
            m.name = "\"" + insert + m.name.substring(1);
        }
    }

    private String hugeNumber() {
        int digits = pick(new int[] {20, 39, 40, 400, 1001, 1200});
        StringBuilder sb = new StringBuilder(random.nextBoolean() ? "-" : "");
        sb.append((char) ('1' + random.nextInt(9)));
        for (int i = 1; i < digits; i++) {
            sb.append((char) ('0' + random.nextInt(10)));
        }
        if (random.nextBoolean()) {
            sb.insert(sb.length() - random.nextInt(1, Math.min(digits, 60)), '.');
        }
        return sb.toString();
    }

    private String nested(int depth) {
        boolean arrays = random.nextBoolean();
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < depth; i++) {
            sb.append(arrays ? "[" : "{\"a\":");
        }
        sb.append("1");
        for (int i = 0; i < depth; i++) {
            sb.append(arrays ? "]" : "}");
        }
        return sb.toString();
    }

    private byte[] topLevelArray(byte[] message) {
        String m = new String(message, StandardCharsets.ISO_8859_1);
        String[] forms = {"[" + m + "]", "[" + m + "," + m + "]", "[" + m + ",5," + m + "]", "[" + m + ",null]",
            "[]", "[[" + m + "]]", "[" + m + ",{}]"};
        return b(forms[random.nextInt(forms.length)]);
    }

    /** The document again with random whitespace (including the JSON-legal CR and tab) between tokens. */
    private String spaced(JsonText.Node root) {
        String compact = JsonText.text(root);
        StringBuilder sb = new StringBuilder(ws());
        boolean inString = false;
        for (int i = 0; i < compact.length(); i++) {
            char c = compact.charAt(i);
            sb.append(c);
            if (c == '\\' && inString) {
                sb.append(compact.charAt(++i));
                continue;
            }
            if (c == '"') {
                inString = !inString;
            } else if (!inString && "{}[],:".indexOf(c) >= 0 && random.nextInt(3) == 0) {
                sb.append(ws());
            }
        }
        return sb.append(ws()).toString();
    }

    private String ws() {
        return pick(new String[] {"", " ", "\n", "\t", "\r\n", "  "});
    }

    private <T> T pick(T[] options) {
        return options[random.nextInt(options.length)];
    }

    private int pick(int[] options) {
        return options[random.nextInt(options.length)];
    }

    private static byte[] b(String latin1) {
        return latin1.getBytes(StandardCharsets.ISO_8859_1);
    }
}
