package org.kjson.parity;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.TableDescriptor;

/**
 * The fallback for DDLs that Flink's SQL parser cannot read although the rest of Flink can handle
 * the table: CREATE TABLE has no INTERVAL column types. The statement is split here into its
 * name, columns ({@code name TYPE}, one per top-level comma) and WITH options; each column type
 * is parsed by Flink's own {@code LogicalTypeParser} (via {@link Schema.Builder#column(String,
 * String)}), and the table is registered with {@code TableEnvironment.createTable}. From there on
 * the path is the same as for SQL DDLs: catalog resolution, the real factory, the real serializer.
 * Only plain physical columns are supported (no constraints, metadata or computed columns).
 */
final class TableApiDdl {

    private static final Pattern HEAD = Pattern.compile("(?is)^\\s*CREATE\\s+TABLE\\s+(`(?:[^`]|``)+`|[\\w.]+)\\s*\\(");
    private static final Pattern OPTION = Pattern.compile("'((?:[^']|'')*)'\\s*=\\s*'((?:[^']|'')*)'");

    record Table(String name, TableDescriptor descriptor) {}

    private TableApiDdl() {}

    static Table parse(String ddl) {
        String text = ddl.replaceAll("(?m)^\\s*--.*$", "");
        Matcher head = HEAD.matcher(text);
        if (!head.find()) {
            throw new IllegalArgumentException("oracle table-api: not a CREATE TABLE statement");
        }
        int open = head.end() - 1;
        int close = matchingParen(text, open);
        Schema.Builder schema = Schema.newBuilder();
        for (String column : splitTopLevel(text.substring(open + 1, close))) {
            String[] nameAndType = splitName(column.strip());
            schema.column(nameAndType[0], nameAndType[1]);
        }
        String rest = text.substring(close + 1);
        int with = rest.toUpperCase().indexOf("WITH");
        if (with < 0) {
            throw new IllegalArgumentException("oracle table-api: no WITH clause");
        }
        String connector = null;
        List<String[]> options = new ArrayList<>();
        Matcher option = OPTION.matcher(rest.substring(with));
        while (option.find()) {
            String key = option.group(1).replace("''", "'");
            String value = option.group(2).replace("''", "'");
            if (key.equals("connector")) {
                connector = value;
            } else {
                options.add(new String[] {key, value});
            }
        }
        TableDescriptor.Builder descriptor = TableDescriptor.forConnector(connector).schema(schema.build());
        options.forEach(kv -> descriptor.option(kv[0], kv[1]));
        return new Table(unquote(head.group(1)), descriptor.build());
    }

    private static int matchingParen(String text, int open) {
        int depth = 0;
        for (int i = open; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '`' || c == '\'') {
                i = text.indexOf(c, i + 1);
            } else if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                return i;
            }
        }
        throw new IllegalArgumentException("oracle table-api: unbalanced parentheses");
    }

    /** Splits at commas outside of (), <> and quotes. */
    private static List<String> splitTopLevel(String body) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c == '`' || c == '\'') {
                i = body.indexOf(c, i + 1);
            } else if (c == '(' || c == '<') {
                depth++;
            } else if (c == ')' || c == '>') {
                depth--;
            } else if (c == ',' && depth == 0) {
                parts.add(body.substring(start, i));
                start = i + 1;
            }
        }
        parts.add(body.substring(start));
        return parts;
    }

    private static String[] splitName(String column) {
        if (column.startsWith("`")) {
            int end = column.indexOf('`', 1);
            while (end + 1 < column.length() && column.charAt(end + 1) == '`') {
                end = column.indexOf('`', end + 2);
            }
            return new String[] {unquote(column.substring(0, end + 1)), column.substring(end + 1).strip()};
        }
        int space = column.indexOf(' ');
        return new String[] {column.substring(0, space), column.substring(space + 1).strip()};
    }

    private static String unquote(String identifier) {
        if (identifier.startsWith("`")) {
            return identifier.substring(1, identifier.length() - 1).replace("``", "`");
        }
        return identifier;
    }
}
