// StreamsGroupApp is the smallest Kafka Streams application that makes its
// application id a streams group (KIP-1071): it consumes one topic with
// group.protocol=streams and does nothing with the records. The tests run
// it as a single-file source program (java -cp KAFKA_JARS StreamsGroupApp.java
// PROPERTIES TOPIC), so nothing is compiled ahead of time; Apache Kafka
// publishes no examples jar for 4.x to Maven Central.
import java.io.FileReader;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;

public class StreamsGroupApp {
    public static void main(String[] args) throws Exception {
        Properties props = new Properties();
        try (FileReader r = new FileReader(args[0])) {
            props.load(r);
        }
        props.putIfAbsent(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class);
        props.putIfAbsent(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class);
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(args[1]).foreach((k, v) -> { });
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
