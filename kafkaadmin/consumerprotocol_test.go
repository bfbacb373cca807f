package kafkaadmin

import (
	"encoding/hex"
	"reflect"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"
)

func TestSubscriptionRoundTrip(t *testing.T) {
	rack := "eu-1a"
	for v := int16(0); v <= 3; v++ {
		in := Subscription{Version: v, Topics: []string{"orders", "payments"}, UserData: []byte{1, 2}, GenerationID: -1}
		if v >= 1 {
			in.OwnedPartitions = []TopicPartitions{{Topic: "orders", Partitions: []int32{0, 2}}}
		}
		if v >= 2 {
			in.GenerationID = 7
		}
		if v >= 3 {
			in.RackID = &rack
		}
		got, err := DecodeSubscription(EncodeSubscription(in))
		if err != nil {
			t.Fatalf("v%d: %v", v, err)
		}
		if !reflect.DeepEqual(got, in) {
			t.Fatalf("v%d: got %+v, want %+v", v, got, in)
		}
	}
}

// TestSubscriptionFromKmsg decodes bytes produced by an independent
// encoder (franz-go's, which writes what Java consumers write) at every
// version, including v3 where kafka-go's own decoder fails with "Got
// non-zero number of bytes remaining".
func TestSubscriptionFromKmsg(t *testing.T) {
	for v := int16(0); v <= 3; v++ {
		m := kmsg.NewConsumerMemberMetadata()
		m.Version = v
		m.Topics = []string{"t2", "t1"}
		m.UserData = []byte("ud")
		if v >= 1 {
			op := kmsg.NewConsumerMemberMetadataOwnedPartition()
			op.Topic = "t1"
			op.Partitions = []int32{3, 1}
			m.OwnedPartitions = append(m.OwnedPartitions, op)
		}
		m.Generation = 5
		rack := "r"
		m.Rack = &rack
		b := m.AppendTo(nil)
		got, err := DecodeSubscription(b)
		if err != nil {
			t.Fatalf("v%d: %v (bytes %s)", v, err, hex.EncodeToString(b))
		}
		if !reflect.DeepEqual(got.Topics, []string{"t1", "t2"}) {
			t.Errorf("v%d topics = %v", v, got.Topics)
		}
		if v >= 1 && !reflect.DeepEqual(got.OwnedPartitions, []TopicPartitions{{Topic: "t1", Partitions: []int32{1, 3}}}) {
			t.Errorf("v%d owned = %v", v, got.OwnedPartitions)
		}
		if v >= 2 && got.GenerationID != 5 {
			t.Errorf("v%d generation = %d", v, got.GenerationID)
		}
		if v >= 3 && (got.RackID == nil || *got.RackID != "r") {
			t.Errorf("v%d rack = %v", v, got.RackID)
		}
	}
}

func TestAssignmentFromKmsg(t *testing.T) {
	a := kmsg.NewConsumerMemberAssignment()
	a.Version = 3
	tp := kmsg.NewConsumerMemberAssignmentTopic()
	tp.Topic = "orders"
	tp.Partitions = []int32{2, 0}
	a.Topics = append(a.Topics, tp)
	got, err := DecodeAssignment(a.AppendTo(nil))
	if err != nil {
		t.Fatal(err)
	}
	want := []TopicPartitions{{Topic: "orders", Partitions: []int32{0, 2}}}
	if !reflect.DeepEqual(got.Partitions, want) {
		t.Fatalf("got %v, want %v", got.Partitions, want)
	}
	if empty, err := DecodeAssignment(nil); err != nil || len(empty.Partitions) != 0 {
		t.Fatalf("empty assignment: %v %v", empty, err)
	}
}

// kafka-go's Reader writes subscription v1 without the owned partitions
// (bytes seen on the wire from a Reader on both test tiers).
func TestSubscriptionV1WithoutOwnedPartitions(t *testing.T) {
	b, _ := hex.DecodeString("0001" + "00000001" + "0006" + hex.EncodeToString([]byte("orders")) + "ffffffff")
	s, err := DecodeSubscription(b)
	if err != nil || s.Version != 1 || len(s.Topics) != 1 || s.Topics[0] != "orders" || s.OwnedPartitions != nil {
		t.Fatalf("%+v %v", s, err)
	}
}

func TestDecodeCorrupt(t *testing.T) {
	good := EncodeSubscription(Subscription{Version: 3, Topics: []string{"orders"}, OwnedPartitions: []TopicPartitions{{Topic: "orders", Partitions: []int32{1}}}})
	// Cut inside a field (not at a field boundary after the user data,
	// which is how writers omit later versions' fields): an error.
	v0 := len(EncodeSubscription(Subscription{Version: 0, Topics: []string{"orders"}}))
	cuts := []int{1, 3, 5, 7, 10, v0 - 1, v0 + 2, v0 + 5, v0 + 9, v0 + 13, len(good) - 1}
	for _, n := range cuts {
		if _, err := DecodeSubscription(good[:n]); err == nil {
			t.Fatalf("truncated at %d/%d: no error", n, len(good))
		}
	}
	// A huge array length must not allocate or panic.
	huge := []byte{0, 0, 0x7f, 0xff, 0xff, 0xff}
	if _, err := DecodeSubscription(huge); err == nil {
		t.Fatal("huge topic count: no error")
	}
	if _, err := DecodeAssignment([]byte{0, 1, 0xff, 0xff, 0xff, 0x00}); err == nil {
		t.Fatal("corrupt assignment: no error")
	}
	// Newer versions with extra trailing fields decode their v3 prefix.
	extra := append(append([]byte{}, EncodeSubscription(Subscription{Version: 3, Topics: []string{"a"}})...), 9, 9, 9)
	extra[1] = 4
	if s, err := DecodeSubscription(extra); err != nil || len(s.Topics) != 1 {
		t.Fatalf("v4 with trailing bytes: %v %v", s, err)
	}
}
