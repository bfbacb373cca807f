package kafkaadmin

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
)

// Subscription is a classic consumer's ConsumerProtocolSubscription, the
// member metadata a JoinGroup carries and DescribeGroups returns.
//
// kafka-go decodes only versions 0 and 1 and fails the whole group on v2/v3,
// which every current Java, franz-go and librdkafka consumer sends; this
// decoder reads v0–v3 and ignores trailing bytes of newer versions, as the
// protocol's compatibility rules intend.
type Subscription struct {
	Version         int16
	Topics          []string
	UserData        []byte
	OwnedPartitions []TopicPartitions // v1+
	GenerationID    int32             // v2+; -1 when absent
	RackID          *string           // v3+
}

// TopicPartitions is a topic and some of its partitions, sorted ascending.
type TopicPartitions struct {
	Topic      string
	Partitions []int32
}

// Assignment is a classic consumer's ConsumerProtocolAssignment, the member
// assignment a SyncGroup carries and DescribeGroups returns.
type Assignment struct {
	Version    int16
	Partitions []TopicPartitions
	UserData   []byte
}

var errShort = errors.New("truncated")

type reader struct {
	b   []byte
	err error
}

func (r *reader) int16() int16 {
	if r.err != nil || len(r.b) < 2 {
		r.err = errShort
		return 0
	}
	v := int16(binary.BigEndian.Uint16(r.b))
	r.b = r.b[2:]
	return v
}

func (r *reader) int32() int32 {
	if r.err != nil || len(r.b) < 4 {
		r.err = errShort
		return 0
	}
	v := int32(binary.BigEndian.Uint32(r.b))
	r.b = r.b[4:]
	return v
}

// nullableString reads an int16-length string; -1 is null.
func (r *reader) nullableString() *string {
	n := r.int16()
	if r.err != nil || n < 0 {
		return nil
	}
	if len(r.b) < int(n) {
		r.err = errShort
		return nil
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return &s
}

func (r *reader) string() string {
	s := r.nullableString()
	if s == nil {
		return ""
	}
	return *s
}

// bytes reads an int32-length byte array; -1 is null.
func (r *reader) bytes() []byte {
	n := r.int32()
	if r.err != nil || n < 0 {
		return nil
	}
	if len(r.b) < int(n) {
		r.err = errShort
		return nil
	}
	b := r.b[:n:n]
	r.b = r.b[n:]
	return b
}

// arrayLen reads an int32 array length, refusing lengths the remaining
// bytes cannot hold (a corrupt length must not allocate gigabytes).
func (r *reader) arrayLen(minElem int) int {
	n := r.int32()
	if r.err != nil || n < 0 {
		return 0
	}
	if int64(n)*int64(minElem) > int64(len(r.b)) {
		r.err = errShort
		return 0
	}
	return int(n)
}

func (r *reader) topicPartitions() []TopicPartitions {
	n := r.arrayLen(6)
	out := make([]TopicPartitions, 0, n)
	for i := 0; i < n && r.err == nil; i++ {
		tp := TopicPartitions{Topic: r.string()}
		m := r.arrayLen(4)
		for j := 0; j < m && r.err == nil; j++ {
			tp.Partitions = append(tp.Partitions, r.int32())
		}
		slices.Sort(tp.Partitions)
		out = append(out, tp)
	}
	slices.SortFunc(out, func(a, b TopicPartitions) int { return cmp.Compare(a.Topic, b.Topic) })
	return out
}

// DecodeSubscription decodes ConsumerProtocolSubscription v0–v3 (and the
// v3 prefix of later versions).
func DecodeSubscription(b []byte) (Subscription, error) {
	r := &reader{b: b}
	s := Subscription{Version: r.int16(), GenerationID: -1}
	if r.err == nil && s.Version < 0 {
		return s, fmt.Errorf("consumer subscription: invalid version %d", s.Version)
	}
	n := r.arrayLen(2)
	for i := 0; i < n && r.err == nil; i++ {
		s.Topics = append(s.Topics, r.string())
	}
	s.UserData = r.bytes()
	// Fields added after v0 are read only when bytes remain: kafka-go's
	// Reader writes a v1 header and stops after the user data, and the
	// Java tool describes such members, so kcg must too.
	if s.Version >= 1 && len(r.b) > 0 {
		s.OwnedPartitions = r.topicPartitions()
	}
	if s.Version >= 2 && len(r.b) > 0 {
		s.GenerationID = r.int32()
	}
	if s.Version >= 3 && len(r.b) > 0 {
		s.RackID = r.nullableString()
	}
	if r.err != nil {
		return s, fmt.Errorf("consumer subscription v%d: %w", s.Version, r.err)
	}
	slices.Sort(s.Topics)
	return s, nil
}

// DecodeAssignment decodes ConsumerProtocolAssignment v0–v3 (all versions
// share one layout; later versions' extra fields are ignored). An empty
// input is an empty assignment: members that have not synced yet have none.
func DecodeAssignment(b []byte) (Assignment, error) {
	if len(b) == 0 {
		return Assignment{}, nil
	}
	r := &reader{b: b}
	a := Assignment{Version: r.int16()}
	a.Partitions = r.topicPartitions()
	a.UserData = r.bytes()
	if r.err != nil {
		return a, fmt.Errorf("consumer assignment v%d: %w", a.Version, r.err)
	}
	return a, nil
}

// EncodeSubscription encodes s at s.Version (0–3). kcg only needs it for
// tests and the sandbox; it is the exact inverse of DecodeSubscription.
func EncodeSubscription(s Subscription) []byte {
	var b []byte
	b = binary.BigEndian.AppendUint16(b, uint16(s.Version))
	b = binary.BigEndian.AppendUint32(b, uint32(len(s.Topics)))
	for _, t := range s.Topics {
		b = appendString(b, t)
	}
	b = appendBytes(b, s.UserData)
	if s.Version >= 1 {
		b = appendTopicPartitions(b, s.OwnedPartitions)
	}
	if s.Version >= 2 {
		b = binary.BigEndian.AppendUint32(b, uint32(s.GenerationID))
	}
	if s.Version >= 3 {
		if s.RackID == nil {
			b = binary.BigEndian.AppendUint16(b, 0xffff)
		} else {
			b = appendString(b, *s.RackID)
		}
	}
	return b
}

func appendString(b []byte, s string) []byte {
	b = binary.BigEndian.AppendUint16(b, uint16(len(s)))
	return append(b, s...)
}

func appendBytes(b, v []byte) []byte {
	if v == nil {
		return binary.BigEndian.AppendUint32(b, 0xffffffff)
	}
	b = binary.BigEndian.AppendUint32(b, uint32(len(v)))
	return append(b, v...)
}

func appendTopicPartitions(b []byte, tps []TopicPartitions) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(len(tps)))
	for _, tp := range tps {
		b = appendString(b, tp.Topic)
		b = binary.BigEndian.AppendUint32(b, uint32(len(tp.Partitions)))
		for _, p := range tp.Partitions {
			b = binary.BigEndian.AppendUint32(b, uint32(p))
		}
	}
	return b
}
