package faultproxy_test

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/segmentio/kafka-go"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kcg-dev/kcg/internal/faultproxy"
	"github.com/kcg-dev/kcg/internal/kafkatest"
)

func newCluster(t *testing.T) (*kafkatest.Env, *faultproxy.Cluster) {
	t.Helper()
	var e *kafkatest.Env
	if os.Getenv(kafkatest.EnvBootstrap) != "" {
		e = kafkatest.Cluster(t) // the proxies front the real brokers
	} else {
		e = kafkatest.FakeBrokers(t, 3)
	}
	pc, err := faultproxy.New(e.BrokerAddrs())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		pc.Close()
		if errs := pc.Errors(); len(errs) > 0 {
			t.Errorf("proxy errors: %v", errs)
		}
	})
	return e, pc
}

// client is a fresh kafka-go client (no pooled connections) that
// bootstraps through addr.
func client(addr string) (*kafka.Client, func()) {
	tr := &kafka.Transport{DialTimeout: 2 * time.Second}
	return &kafka.Client{Addr: kafka.TCP(addr), Transport: tr}, tr.CloseIdleConnections
}

// Every broker address a client learns is a proxy's, so all its traffic
// goes through the proxies: Metadata and FindCoordinator are rewritten.
func TestRewritesBrokerAddresses(t *testing.T) {
	e, pc := newCluster(t)
	cl, done := client(pc.Proxies()[0].Addr())
	defer done()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	md, err := cl.Metadata(ctx, &kafka.MetadataRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range md.Brokers {
		got = append(got, net.JoinHostPort(b.Host, strconv.Itoa(b.Port)))
	}
	want := pc.Addrs()
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("brokers %v, want the proxies %v (brokers %v)", got, want, e.BrokerAddrs())
	}
	fc, err := cl.FindCoordinator(ctx, &kafka.FindCoordinatorRequest{Key: kafkatest.UniqueName(t, "g")})
	if err != nil || fc.Error != nil {
		t.Fatal(err, fc.Error)
	}
	if c := net.JoinHostPort(fc.Coordinator.Host, strconv.Itoa(fc.Coordinator.Port)); !slices.Contains(want, c) {
		t.Fatalf("coordinator %s is not a proxy %v", c, want)
	}
	if pc.Proxies()[0].Requests(3) == 0 {
		t.Fatal("the bootstrap proxy saw no Metadata request")
	}
}

// apiVersions sends one ApiVersions v0 request over a new connection to
// addr and reads its answer whole: the time it took and the answer's size.
func apiVersions(addr string, timeout time.Duration) (time.Duration, int, error) {
	c, err := net.DialTimeout("tcp", addr, timeout)
	if err != nil {
		return 0, 0, err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(timeout))
	req := kmsg.NewPtrApiVersionsRequest()
	req.Version = 0
	frame := kmsg.NewRequestFormatter(kmsg.FormatterClientID("faultproxy-test")).AppendRequest(nil, req, 1)
	start := time.Now()
	if _, err := c.Write(frame); err != nil {
		return 0, 0, err
	}
	var size [4]byte
	if _, err := io.ReadFull(c, size[:]); err != nil {
		return 0, 0, err
	}
	body := make([]byte, binary.BigEndian.Uint32(size[:]))
	if _, err := io.ReadFull(c, body); err != nil {
		return 0, 0, err
	}
	return time.Since(start), 4 + len(body), nil
}

