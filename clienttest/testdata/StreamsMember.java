// StreamsMember is a Kafka Streams application for kcg's real-clients
// tests (clienttest/), run as a single-file source program:
// java -cp KAFKA_JARS StreamsMember.java PROPERTIES TOPIC [probe].
// application.id (the group) and group.protocol come from the properties
// (the tests use the classic protocol). It prints each record it processes
// as one JSON line on stdout, {"partition": P, "offset": O}; Kafka Streams
// commits the positions every commit.interval.ms. With "probe" SIGTERM ends
// the JVM without closing the application, so nothing more is committed
// (the properties give a long commit.interval.ms): the test reads where a
// restarted instance starts. Otherwise SIGTERM closes it (Kafka Streams
// commits, and on the classic protocol stays a member until its session
// times out).
import java.io.FileReader;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;

public class StreamsMember {
    public static void main(String[] args) throws Exception {
        Properties props = new Properties();
        try (FileReader r = new FileReader(args[0])) {
            props.load(r);
        }
        boolean probe = args.length > 2 && args[2].equals("probe");
        props.putIfAbsent(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class);
        props.putIfAbsent(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class);
        StreamsBuilder builder = new StreamsBuilder();
        builder.<byte[], byte[]>stream(args[1]).process(() -> new Processor<byte[], byte[], Void, Void>() {
            private ProcessorContext<Void, Void> ctx;

            @Override
            public void init(ProcessorContext<Void, Void> context) {
                ctx = context;
            }

            @Override
            public void process(Record<byte[], byte[]> rec) {
                RecordMetadata m = ctx.recordMetadata().orElseThrow();
                System.out.println("{\"partition\": " + m.partition() + ", \"offset\": " + m.offset() + "}");
                System.out.flush();
            }
        });
        KafkaStreams streams = new KafkaStreams(builder.build(), props);
        CountDownLatch done = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (!probe) {
                streams.close();
            }
            done.countDown();
        }));
        streams.start();
        done.await();
    }
}
