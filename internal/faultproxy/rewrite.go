package faultproxy

import (
	"encoding/binary"
	"fmt"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// The responses that carry broker addresses.
const (
	keyMetadata        = 3
	keyFindCoordinator = 10
	keyApiVersions     = 18
	keyDescribeCluster = 60
)

// rewriteResponse returns frame (a whole response, size prefix included)
// with the broker addresses in a Metadata, FindCoordinator or
// DescribeCluster response replaced by lookup's; other responses, and
// addresses lookup does not know, are returned as they are.
func rewriteResponse(frame []byte, info reqInfo, lookup func(string, int32) (string, int32, bool)) ([]byte, error) {
	switch info.key {
	case keyMetadata, keyFindCoordinator, keyDescribeCluster:
	default:
		return frame, nil
	}
	resp := kmsg.ResponseForKey(info.key)
	resp.SetVersion(info.version)
	body := frame[4:]
	hdr, err := headerLen(body, resp.IsFlexible() && info.key != keyApiVersions)
	if err != nil {
		return nil, fmt.Errorf("%s v%d response: %w", kmsg.NameForKey(info.key), info.version, err)
	}
	if err := resp.ReadFrom(body[hdr:]); err != nil {
		return nil, fmt.Errorf("decoding %s v%d response: %w", kmsg.NameForKey(info.key), info.version, err)
	}
	changed := false
	swap := func(host *string, port *int32) {
		if h, p, ok := lookup(*host, *port); ok {
			*host, *port = h, p
			changed = true
		}
	}
	switch r := resp.(type) {
	case *kmsg.MetadataResponse:
		for i := range r.Brokers {
			swap(&r.Brokers[i].Host, &r.Brokers[i].Port)
		}
	case *kmsg.FindCoordinatorResponse:
		if r.Host != "" {
			swap(&r.Host, &r.Port)
		}
		for i := range r.Coordinators {
			if r.Coordinators[i].Host != "" {
				swap(&r.Coordinators[i].Host, &r.Coordinators[i].Port)
			}
		}
	case *kmsg.DescribeClusterResponse:
		for i := range r.Brokers {
			swap(&r.Brokers[i].Host, &r.Brokers[i].Port)
		}
	}
	if !changed {
		return frame, nil
	}
	out := make([]byte, 4, len(frame)+64)
	out = append(out, body[:hdr]...) // correlation id and header tags, as the broker sent them
	out = resp.AppendTo(out)
	binary.BigEndian.PutUint32(out, uint32(len(out)-4))
	return out, nil
}

// headerLen is the length of a response header in body: the correlation
// id, and in a flexible header its tag buffer (KIP-482; an ApiVersions
// response always has header v0, KIP-511).
func headerLen(body []byte, flexible bool) (int, error) {
	if len(body) < 4 {
		return 0, fmt.Errorf("truncated header")
	}
	n := 4
	if !flexible {
		return n, nil
	}
	count, used := binary.Uvarint(body[n:])
	if used <= 0 {
		return 0, fmt.Errorf("malformed header tags")
	}
	n += used
	for range count {
		_, u := binary.Uvarint(body[n:])
		if u <= 0 {
			return 0, fmt.Errorf("malformed header tag")
		}
		n += u
		size, u := binary.Uvarint(body[n:])
		if u <= 0 || uint64(len(body)-n-u) < size {
			return 0, fmt.Errorf("malformed header tag")
		}
		n += u + int(size)
	}
	return n, nil
}
