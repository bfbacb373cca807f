// Package faultproxy is a TCP proxy for tests that stands between kcg and
// each Kafka broker and breaks the network on demand: it refuses
// connections, black-holes requests, delays, cuts or slows responses, for
// every request or only for some API keys.
//
// It understands Kafka's framing (4-byte size-prefixed requests and
// responses), so it needs no broker configuration: the brokers keep
// advertising their own addresses, and the proxy rewrites the broker
// addresses in Metadata, FindCoordinator and DescribeCluster responses to
// the matching proxy's, so that a client which bootstraps through a proxy
// reaches every broker through its proxy too. The same proxies front the
// in-process kfake cluster and a real Apache Kafka cluster.
//
// It speaks plaintext only (no TLS: it must read the frames). It is
// imported only by tests; see docs/reliability.md for the fault matrix it
// drives.
package faultproxy
