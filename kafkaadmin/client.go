package kafkaadmin

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kcg-dev/kcg/connconfig"
	"github.com/segmentio/kafka-go"
	"github.com/segmentio/kafka-go/protocol"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// DefaultClientID is the client.id kcg presents to brokers.
const DefaultClientID = "kcg"

// maxInFlight bounds concurrent requests. kafka-go opens a new connection
// for every concurrent request to a broker (each paying TLS and SASL
// handshakes), so unbounded fan-out would hammer a production cluster.
const maxInFlight = 8

// Client is an admin connection to one Kafka cluster. It is safe for
// concurrent use. Close releases its connections.
type Client struct {
	cfg       connconfig.Config
	addr      net.Addr // every bootstrap address; see bootstrapAddr
	boot      bootstrapProbe
	transport *kafka.Transport
	ctx       context.Context // the client's lifetime, until Close
	cancel    context.CancelFunc
	sem       chan struct{}
	corr      atomic.Int32
	// answered: a request other than ApiVersions was answered (the
	// handshake is not what fails after that: explainHandshake).
	answered atomic.Bool

	mu       sync.Mutex
	versions map[int16]versionRange // broker-advertised API versions (intersection over brokers seen)
	coords   map[string]int32       // group -> coordinator broker id
	brokers  map[int32]Broker       // from the last Metadata
	cluster  *ClusterInfo
	// clusterAt is when cluster was fetched; it and topics (topics
	// described without error) are reused for a moment, see
	// metadataReuse.
	clusterAt time.Time
	topics    map[string]topicEntry
	// plaintext holds the addresses just found to leave a TLS handshake
	// unanswered and speak Kafka in plaintext, for the next dial
	// (wire.go).
	plaintext map[string]*HandshakeError
	// apiv is each address's ApiVersions v0 answer (its body after the
	// correlation id), captured the first answers the ranges
	// kcg picks its versions from, warm holds connections dialled ahead
	// and dialled the addresses dialled ahead once (warm.go).
	apiv map[string][]byte
	// apivFirst is the first address's, for the addresses that gave none
	// yet (replayAPIVersions).
	apivFirst []byte
	captured  map[int16]versionRange
	// discovered is the cluster kafka-go's first connection described,
	// for the first Cluster call (warm.go).
	discovered   *ClusterInfo
	discoveredAt time.Time
	warm         map[string][]warmConn
	dialled      map[string]bool
	// expected are the groups ExpectGroups named, whose coordinators go
	// behind kafka-go's first Metadata (piggyback.go); expectDone once
	// they went.
	expected   []string
	expectDone bool
	// flown once the first connection wrote its first flight
	// (firstflight.go).
	flown bool
}

type topicEntry struct {
	info TopicInfo
	at   time.Time
}

type versionRange struct{ min, max int16 }

// New returns a Client for cfg. It does not dial: the first operation does,
// and fails with an *UnreachableError when no bootstrap server answers.
func New(cfg connconfig.Config) (*Client, error) {
	if len(cfg.Bootstrap) == 0 {
		return nil, connconfig.ErrNoBootstrap
	}
	clientID := cfg.ClientID
	if clientID == "" {
		clientID = DefaultClientID
	}
	ctx, cancel := context.WithCancel(context.Background())
	dialTimeout := 10 * time.Second
	tr := &kafka.Transport{
		DialTimeout: dialTimeout,
		IdleTimeout: 30 * time.Second,
		// Metadata is fetched by this package itself (fresh, per call); the
		// Transport's cache only serves broker addresses for routing.
		MetadataTTL: 10 * time.Second,
		// No topics: that cache needs the brokers only, and kafka-go's
		// default (nil, every topic) fetched the metadata of every topic
		// of the cluster when the first request dialled and again every
		// few seconds while a command ran (kcg watch): on a cluster of
		// thousands of topics, megabytes that nothing read.
		MetadataTopics: []string{},
		ClientID:       clientID,
		// TLS is left to dial, which wraps kafka-go's connections to
		// check their first answer (wire.go).
		SASL:    cfg.SASL,
		Context: ctx,
	}
	c := &Client{
		cfg:       cfg,
		addr:      kafka.TCP(cfg.Bootstrap...),
		transport: tr,
		ctx:       ctx,
		cancel:    cancel,
		sem:       make(chan struct{}, maxInFlight),
		coords:    map[string]int32{},
	}
	tr.Dial = c.dial
	return c, nil
}

// Close releases the client's connections and background goroutines.
func (c *Client) Close() {
	c.transport.CloseIdleConnections()
	c.cancel()
	c.closeWarm()
}

// RenewSessions drops the client's pooled connections when it
// authenticates with SASL, so the next request dials (and authenticates)
// afresh. kcg watch calls it between rounds: a broker with
// connections.max.reauth.ms closes a SASL connection when its session or
// OAUTHBEARER token expires, and kafka-go does not re-authenticate (KIP-368),
// so a connection kept from round to round would die under a request.
// Dialing each round uses the mechanism's current credentials (a refreshed
// token). Without SASL it does nothing.
func (c *Client) RenewSessions() {
	if c.cfg.SASL != nil {
		c.transport.CloseIdleConnections()
	}
}

