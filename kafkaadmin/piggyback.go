package kafkaadmin

import (
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"strconv"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// The coordinators of the groups a command names, asked in the same round
// trip as kafka-go's own first Metadata (issue 34 item 2, docs/benchmarks.md
// "Round trips over a network delay").
//
// kafka-go's transport sends nothing before its Metadata of the brokers
// has answered, and kcg's FindCoordinator waited for that answer, then for
// its own: two round trips where the protocol needs one. A command that
// knows its groups before it connects (describe G, plan G, apply PLAN)
// says so with ExpectGroups; when kafka-go then writes a Metadata request,
// the connection writes a FindCoordinator of those groups right behind it
// in the same packet, at the version kcg would pick from the broker's
// ApiVersions answer (already read by then). The broker answers requests
// on one connection in order, so the FindCoordinator answer follows the
// Metadata answer: the connection reads both before kafka-go reads its
// own, and the coordinators go to the client's cache, where the command's
// reads find them. A group whose answer is an error, or an answer that
// does not decode, is looked up again as before (nothing is guessed: a
// request the broker did not announce is never sent).

// piggyback is a request written behind kafka-go's on a connection, whose
// answer that connection reads for the client.
type piggyback struct {
	req    kmsg.Request
	corr   int32
	groups []string
}

// maxPiggybackGroups bounds the groups looked up that way before FindCoordinator
// v4 (one request per group, and each adds an answer to read before
// kafka-go's).
const maxPiggybackGroups = 8

// ExpectGroups tells c, before its first request, which groups the command
// is about to read: their coordinators are then asked in the same round
// trip as kafka-go's first ApiVersions (the first flight, without SASL) or
// its first Metadata. Once the coordinators went it does nothing; before
// that a later call replaces the groups, and after kafka-go's first
// Metadata they go behind kcg's next Metadata request, if any.
func (c *Client) ExpectGroups(groups []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.expectDone || len(groups) == 0 {
		return
	}
	c.expected = append([]string(nil), groups...)
}

// expectedGroups are the groups ExpectGroups named, not yet looked up.
func (c *Client) expectedGroups() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.expected
}

// takePiggyback returns, once, the FindCoordinator requests of the
// expected groups whose coordinators are not cached, encoded after the
// frame frame when it is exactly one Metadata request; nil otherwise.
func (c *Client) takePiggyback(frame []byte) ([]byte, []piggyback) {
	if len(frame) < 12 || int(binary.BigEndian.Uint32(frame)) != len(frame)-4 ||
		int16(binary.BigEndian.Uint16(frame[4:])) != kmsg.Metadata.Int16() {
		return nil, nil
	}
	c.mu.Lock()
	groups, vs := c.expected, c.captured
	if len(groups) == 0 || vs == nil {
		c.mu.Unlock()
		return nil, nil
	}
	c.expected, c.expectDone = nil, true
	var missing []string
	for _, g := range groups {
		if _, ok := c.coords[g]; !ok {
			missing = append(missing, g)
		}
	}
	c.mu.Unlock()
	r, ok := vs[kmsg.FindCoordinator.Int16()]
	v := min(r.max, findCoordinatorMax)
	if !ok || v < r.min || len(missing) == 0 {
		return nil, nil
	}
	var batches [][]string
	switch {
	case v >= 4 && len(missing) <= findCoordinatorBatch:
		batches = [][]string{missing}
	case v < 4 && len(missing) <= maxPiggybackGroups:
		batches = chunks(missing, 1)
	default:
		return nil, nil
	}
	f := kmsg.NewRequestFormatter(kmsg.FormatterClientID(c.transport.ClientID))
	var out []byte
	var pb []piggyback
	for _, b := range batches {
		req := findCoordinator(v).request(b)
		corr := c.flightCorr()
		// One buffer per request: AppendRequest writes the size at the
		// start of the buffer it is given.
		out = append(out, f.AppendRequest(nil, req, corr)...)
		pb = append(pb, piggyback{req: req, corr: corr, groups: b})
	}
	return out, pb
}

// flightCorr is a correlation id for a request written behind kafka-go's
// on the same connection: apart from the ids kafka-go numbers its own
// requests with from 0 on each connection, so that no two requests in
// flight on a connection share one (a broker echoes them, and a proxy may
// pair answers by them).
func (c *Client) flightCorr() int32 { return 1<<30 + c.corr.Add(1) }

// readPiggybacked reads the answer kafka-go waits for, whole, into head,
// then the answers to the requests written behind it, for the client.
func (k *kafkaConn) readPiggybacked() error {
	frame, err := readFrame(k.Conn)
	if err != nil {
		return err
	}
	k.head = append(k.head, frame...)
	pb := k.piggy
	k.piggy = nil
	for _, p := range pb {
		f, err := readFrame(k.Conn)
		if err != nil {
			return err
		}
		if resp, err := decodeResponse(p.req, p.corr, f[4:]); err == nil {
			k.cl.keepCoordinators(p.groups, resp.(*kmsg.FindCoordinatorResponse))
		}
	}
	return nil
}

// readFrame reads one answer frame, its size included.
func readFrame(r io.Reader) ([]byte, error) {
	var size [4]byte
	if _, err := io.ReadFull(r, size[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(size[:])
	if n < 4 || n > 256<<20 {
		return nil, fmt.Errorf("malformed response size %d", n)
	}
	frame := make([]byte, 4+n)
	copy(frame, size[:])
	if _, err := io.ReadFull(r, frame[4:]); err != nil {
		return nil, err
	}
	return frame, nil
}

// keepCoordinators caches the coordinators a piggybacked FindCoordinator
// answered for groups; errors are left for the lookup that needs them.
func (c *Client) keepCoordinators(groups []string, fr *kmsg.FindCoordinatorResponse) {
	found := map[string]Broker{}
	if fr.Version < 4 {
		if fr.ErrorCode == 0 && len(groups) == 1 {
			found[groups[0]] = Broker{ID: fr.NodeID, Host: fr.Host, Port: fr.Port}
		}
	} else {
		for _, co := range fr.Coordinators {
			if co.ErrorCode == 0 {
				found[co.Key] = Broker{ID: co.NodeID, Host: co.Host, Port: co.Port}
			}
		}
	}
	for g, b := range found {
		c.learnBroker(b)
		c.mu.Lock()
		c.coords[g] = b.ID
		c.mu.Unlock()
		// The group's reads go there next.
		c.dialAhead(brokerAddr(b))
	}
}

// brokerAddr is b's address as kafka-go dials it.
func brokerAddr(b Broker) string {
	return net.JoinHostPort(b.Host, strconv.Itoa(int(b.Port)))
}
