// Package kafkaadmin is kcg's Kafka wire layer: the admin requests kcg
// sends, and what their answers mean.
//
// segmentio/kafka-go carries every byte on the network: its Transport
// does SASL and ApiVersions, pools connections and routes a request to a
// broker by id. It dials through kcg's dialer (wire.go), which does the
// TLS handshake and checks the first answer on every connection, so that
// an address where something else than Kafka answers fails at once
// (*NotKafkaError) instead of kafka-go decoding its bytes until
// --timeout. Every request itself is encoded and decoded
// here with franz-go's kmsg codec and handed to the Transport through its
// RawExchanger hook (client.go: rawRequest, roundTrip); kafka-go's own
// request types and high-level calls are not used, only its error codes
// (kafka.Error, which vocab shares). So each API is sent at the version
// kcg chooses, including those kafka-go lacks or gets wrong for an admin
// tool:
//
//   - OffsetCommit (write.go) is a kmsg OffsetCommit v8 to the group's
//     coordinator, with generation -1, no member id and leader epoch -1,
//     because kafka-go's high-level call stores leader epoch 0;
//   - DescribeGroups decodes the member bytes itself (consumerprotocol.go):
//     kafka-go's decoder fails on ConsumerProtocol subscription v2/v3,
//     which every Java and franz-go consumer sends;
//   - ConsumerGroupDescribe (KIP-848), ListGroups v5 (state and type),
//     multi-group OffsetFetch, per-leader batched ListOffsets and the
//     read-committed Fetch of the time lag (fetch.go) do not exist in
//     kafka-go at all;
//   - DeleteGroups is sent per coordinator (kafka-go routes a multi-group
//     request to the first group's coordinator only);
//   - every Client operation starts from a fresh Metadata request
//     (metadata.go), which fails loudly on an unreachable cluster where
//     kafka-go's ListGroups returns an empty list.
//
// The operations on many groups or partitions go through one
// sharded-request engine (shard.go, in the shape of franz-go kadm's
// RequestSharded): each API file (offsets.go, groups.go, write.go,
// fetch.go, coordinator.go) only builds its request for a batch of keys
// and decodes the answer; the engine routes the keys to the group
// coordinator (coordinators cached, looked up with batched
// FindCoordinator), to the partition leader or to one broker, cuts them
// into batches, sends them in parallel, retries, and returns each key's
// result or error in the caller's order. A request's version comes from
// pickVersion, which reads the request's own kmsg key and caps it at the
// version kcg speaks. kafka-go has no retries; every retry here goes
// through the one policy of retry.go (jittered, bounded backoff, and a
// reserve left on the deadline), and roundTrip bounds the requests in
// flight (client.go) so that describing thousands of groups never opens
// thousands of connections.
//
// Over a slow network the number of sequential round trips is a
// command's time, and kafka-go's transport asks ApiVersions, then its own
// Metadata, before it sends anything else. kcg's connection wrapper
// shortens that without replacing the transport: it keeps the first
// ApiVersions answer and answers later connections' from it, writes the
// first flight (a Metadata of the brokers and the expected groups'
// FindCoordinator, at versions every supported broker serves) behind
// kafka-go's first ApiVersions and answers kafka-go's Metadata from it
// (firstflight.go), writes the FindCoordinator behind kafka-go's Metadata
// under SASL (piggyback.go), dials connections ahead (warm.go), and sends
// ListOffsets beside the Metadata that names the leaders on a small
// cluster (fanout.go). docs/benchmarks.md ("Round trips over a network
// delay") counts each command's round trips.
//
// Connection settings (bootstrap servers, client id, TLS, SASL) come
// resolved from package connconfig, which reads the flags, the Java
// client properties file and kcg's own config file; kafkaadmin only
// connects with them.
package kafkaadmin