// Bootstrap returns the bootstrap addresses, comma-joined, as given.
func (c *Client) Bootstrap() string { return strings.Join(c.cfg.Bootstrap, ",") }

// anyBroker is the routing target meaning "whichever broker kafka-go's
// control connection is on" (a bootstrap server).
const anyBroker int32 = -1

// rawRequest carries a kmsg-encoded request over kafka-go's Transport. It
// implements protocol.RawExchanger so kafka-go hands it the connection after
// dialing, TLS, ApiVersions and SASL are done.
type rawRequest struct {
	req      kmsg.Request
	corrID   int32
	clientID string
}

// brokerRawRequest is a rawRequest routed to one broker by id
// (protocol.BrokerMessage).
type brokerRawRequest struct {
	rawRequest
	broker int32
}

type rawResponse struct{ resp kmsg.Response }

func (r *rawResponse) ApiKey() protocol.ApiKey { return protocol.ApiKey(r.resp.Key()) }

func (r *rawRequest) ApiKey() protocol.ApiKey { return protocol.ApiKey(r.req.Key()) }

// Required reports true: the request must always be written by RawExchange,
// since kafka-go has no codec for most of these API versions.
func (r *rawRequest) Required(map[protocol.ApiKey]int16) bool { return true }

func (r *rawRequest) RawExchange(rw io.ReadWriter) (protocol.Message, error) {
	f := kmsg.NewRequestFormatter(kmsg.FormatterClientID(r.clientID))
	if _, err := rw.Write(f.AppendRequest(nil, r.req, r.corrID)); err != nil {
		return nil, err
	}
	var size [4]byte
	if _, err := io.ReadFull(rw, size[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(size[:])
	if n < 4 || n > 256<<20 {
		return nil, fmt.Errorf("malformed response size %d for %s", n, kmsg.NameForKey(r.req.Key()))
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(rw, body); err != nil {
		return nil, err
	}
	resp, err := decodeResponse(r.req, r.corrID, body)
	if err != nil {
		return nil, err
	}
	return &rawResponse{resp: resp}, nil
}

// decodeResponse decodes body, one answer frame after its size, as the
// answer of correlation id corr to req.
func decodeResponse(req kmsg.Request, corr int32, body []byte) (kmsg.Response, error) {
	if got := int32(binary.BigEndian.Uint32(body)); got != corr {
		return nil, fmt.Errorf("correlation id mismatch for %s: sent %d, got %d", kmsg.NameForKey(req.Key()), corr, got)
	}
	body = body[4:]
	// Flexible responses carry a tag buffer in the header, except
	// ApiVersions (KIP-511 keeps its header v0 so old clients can parse it).
	if req.IsFlexible() && req.Key() != kmsg.ApiVersions.Int16() {
		if len(body) == 0 {
			return nil, fmt.Errorf("truncated %s response", kmsg.NameForKey(req.Key()))
		}
		// The tag buffer is empty in practice; skip an uvarint count and
		// any tags defensively.
		ntags, used := binary.Uvarint(body)
		if used <= 0 {
			return nil, fmt.Errorf("malformed %s response header", kmsg.NameForKey(req.Key()))
		}
		body = body[used:]
		for i := uint64(0); i < ntags; i++ {
			_, u1 := binary.Uvarint(body)
			if u1 <= 0 {
				return nil, fmt.Errorf("malformed %s response header", kmsg.NameForKey(req.Key()))
			}
			body = body[u1:]
			sz, u2 := binary.Uvarint(body)
			if u2 <= 0 || uint64(len(body)-u2) < sz {
				return nil, fmt.Errorf("malformed %s response header", kmsg.NameForKey(req.Key()))
			}
			body = body[u2+int(sz):]
		}
	}
	resp := req.ResponseKind()
	resp.SetVersion(req.GetVersion())
	if err := resp.ReadFrom(body); err != nil {
		return nil, fmt.Errorf("decoding %s response: %w", kmsg.NameForKey(req.Key()), err)
	}
	return resp, nil
}

// Broker routes the request to one broker of kafka-go's cached cluster
// layout.
func (r *brokerRawRequest) Broker(c protocol.Cluster) (protocol.Broker, error) {
	b, ok := c.Brokers[r.broker]
	if !ok {
		return protocol.Broker{}, &brokerUnknownError{id: r.broker}
	}
	return b, nil
}

// brokerUnknownError means kafka-go's cached layout does not know a broker
// id yet (a broker that just joined); it is retried after the cache
// refreshes.
type brokerUnknownError struct{ id int32 }

func (e *brokerUnknownError) Error() string {
	return fmt.Sprintf("broker %d is not in the cluster metadata yet", e.id)
}

// roundTrip sends req to broker (anyBroker: a bootstrap server) and returns
// the decoded response. It holds one slot of the in-flight bound.
func (c *Client) roundTrip(ctx context.Context, broker int32, req kmsg.Request) (kmsg.Response, error) {
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, c.ctxErr(ctx)
	}
	defer func() { <-c.sem }()

	raw := rawRequest{req: req, corrID: c.corr.Add(1), clientID: c.transport.ClientID}
	var msg protocol.Message = &raw
	if broker != anyBroker {
		msg = &brokerRawRequest{rawRequest: raw, broker: broker}
	}
	m, err := c.transport.RoundTrip(ctx, c.bootstrapAddr(ctx), msg)
	if err != nil {
		if ctx.Err() != nil {
			return nil, c.ctxErr(ctx)
		}
		if he := c.explainHandshake(ctx, err); he != nil {
			return nil, he
		}
		return nil, c.networkErr(err)
	}
	rr, ok := m.(*rawResponse)
	if !ok {
		return nil, fmt.Errorf("unexpected response type %T", m)
	}
	if req.Key() != kmsg.ApiVersions.Int16() {
		c.answered.Store(true)
	}
	return rr.resp, nil
}

// ctxErr turns a context error into the user-facing one: a deadline is the
// --timeout expiring.
func (c *Client) ctxErr(ctx context.Context) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return &TimeoutError{Bootstrap: c.Bootstrap()}
	}
	return ctx.Err()
}

