package dev.kcg.test.connect;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Map;

import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;

/** The task of {@link FileLinesSinkConnector}. */
public class FileLinesSinkTask extends SinkTask {
    private String file;

    @Override
    public String version() {
        return FileLinesSinkConnector.VERSION;
    }

    @Override
    public void start(Map<String, String> props) {
        file = props.get(FileLinesSinkConnector.FILE);
        String fail = props.getOrDefault(FileLinesSinkConnector.FAIL_IF_EXISTS, "");
        if (!fail.isEmpty() && new File(fail).exists()) {
            throw new ConnectException("kcg test sink: " + fail + " exists (fail.if.exists)");
        }
    }

    @Override
    public void put(Collection<SinkRecord> records) {
        if (records.isEmpty()) {
            return;
        }
        StringBuilder lines = new StringBuilder();
        for (SinkRecord r : records) {
            // kafkaPartition/kafkaOffset: where the record was read, whatever
            // a transformation did to topic and partition.
            lines.append("{\"topic\":").append(Json.quote(r.originalTopic()))
                    .append(",\"partition\":").append(r.originalKafkaPartition())
                    .append(",\"offset\":").append(r.originalKafkaOffset())
                    .append(",\"value\":").append(value(r.value()))
                    .append("}\n");
        }
        Json.append(file, lines.toString());
    }

    private static String value(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof byte[]) {
            return Json.quote(new String((byte[]) v, StandardCharsets.UTF_8));
        }
        return Json.quote(v.toString());
    }

    @Override
    public Map<TopicPartition, OffsetAndMetadata> preCommit(Map<TopicPartition, OffsetAndMetadata> offsets) {
        // Every put is already on disk (Json.append closes the file).
        return offsets;
    }

    @Override
    public void stop() {
    }
}
