package kafkaadmin

import (
	"cmp"
	"context"
	"crypto/tls"
	"encoding/binary"
	"net"
	"slices"
	"time"

	"github.com/segmentio/kafka-go/protocol/metadata"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Fewer round trips (issue 34 item 2, docs/benchmarks.md "Round trips over
// a network delay"). kafka-go opens one connection per concurrent request
// to a broker, and each new connection cost two round trips before its
// request: the TCP handshake and an ApiVersions exchange. kcg also sent an
// ApiVersions of its own, because kafka-go hands a RawExchanger its capped
// versions, not the broker's ranges. So:
//
//   - the ApiVersions answer kafka-go's first connection reads is kept
//     (kafkaConn captures it); kcg's version ranges come from it
//     (apiVersions), and the ApiVersions of every later connection to the
//     same address is answered from it without a round trip (the request
//     is optional in the protocol: a broker serves a connection that never
//     sent one);
//   - when kafka-go first dials an address, a few more connections to it
//     are dialled at the same time (TCP and TLS): its next dials to that
//     address take one that is ready.

// warmPerAddr is how many connections are dialled ahead to an address,
// once per client, when kafka-go first dials it: as many as a command
// about one group sends to one broker at once (the two describes, the
// offsets and plan's listing at the coordinator; the three log bounds at a
// leader). Not
// maxInFlight: that many to every broker a command touches would be
// connections most commands never use, against brokers that limit the
// connections a client may open (max.connections.per.ip, connection
// creation quotas). A command that sends more at once (describe
// --all-groups) dials the rest as kafka-go does, a handshake each. Those
// nothing takes are closed when the command ends.
const warmPerAddr = 4

// warmMaxAge is how long a connection dialled ahead stays usable: a
// broker closes connections idle for connections.max.idle.ms (10 minutes
// by default), and kcg watch keeps a client for hours.
const warmMaxAge = 20 * time.Second

// warmDialTimeout bounds dialling ahead (TCP and TLS); a dial that fails
// is dropped, and kafka-go's own dial then meets the error the operator
// sees.
const warmDialTimeout = 5 * time.Second

type warmConn struct {
	conn *kafkaConn
	at   time.Time
}

// apiVersionsV0 reports whether frame is exactly one ApiVersions v0
// request (what kafka-go sends first on every connection), and its
// correlation id.
func apiVersionsV0(frame []byte) (int32, bool) {
	if len(frame) < 12 || int(binary.BigEndian.Uint32(frame)) != len(frame)-4 {
		return 0, false
	}
	key, version := int16(binary.BigEndian.Uint16(frame[4:])), int16(binary.BigEndian.Uint16(frame[6:]))
	if key != kmsg.ApiVersions.Int16() || version != 0 {
		return 0, false
	}
	return int32(binary.BigEndian.Uint32(frame[8:])), true
}

// keptAPIVersions is the ApiVersions v0 answer body (after the
// correlation id) that addr gave; when addr gave none yet, the first one
// any address of the cluster gave, and own false.
func (c *Client) keptAPIVersions(addr string) (body []byte, own bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if body = c.apiv[addr]; body != nil {
		return body, true
	}
	return c.apivFirst, false
}

// keepAPIVersions records addr's ApiVersions v0 answer body when it is a
// successful one.
func (c *Client) keepAPIVersions(addr string, body []byte) {
	r := kmsg.NewPtrApiVersionsResponse()
	r.Version = 0
	if r.ReadFrom(body) != nil || r.ErrorCode != 0 {
		return
	}
	v := make(map[int16]versionRange, len(r.ApiKeys))
	for _, k := range r.ApiKeys {
		v[k.ApiKey] = versionRange{min: k.MinVersion, max: k.MaxVersion}
	}
	c.mu.Lock()
	if c.apiv == nil {
		c.apiv = map[string][]byte{}
	}
	c.apiv[addr] = body
	if c.captured == nil {
		c.captured, c.apivFirst = v, body
	}
	c.mu.Unlock()
}

// replayAPIVersions is the answer frame to an ApiVersions v0 request of
// correlation id corr to addr, from the answer addr gave before or, for an
// address that gave none yet, another broker of the cluster's (own
// false); nil when no address answered yet. Another broker's answer is
// safe to give kafka-go: it picks from it only the versions of its own
// codecs, which on a broker's connection serve the SASL handshake (every
// broker since 1.0 takes the versions it picks), and kcg's requests
// already go at the versions of the first answer to every broker.
func (c *Client) replayAPIVersions(addr string, corr int32) (frame []byte, own bool) {
	body, own := c.keptAPIVersions(addr)
	if body == nil {
		return nil, false
	}
	frame = make([]byte, 8, 8+len(body))
	binary.BigEndian.PutUint32(frame, uint32(4+len(body)))
	binary.BigEndian.PutUint32(frame[4:], uint32(corr))
	return append(frame, body...), own
}

// capturedVersions makes kafka-go connect, if it has not yet, and returns
// the version ranges its first connection's ApiVersions answer held; nil
// when that failed (the caller then asks itself, and meets the error).
// A Metadata request of no topic is served from kafka-go's cache once its
// first connection is up, so this costs no round trip of its own.
//
// That Metadata answer, the brokers and the cluster's identity kafka-go
// asked for its routing a moment ago, also serves the first Cluster call
// (discovered): asking again cost a round trip.
func (c *Client) capturedVersions(ctx context.Context) map[int16]versionRange {
	resp, err := c.transport.RoundTrip(ctx, c.bootstrapAddr(ctx), &metadata.Request{TopicNames: []string{}})
	if err != nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if m, ok := resp.(*metadata.Response); ok && c.captured != nil {
		info := &ClusterInfo{ClusterID: m.ClusterID, ControllerID: m.ControllerID}
		for _, b := range m.Brokers {
			br := Broker{ID: b.NodeID, Host: b.Host, Port: b.Port}
			if b.Rack != "" {
				br.Rack = &b.Rack
			}
			info.Brokers = append(info.Brokers, br)
		}
		slices.SortFunc(info.Brokers, func(a, b Broker) int { return cmp.Compare(a.ID, b.ID) })
		c.discovered, c.discoveredAt = info, time.Now()
	}
	return c.captured
}

// takeDiscovered returns, once, the cluster kafka-go's first connection
// described when that was less than metadataReuse ago, and remembers its
// brokers as a Metadata answer of kcg's own would.
func (c *Client) takeDiscovered() (ClusterInfo, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	info := c.discovered
	c.discovered = nil
	if info == nil || time.Since(c.discoveredAt) >= metadataReuse {
		return ClusterInfo{}, false
	}
	c.brokers = make(map[int32]Broker, len(info.Brokers))
	for _, b := range info.Brokers {
		c.brokers[b.ID] = b
	}
	c.cluster, c.clusterAt = info, c.discoveredAt
	return *info, true
}

// dialAhead dials warmPerAddr connections to addr in the background, once
// per address.
func (c *Client) dialAhead(addr string) {
	c.mu.Lock()
	if c.dialled == nil {
		c.dialled = map[string]bool{}
	}
	if c.dialled[addr] || c.ctx.Err() != nil {
		c.mu.Unlock()
		return
	}
	c.dialled[addr] = true
	c.mu.Unlock()
	for range warmPerAddr {
		go func() {
			kc := c.dialWarm(addr)
			if kc == nil {
				return
			}
			c.keepWarm(addr, kc)
		}()
	}
}

// dialWarm is one connection dialled ahead: TCP and, when configured,
// TLS; nil when either fails (without the handshake probe of dial: an
// address that answered Kafka a moment ago, or one a broker advertises).
func (c *Client) dialWarm(addr string) *kafkaConn {
	ctx, cancel := context.WithTimeout(c.ctx, warmDialTimeout)
	defer cancel()
	d := net.Dialer{Timeout: 3 * time.Second}
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil
	}
	kc := &kafkaConn{Conn: conn, addr: addr, cl: c}
	if c.cfg.TLS == nil {
		return kc
	}
	cfg := c.cfg.TLS
	if cfg.ServerName == "" {
		host, _, _ := net.SplitHostPort(addr)
		cfg = cfg.Clone()
		cfg.ServerName = host
	}
	tc := tls.Client(conn, cfg)
	if err := tc.HandshakeContext(ctx); err != nil {
		_ = conn.Close()
		return nil
	}
	kc.Conn, kc.tls = tc, true
	return kc
}

// takeWarm returns a connection dialled ahead to addr, or nil: first one
// that carries a first flight's Metadata answer (a bootstrap probe's), for
// kafka-go's first connection, whose Metadata it answers.
func (c *Client) takeWarm(addr string) *kafkaConn {
	c.mu.Lock()
	defer c.mu.Unlock()
	ws := c.warm[addr]
	if i := slices.IndexFunc(ws, func(w warmConn) bool { return w.conn.brokersMeta != nil }); i >= 0 && i != len(ws)-1 {
		ws[i], ws[len(ws)-1] = ws[len(ws)-1], ws[i]
	}
	for ws := c.warm[addr]; len(ws) > 0; ws = c.warm[addr] {
		w := ws[len(ws)-1]
		c.warm[addr] = ws[:len(ws)-1]
		if time.Since(w.at) < warmMaxAge {
			return w.conn
		}
		_ = w.conn.Close()
	}
	return nil
}

// keepWarm adds kc, a connection that answered already, to addr's.
func (c *Client) keepWarm(addr string, kc *kafkaConn) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ctx.Err() != nil {
		_ = kc.Close()
		return
	}
	if c.warm == nil {
		c.warm = map[string][]warmConn{}
	}
	c.warm[addr] = append(c.warm[addr], warmConn{conn: kc, at: time.Now()})
}

// closeWarm closes the connections dialled ahead that nothing took.
func (c *Client) closeWarm() {
	c.mu.Lock()
	warm := c.warm
	c.warm = nil
	c.mu.Unlock()
	for _, ws := range warm {
		for _, w := range ws {
			_ = w.conn.Close()
		}
	}
}
