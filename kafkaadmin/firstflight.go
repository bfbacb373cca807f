package kafkaadmin

import (
	"encoding/binary"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// The first flight (issue 34 item 2, docs/benchmarks.md "Round trips over a
// network delay"). A client's first connection sends kafka-go's
// ApiVersions, waits for it, sends kafka-go's Metadata of the brokers,
// waits for it, and only then can kcg ask anything: three round trips
// counting the TCP handshake before the first question about a group.
// Without SASL (whose handshake must come first) nothing in the protocol
// makes the second and third wait: the connection writes, in the same
// packet as kafka-go's ApiVersions, a Metadata of no topic and a
// FindCoordinator of each group the command expects, at versions every
// broker since Kafka 2.1 serves and Kafka 4's baseline keeps (Metadata v7,
// FindCoordinator v2: what a 2.1 client sends). The broker answers them in
// order behind ApiVersions; the connection reads all three before kafka-go
// reads its own, caches the coordinators, and answers kafka-go's Metadata
// of the brokers, when it comes, from the one already read, encoded at
// the version kafka-go asked (nothing is sent for it).
//
// A broker that does not serve those versions (older than 2.1, or a
// future one whose baseline moved) closes the connection after its
// ApiVersions answer: the connection then dials again, under kafka-go,
// and carries on without the first flight, which the client does not try
// again. It costs that broker the round trips saved elsewhere, and
// nothing else.

// The versions of the first flight.
const (
	firstFlightMetadata        = 7
	firstFlightFindCoordinator = 2
)

// firstFlight is what a connection wrote behind kafka-go's first
// ApiVersions.
type firstFlight struct {
	meta     kmsg.Request
	metaCorr int32
	coords   []piggyback
}

// takeFirstFlight returns, once per client and only without SASL, the
// requests to write behind the ApiVersions of its first connection.
func (c *Client) takeFirstFlight() ([]byte, *firstFlight) {
	if c.cfg.SASL != nil {
		return nil, nil
	}
	c.mu.Lock()
	if c.flown || c.captured != nil {
		c.mu.Unlock()
		return nil, nil
	}
	c.flown = true
	groups := c.expected
	if len(groups) > 0 && len(groups) <= maxPiggybackGroups {
		c.expected, c.expectDone = nil, true
	}
	c.mu.Unlock()
	return c.flightRequests(groups)
}

// flightRequests are the first flight's requests, encoded: the Metadata
// of no topic and, for at most maxPiggybackGroups groups, a
// FindCoordinator of each.
func (c *Client) flightRequests(groups []string) ([]byte, *firstFlight) {
	if len(groups) > maxPiggybackGroups {
		groups = nil
	}
	f := kmsg.NewRequestFormatter(kmsg.FormatterClientID(c.transport.ClientID))
	meta := kmsg.NewPtrMetadataRequest()
	meta.Version = firstFlightMetadata
	meta.Topics = []kmsg.MetadataRequestTopic{}
	ff := &firstFlight{meta: meta, metaCorr: c.flightCorr()}
	out := f.AppendRequest(nil, meta, ff.metaCorr)
	for _, g := range groups {
		req := findCoordinator(firstFlightFindCoordinator).request([]string{g})
		corr := c.flightCorr()
		// One buffer per request: AppendRequest writes the size at the
		// start of the buffer it is given.
		out = append(out, f.AppendRequest(nil, req, corr)...)
		ff.coords = append(ff.coords, piggyback{req: req, corr: corr, groups: []string{g}})
	}
	return out, ff
}

// readFirstFlight reads the answers of the first flight, behind the
// ApiVersions answer check has read. It reports false when the connection
// ended before them (a broker that does not serve the versions closes it).
func (k *kafkaConn) readFirstFlight() bool {
	ff := k.flight
	k.flight = nil
	frame, err := readFrame(k.Conn)
	if err != nil {
		return false
	}
	resp, err := decodeResponse(ff.meta, ff.metaCorr, frame[4:])
	if err != nil {
		return false
	}
	for _, p := range ff.coords {
		f, err := readFrame(k.Conn)
		if err != nil {
			return false
		}
		if r, err := decodeResponse(p.req, p.corr, f[4:]); err == nil {
			k.cl.keepCoordinators(p.groups, r.(*kmsg.FindCoordinatorResponse))
		}
	}
	k.brokersMeta = resp.(*kmsg.MetadataResponse)
	if len(ff.coords) > 0 && 2*len(k.brokersMeta.Brokers)+1 <= maxInFlight {
		// Groups to read: their log bounds go to every broker of a
		// cluster this small (fanout.go), whose connections are
		// dialled now, while the describes are in flight.
		for _, b := range k.brokersMeta.Brokers {
			k.cl.dialAhead(brokerAddr(Broker{Host: b.Host, Port: b.Port}))
		}
	}
	return true
}

// redial replaces the connection the first flight lost with a new one to
// the same address, under kafka-go, which has read its ApiVersions answer
// already (a broker serves a connection that sends none).
func (k *kafkaConn) redial() error {
	_ = k.Conn.Close()
	kc := k.cl.dialWarm(k.addr)
	if kc == nil {
		return &UnreachableError{Bootstrap: k.cl.Bootstrap()}
	}
	k.Conn = kc.Conn
	return nil
}

// answerBrokersMetadata answers frame, kafka-go's Metadata request of no
// topic, from the Metadata answer of the first flight, at the version it
// asks; nil when frame is another request (it is then sent).
func answerBrokersMetadata(frame []byte, m *kmsg.MetadataResponse) []byte {
	if len(frame) < 14 || int(binary.BigEndian.Uint32(frame)) != len(frame)-4 ||
		int16(binary.BigEndian.Uint16(frame[4:])) != kmsg.Metadata.Int16() {
		return nil
	}
	v := int16(binary.BigEndian.Uint16(frame[6:]))
	corr := binary.BigEndian.Uint32(frame[8:])
	// kafka-go's versions (v1-v8) are not flexible: the header ends with
	// the client id, then the body starts with the topics' count, 0 for
	// none (-1 would be every topic).
	if v < 1 || v > 8 {
		return nil
	}
	idLen := int(int16(binary.BigEndian.Uint16(frame[12:])))
	body := 14 + max(idLen, 0)
	if len(frame) < body+4 || binary.BigEndian.Uint32(frame[body:]) != 0 {
		return nil
	}
	r := *m
	r.Version = v
	r.Topics = nil
	out := make([]byte, 8, 256)
	binary.BigEndian.PutUint32(out[4:], corr)
	out = r.AppendTo(out)
	binary.BigEndian.PutUint32(out, uint32(len(out)-4))
	return out
}
