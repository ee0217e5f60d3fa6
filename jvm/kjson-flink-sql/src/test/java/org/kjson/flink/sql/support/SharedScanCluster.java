package org.kjson.flink.sql.support;

import java.net.URI;
import java.util.ArrayList;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.kjson.flink.sql.support.ScanRun.Result;

/**
 * One MiniCluster for many short reads (stopped when the JVM exits): {@link ScanRun} starts a
 * cluster per job, which costs seconds a job on a loaded machine; a test that runs dozens of
 * bounded reads submits them here instead, through the cluster's REST endpoint, with the
 * {@link CollectingReporter} loaded as in {@link ScanRun}.
 */
public final class SharedScanCluster {
    private static URI restAddress;

    private SharedScanCluster() {}

    private static synchronized URI restAddress() throws Exception {
        if (restAddress == null) {
            Configuration config = Configuration.fromMap(CollectingReporter.configuration());
            config.set(RestOptions.BIND_PORT, "0");
            MiniCluster cluster = new MiniCluster(new MiniClusterConfiguration.Builder().setConfiguration(config)
                    .setNumTaskManagers(1).setNumSlotsPerTaskManager(2).build());
            cluster.start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    cluster.close();
                } catch (Exception e) {
                    // the JVM is exiting
                }
            }, "shared-scan-cluster-close"));
            restAddress = cluster.getRestAddress().get();
        }
        return restAddress;
    }

    /** The rows {@code query} reads after {@code ddl} (a CREATE TABLE) at parallelism 1, or the failure. */
    public static Result read(String ddl, String query) throws Exception {
        URI rest = restAddress();
        Configuration config = new Configuration();
        config.set(DeploymentOptions.TARGET, "remote");
        config.set(RestOptions.ADDRESS, rest.getHost());
        config.set(RestOptions.PORT, rest.getPort());
        config.set(CoreOptions.DEFAULT_PARALLELISM, 1);
        TableEnvironment tableEnv = TableEnvironment.create(
                EnvironmentSettings.newInstance().inStreamingMode().withConfiguration(config).build());
        try {
            tableEnv.executeSql(ddl);
        } catch (RuntimeException e) {
            return new Result(new ArrayList<>(), e);
        }
        return ScanRun.collect(tableEnv, query);
    }
}
