package dev.kcg.test.connect;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.sink.SinkConnector;

/**
 * kcg's test sink connector: its tasks append one JSON line per record,
 * {"topic":..,"partition":..,"offset":..,"value":..}, to the file named by
 * the "file" config, flushed on every put, so a test reads what the
 * connector consumed at once. "fail.if.exists=PATH" makes its tasks fail on
 * start while PATH exists. alterOffsets (KIP-875: PATCH and DELETE of
 * /connectors/NAME/offsets) accepts every change and logs it as one JSON
 * line to FILE.alter, so a test sees that Connect ran the connector's hook.
 */
public class FileLinesSinkConnector extends SinkConnector {
    static final String VERSION = "kcg-test-1";
    static final String FILE = "file";
    static final String FAIL_IF_EXISTS = "fail.if.exists";

    static final ConfigDef CONFIG = new ConfigDef()
            .define(FILE, ConfigDef.Type.STRING, ConfigDef.Importance.HIGH,
                    "The file each record is appended to as one JSON line.")
            .define(FAIL_IF_EXISTS, ConfigDef.Type.STRING, "", ConfigDef.Importance.LOW,
                    "When this file exists, the tasks fail on start.");

    private Map<String, String> props;

    @Override
    public String version() {
        return VERSION;
    }

    @Override
    public void start(Map<String, String> props) {
        CONFIG.parse(props); // a missing "file" fails the connector, as it should
        this.props = new HashMap<>(props);
    }

    @Override
    public Class<? extends Task> taskClass() {
        return FileLinesSinkTask.class;
    }

    @Override
    public List<Map<String, String>> taskConfigs(int maxTasks) {
        List<Map<String, String>> configs = new ArrayList<>();
        for (int i = 0; i < maxTasks; i++) {
            configs.add(new HashMap<>(props));
        }
        return configs;
    }

    @Override
    public void stop() {
    }

    @Override
    public ConfigDef config() {
        return CONFIG;
    }

    @Override
    public boolean alterOffsets(Map<String, String> connectorConfig, Map<TopicPartition, Long> offsets) {
        String file = connectorConfig.get(FILE);
        if (file == null) {
            return true;
        }
        // Sorted, so a test can compare the line as a string.
        Map<String, TopicPartition> sorted = new TreeMap<>();
        for (TopicPartition tp : offsets.keySet()) {
            sorted.put(String.format("%s\u0000%010d", tp.topic(), tp.partition()), tp);
        }
        StringBuilder line = new StringBuilder("{\"offsets\":[");
        String sep = "";
        for (TopicPartition tp : sorted.values()) {
            Long offset = offsets.get(tp);
            line.append(sep).append("{\"topic\":").append(Json.quote(tp.topic()))
                    .append(",\"partition\":").append(tp.partition())
                    .append(",\"offset\":").append(offset == null ? "null" : offset.toString()).append('}');
            sep = ",";
        }
        line.append("]}");
        Json.appendLine(file + ".alter", line.toString());
        return true;
    }
}
