// JavaMember is a consumer of the Apache Kafka Java client for kcg's
// real-clients tests (clienttest/), run as a single-file source program:
// java -cp KAFKA_JARS JavaMember.java PROPERTIES TOPIC MODE [probe].
//
// MODE "subscribe" joins the group of group.id (the properties choose the
// protocol, assignor and static membership) and commits each record's
// next offset with commitSync after printing it. MODE "assign:P" (or
// "assign:all") assigns partition P (or every partition of TOPIC) without
// joining any group and calls commitSync() after every poll, records or
// not: the consumer the group never sees, which commits its position
// again and again. Every record is printed on stdout as one JSON line,
// {"partition": P, "offset": O}. With "probe" it never commits. SIGTERM
// closes the consumer (a dynamic member leaves the group) and exits.
import java.io.FileReader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

public class JavaMember {
    static volatile boolean stopping = false;

    public static void main(String[] args) throws Exception {
        Properties props = new Properties();
        try (FileReader r = new FileReader(args[0])) {
            props.load(r);
        }
        String topic = args[1];
        String mode = args[2];
        boolean probe = args.length > 3 && args[3].equals("probe");
        props.put("key.deserializer", ByteArrayDeserializer.class.getName());
        props.put("value.deserializer", ByteArrayDeserializer.class.getName());
        props.put("enable.auto.commit", "false");
        props.putIfAbsent("auto.offset.reset", "earliest");
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props);
        CountDownLatch closed = new CountDownLatch(1);
        Thread main = Thread.currentThread();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stopping = true;
            consumer.wakeup();
            try {
                closed.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        boolean assign = mode.startsWith("assign:");
        try {
            if (assign) {
                List<TopicPartition> tps = new ArrayList<>();
                String which = mode.substring("assign:".length());
                if (which.equals("all")) {
                    for (PartitionInfo p : consumer.partitionsFor(topic)) {
                        tps.add(new TopicPartition(topic, p.partition()));
                    }
                } else {
                    tps.add(new TopicPartition(topic, Integer.parseInt(which)));
                }
                consumer.assign(tps);
            } else {
                consumer.subscribe(List.of(topic));
            }
            while (!stopping) {
                for (ConsumerRecord<byte[], byte[]> rec : consumer.poll(Duration.ofMillis(200))) {
                    System.out.println("{\"partition\": " + rec.partition() + ", \"offset\": " + rec.offset() + "}");
                    System.out.flush();
                    if (!probe && !assign) {
                        consumer.commitSync(Map.of(new TopicPartition(rec.topic(), rec.partition()), new OffsetAndMetadata(rec.offset() + 1)));
                    }
                }
                if (!probe && assign) {
                    consumer.commitSync();
                }
            }
        } catch (WakeupException e) {
            // stopping
        } finally {
            consumer.close();
            closed.countDown();
        }
    }
}
