package faultproxy

import (
	"bytes"
	"encoding/binary"
	"net"
	"strconv"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"
)

var testMap = map[string][2]any{"b1:9092": {"127.0.0.1", int32(1111)}, "b2:9093": {"127.0.0.1", int32(2222)}}

func testLookup(host string, port int32) (string, int32, bool) {
	for addr, to := range testMap {
		if addr == net.JoinHostPort(host, strconv.Itoa(int(port))) {
			return to[0].(string), to[1].(int32), true
		}
	}
	return "", 0, false
}

// frame encodes resp as a broker would: size, correlation id, the header
// tag buffer (tags: raw bytes after the id) when flexible, the body.
func frame(resp kmsg.Response, corr int32, tags []byte) []byte {
	out := make([]byte, 8)
	binary.BigEndian.PutUint32(out[4:], uint32(corr))
	if resp.IsFlexible() && resp.Key() != keyApiVersions {
		out = append(out, tags...)
	}
	out = resp.AppendTo(out)
	binary.BigEndian.PutUint32(out, uint32(len(out)-4))
	return out
}

// decode reads a rewritten frame back, checking its size and header.
func decode(t *testing.T, f []byte, resp kmsg.Response, corr int32, tags []byte) {
	t.Helper()
	if n := binary.BigEndian.Uint32(f); int(n) != len(f)-4 {
		t.Fatalf("size prefix %d, frame of %d", n, len(f)-4)
	}
	if got := int32(binary.BigEndian.Uint32(f[4:])); got != corr {
		t.Fatalf("correlation id %d, want %d", got, corr)
	}
	body := f[8:]
	if resp.IsFlexible() {
		if !bytes.HasPrefix(body, tags) {
			t.Fatalf("header tags %x, want %x", body[:len(tags)], tags)
		}
		body = body[len(tags):]
	}
	if err := resp.ReadFrom(body); err != nil {
		t.Fatal(err)
	}
}

func TestRewriteResponses(t *testing.T) {
	noTags := []byte{0}
	// One tag (id 5, two bytes): a header tag buffer is kept as it is.
	someTags := []byte{1, 5, 2, 0xAB, 0xCD}
	for _, tc := range []struct {
		name    string
		version int16
		tags    []byte
	}{
		{"v0 header", 1, nil},
		{"flexible, empty tags", 12, noTags},
		{"flexible, one tag", 12, someTags},
	} {
		t.Run("Metadata "+tc.name, func(t *testing.T) {
			r := kmsg.NewPtrMetadataResponse()
			r.Version = tc.version
			r.Brokers = []kmsg.MetadataResponseBroker{{NodeID: 1, Host: "b1", Port: 9092}, {NodeID: 2, Host: "b2", Port: 9093}, {NodeID: 3, Host: "other", Port: 9092}}
			out, err := rewriteResponse(frame(r, 77, tc.tags), reqInfo{key: keyMetadata, version: tc.version}, testLookup)
			if err != nil {
				t.Fatal(err)
			}
			got := kmsg.NewPtrMetadataResponse()
			got.Version = tc.version
			decode(t, out, got, 77, tc.tags)
			if b := got.Brokers; b[0].Host != "127.0.0.1" || b[0].Port != 1111 || b[1].Port != 2222 || b[2].Host != "other" || b[2].Port != 9092 {
				t.Fatalf("brokers %+v", b)
			}
		})
	}

	t.Run("FindCoordinator v3 and v4", func(t *testing.T) {
		r := kmsg.NewPtrFindCoordinatorResponse()
		r.Version = 3
		r.Host, r.Port = "b2", 9093
		out, err := rewriteResponse(frame(r, 1, noTags), reqInfo{key: keyFindCoordinator, version: 3}, testLookup)
		if err != nil {
			t.Fatal(err)
		}
		got := kmsg.NewPtrFindCoordinatorResponse()
		got.Version = 3
		decode(t, out, got, 1, noTags)
		if got.Host != "127.0.0.1" || got.Port != 2222 {
			t.Fatalf("v3 coordinator %s:%d", got.Host, got.Port)
		}

		r = kmsg.NewPtrFindCoordinatorResponse()
		r.Version = 4
		r.Coordinators = []kmsg.FindCoordinatorResponseCoordinator{{Key: "g", NodeID: 1, Host: "b1", Port: 9092}, {Key: "h", NodeID: -1, ErrorCode: 15}}
		out, err = rewriteResponse(frame(r, 2, noTags), reqInfo{key: keyFindCoordinator, version: 4}, testLookup)
		if err != nil {
			t.Fatal(err)
		}
		got = kmsg.NewPtrFindCoordinatorResponse()
		got.Version = 4
		decode(t, out, got, 2, noTags)
		if c := got.Coordinators; c[0].Port != 1111 || c[1].Host != "" || c[1].ErrorCode != 15 {
			t.Fatalf("v4 coordinators %+v", c)
		}
	})

	t.Run("DescribeCluster", func(t *testing.T) {
		r := kmsg.NewPtrDescribeClusterResponse()
		r.Version = 1
		r.ClusterID = "c"
		r.Brokers = []kmsg.DescribeClusterResponseBroker{{NodeID: 2, Host: "b2", Port: 9093}}
		out, err := rewriteResponse(frame(r, 3, someTags), reqInfo{key: keyDescribeCluster, version: 1}, testLookup)
		if err != nil {
			t.Fatal(err)
		}
		got := kmsg.NewPtrDescribeClusterResponse()
		got.Version = 1
		decode(t, out, got, 3, someTags)
		if got.Brokers[0].Port != 2222 || got.ClusterID != "c" {
			t.Fatalf("%+v", got)
		}
	})

	t.Run("others untouched", func(t *testing.T) {
		r := kmsg.NewPtrApiVersionsResponse()
		r.Version = 3
		f := frame(r, 4, nil)
		out, err := rewriteResponse(f, reqInfo{key: keyApiVersions, version: 3}, testLookup)
		if err != nil || !bytes.Equal(out, f) {
			t.Fatalf("ApiVersions changed: %v", err)
		}
		m := kmsg.NewPtrMetadataResponse()
		m.Version = 12
		m.Brokers = []kmsg.MetadataResponseBroker{{NodeID: 3, Host: "other", Port: 1}}
		f = frame(m, 5, noTags)
		if out, err := rewriteResponse(f, reqInfo{key: keyMetadata, version: 12}, testLookup); err != nil || !bytes.Equal(out, f) {
			t.Fatalf("Metadata of unknown brokers changed: %v", err)
		}
	})

	t.Run("malformed", func(t *testing.T) {
		f := []byte{0, 0, 0, 6, 0, 0, 0, 1, 0x80, 0x80}
		if _, err := rewriteResponse(f, reqInfo{key: keyMetadata, version: 12}, testLookup); err == nil {
			t.Fatal("a truncated flexible header was accepted")
		}
	})
}