// Each fault does what it says to one Metadata request through one proxy.
func TestFaults(t *testing.T) {
	_, pc := newCluster(t)
	p := pc.Proxies()[0]
	metadata := func(timeout time.Duration) (time.Duration, error) {
		cl, done := client(p.Addr())
		defer done()
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		start := time.Now()
		// One topic, not all of them: on a shared real cluster every
		// other test's topics would make the answer large and the
		// slow fault's time unbounded.
		_, err := cl.Metadata(ctx, &kafka.MetadataRequest{Topics: []string{"kcg-faultproxy-test"}})
		return time.Since(start), err
	}
	set := func(f faultproxy.Fault) {
		t.Helper()
		if err := p.Set(f); err != nil {
			t.Fatal(err)
		}
	}

	if _, err := metadata(5 * time.Second); err != nil {
		t.Fatalf("pass: %v", err)
	}

	set(faultproxy.Fault{Mode: faultproxy.Refuse})
	if _, err := net.DialTimeout("tcp", p.Addr(), time.Second); err == nil {
		t.Fatal("refuse: the dial succeeded")
	}
	set(faultproxy.Fault{})
	if _, err := metadata(5 * time.Second); err != nil {
		t.Fatalf("pass again after refuse, same address: %v", err)
	}

	set(faultproxy.Fault{Mode: faultproxy.BlackHole})
	if d, err := metadata(time.Second); !errors.Is(err, context.DeadlineExceeded) || d < time.Second {
		t.Fatalf("black-hole: %v after %v, want the deadline", err, d)
	}

	set(faultproxy.Fault{Mode: faultproxy.Delay, Delay: 300 * time.Millisecond})
	if d, err := metadata(5 * time.Second); err != nil || d < 300*time.Millisecond {
		t.Fatalf("delay: %v after %v", err, d)
	}

	set(faultproxy.Fault{Mode: faultproxy.Cut})
	if d, err := metadata(5 * time.Second); err == nil || d > 4*time.Second {
		t.Fatalf("cut: %v after %v, want a connection error at once", err, d)
	}

	// One ApiVersions exchange by hand (a kafka-go client would also
	// fetch the metadata of every topic in the background, which on a
	// shared real cluster is too large to wait for at this rate): its
	// answer of some hundred bytes takes about size/rate.
	const rate = 200
	set(faultproxy.Fault{Mode: faultproxy.Slow, Rate: rate})
	if d, n, err := apiVersions(p.Addr(), 30*time.Second); err != nil || d < time.Duration(float64(time.Second)*0.8*float64(n)/rate) {
		t.Fatalf("slow: %v after %v for %d bytes at %d B/s", err, d, n, rate)
	}

	// Keys: a black hole for OffsetCommit only lets Metadata through.
	set(faultproxy.Fault{Mode: faultproxy.BlackHole, Keys: []int16{8}})
	if _, err := metadata(5 * time.Second); err != nil {
		t.Fatalf("black-hole of OffsetCommit only: Metadata %v", err)
	}
	if err := p.Set(faultproxy.Fault{Mode: faultproxy.Slow}); err == nil {
		t.Fatal("slow without a rate accepted")
	}
}

// Latency is a wire of a one-way delay: a new connection's first answer
// comes four one-way delays after the dial (the handshake's round trip,
// then the request's), and requests written together are answered
// together, one round trip later, where Delay would hold them one after
// the other.
func TestLatency(t *testing.T) {
	_, pc := newCluster(t)
	p := pc.Proxies()[0]
	const d = 100 * time.Millisecond
	if err := p.Set(faultproxy.Fault{Mode: faultproxy.Latency, Delay: d}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	c, err := net.DialTimeout("tcp", p.Addr(), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	f := kmsg.NewRequestFormatter(kmsg.FormatterClientID("faultproxy-test"))
	send := func(n int) time.Duration {
		t.Helper()
		var frames []byte
		for i := range n {
			req := kmsg.NewPtrApiVersionsRequest()
			req.Version = 0
			frames = append(frames, f.AppendRequest(nil, req, int32(100*n+i))...)
		}
		if _, err := c.Write(frames); err != nil {
			t.Fatal(err)
		}
		for range n {
			var size [4]byte
			if _, err := io.ReadFull(c, size[:]); err != nil {
				t.Fatal(err)
			}
			if _, err := io.ReadFull(c, make([]byte, binary.BigEndian.Uint32(size[:]))); err != nil {
				t.Fatal(err)
			}
		}
		return time.Since(start)
	}
	if got := send(1); got < 4*d || got > 6*d {
		t.Errorf("first answer after %v, want about %v (handshake and request)", got, 4*d)
	}
	start = time.Now()
	if got := send(3); got < 2*d || got > 3*d {
		t.Errorf("three requests written together answered after %v, want about one round trip, %v", got, 2*d)
	}
	if n := p.Requests(18); n != 4 {
		t.Errorf("%d ApiVersions requests counted, want 4", n)
	}
}
