// Package kafkaadmin is kcg's Kafka admin layer over segmentio/kafka-go.
//
// kafka-go carries every byte on the network (its Transport: dialing, TLS,
// SASL, connection pooling, routing). Where kafka-go's high-level API is
// unsafe or missing for an admin tool, this package sends the request itself
// through the Transport's RawExchanger hook, encoding it with franz-go's kmsg
// codec:
//
//   - DescribeGroups: kafka-go's decoder fails on members that send
//     ConsumerProtocol subscription v2/v3 (every Java and franz-go consumer),
//     so the member bytes are decoded here (consumerprotocol.go);
//   - ConsumerGroupDescribe (KIP-848), ListGroups v5 (state and type),
//     multi-group OffsetFetch and per-leader batched ListOffsets do not
//     exist in kafka-go at all;
//   - OffsetCommit goes through kafka-go's low-level protocol/offsetcommit
//     request, because the high-level call stores leader epoch 0;
//   - DeleteGroups is sent per coordinator, because kafka-go routes a
//     multi-group request to the first group's coordinator only;
//   - ListGroups of kafka-go returns an empty list for an unreachable
//     cluster, so every Client operation starts from a Metadata request that
//     fails loudly instead.
//
// kafka-go has no retries; this package retries coordinator and leader
// errors with jittered, bounded backoff (retry.go), caches coordinators
// (coordinator.go), and bounds the number of requests in flight (client.go)
// so that describing thousands of groups never opens thousands of
// connections.
//
// Connections are configured from flags and a Java client properties file
// (connconfig.go, with tls.go, pkcs8.go, sasl.go and redact.go); the Java
// file formats themselves are read by internal/javaprops. Named clusters
// come from kcg's own YAML config file: profile.go reads it strictly,
// profile_resolve.go merges the chosen profile under the flags (and keeps
// its credentials to its own brokers), profile_use.go rewrites current:.
package kafkaadmin