// networkErr names the cluster in dial errors so the operator sees which
// address did not answer.
func (c *Client) networkErr(err error) error {
	var nk *NotKafkaError
	if errors.As(err, &nk) {
		return nk
	}
	var me *connconfig.MechanismError
	if errors.As(err, &me) {
		return &AuthError{Bootstrap: c.Bootstrap(), Err: err}
	}
	if errors.Is(err, kafka.SASLAuthenticationFailed) {
		if me := connconfig.BrokerRejection(c.cfg.SASL, brokerMessage(err, kafka.SASLAuthenticationFailed)); me != nil {
			return &AuthError{Bootstrap: c.Bootstrap(), Err: me}
		}
	}
	if errors.Is(err, kafka.SASLAuthenticationFailed) || errors.Is(err, kafka.IllegalSASLState) || errors.Is(err, kafka.UnsupportedSASLMechanism) {
		return &AuthError{Bootstrap: c.Bootstrap(), Err: err}
	}
	var ne net.Error
	var oe *net.OpError
	if errors.As(err, &oe) || errors.As(err, &ne) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &UnreachableError{Bootstrap: c.Bootstrap(), Err: err}
	}
	return err
}

// brokerMessage is the broker's own message in err, which holds code as
// kafka-go wraps it with a message ("CODE: MESSAGE"), or "" when the
// broker sent none.
func brokerMessage(err error, code kafka.Error) string {
	_, msg, _ := strings.Cut(err.Error(), code.Error()+": ")
	return msg
}

// apiVersions returns the API version ranges of the bootstrap broker,
// fetched once per Client.
func (c *Client) apiVersions(ctx context.Context) (map[int16]versionRange, error) {
	c.mu.Lock()
	v := c.versions
	c.mu.Unlock()
	if v != nil {
		return v, nil
	}
	// kafka-go's first connection asked them already (warm.go).
	if v = c.capturedVersions(ctx); v != nil {
		c.mu.Lock()
		c.versions = v
		c.mu.Unlock()
		return v, nil
	}
	// v0: every broker answers it in the same layout (a broker asked for a
	// newer version than it knows answers in v0 anyway), and it carries
	// all that kcg needs, the version ranges.
	req := kmsg.NewPtrApiVersionsRequest()
	req.Version = 0
	resp, err := c.roundTrip(ctx, anyBroker, req)
	if err != nil {
		return nil, err
	}
	r := resp.(*kmsg.ApiVersionsResponse)
	if r.ErrorCode != 0 {
		return nil, fmt.Errorf("ApiVersions: %w", kafka.Error(r.ErrorCode))
	}
	v = make(map[int16]versionRange, len(r.ApiKeys))
	for _, k := range r.ApiKeys {
		v[k.ApiKey] = versionRange{min: k.MinVersion, max: k.MaxVersion}
	}
	c.mu.Lock()
	c.versions = v
	c.mu.Unlock()
	return v, nil
}

// pickVersion chooses the version of req's API (its key) to send: the
// highest that both the broker and kcg (capped at max) support; ok is
// false when there is none. It does not set req's version.
func (c *Client) pickVersion(ctx context.Context, req kmsg.Request, max int16) (int16, bool, error) {
	vs, err := c.apiVersions(ctx)
	if err != nil {
		return 0, false, err
	}
	r, ok := vs[req.Key()]
	if !ok {
		return 0, false, nil
	}
	v := min(max, r.max)
	if v < r.min {
		return 0, false, nil
	}
	return v, true, nil
}
