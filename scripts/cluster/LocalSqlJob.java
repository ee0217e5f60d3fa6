import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.StatementSet;
import org.apache.flink.table.api.TableEnvironment;

/**
 * Runs a SQL file in a local MiniCluster (the JVM of this program), as scripts/dist-flink-test.sh
 * does with each Flink line's distribution: `java -cp <Flink lib/ and connector jars>
 * LocalSqlJob.java FILE`.
 *
 * <p>Statements end with a semicolon at the end of a line. {@code SET 'key' = 'value'} lines
 * configure the environment before it is created; every INSERT joins one statement set, executed
 * at the end as one job whose end this program waits for; anything else runs as it comes.
 */
public final class LocalSqlJob {
    private static final Pattern SET = Pattern.compile("(?is)SET\\s+'([^']+)'\\s*=\\s*'([^']*)'");

    public static void main(String[] args) throws Exception {
        String[] statements = Files.readString(Path.of(args[0])).split(";\\s*(\\n|$)");
        Map<String, String> settings = new HashMap<>();
        for (String statement : statements) {
            Matcher set = SET.matcher(withoutComments(statement));
            if (set.matches()) {
                settings.put(set.group(1), set.group(2));
            }
        }
        TableEnvironment tables = TableEnvironment.create(
                EnvironmentSettings.newInstance().inStreamingMode().withConfiguration(Configuration.fromMap(settings)).build());
        StatementSet inserts = tables.createStatementSet();
        int insertCount = 0;
        for (String statement : statements) {
            String sql = withoutComments(statement);
            if (sql.isEmpty() || SET.matcher(sql).matches()) {
                continue;
            }
            if (sql.regionMatches(true, 0, "INSERT", 0, 6)) {
                inserts.addInsertSql(sql);
                insertCount++;
            } else {
                tables.executeSql(sql);
            }
        }
        if (insertCount == 0) {
            throw new IllegalArgumentException(args[0] + " has no INSERT statement");
        }
        inserts.execute().await();
        System.out.println("LocalSqlJob: " + insertCount + " INSERT statement(s) finished");
    }

    /** The statement without its whole-line `--` comments, trimmed. */
    private static String withoutComments(String statement) {
        return statement.lines().filter(line -> !line.strip().startsWith("--"))
                .reduce((a, b) -> a + "\n" + b).orElse("").strip();
    }
}
