// StreamsTopologyApp is a small Kafka Streams application with a topology
// that has every kind of topic a streams group (KIP-1071) knows: it reads
// an input topic, re-keys each record by its value (a repartition topic)
// and counts the records per key in a state store (a changelog topic).
// Run as a single-file source program like StreamsGroupApp.java:
// java -cp KAFKA_JARS StreamsTopologyApp.java PROPERTIES TOPIC.
import java.io.FileReader;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Materialized;

public class StreamsTopologyApp {
    public static void main(String[] args) throws Exception {
        Properties props = new Properties();
        try (FileReader r = new FileReader(args[0])) {
            props.load(r);
        }
        props.putIfAbsent(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class);
        props.putIfAbsent(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class);
        StreamsBuilder builder = new StreamsBuilder();
        builder.<byte[], byte[]>stream(args[1])
            .selectKey((k, v) -> v)
            .groupByKey()
            .count(Materialized.as("counts"));
        KafkaStreams streams = new KafkaStreams(builder.build(), props);
        CountDownLatch done = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            streams.close();
            done.countDown();
        }));
        streams.start();
        done.await();
    }
}
