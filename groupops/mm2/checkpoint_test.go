package mm2

import (
	"errors"
	"testing"
)

// A record as MM2 4.3's Checkpoint.recordKey/recordValue write it, bytes
// written out by hand from the schema (not through EncodeKey).
func TestDecodeMM2Bytes(t *testing.T) {
	key := []byte{0, 2, 'g', '1', 0, 8, 's', 'r', 'c', '.', 'o', 'r', 'd', 's', 0, 0, 0, 3}
	val := []byte{0, 0, // version 0
		0, 0, 0, 0, 0, 0, 0, 42, // upstreamOffset
		0, 0, 0, 0, 0, 0, 0, 40, // offset
		0, 0} // metadata ""
	k, err := DecodeKey(key)
	if err != nil || k != (Key{Group: "g1", Topic: "src.ords", Partition: 3}) {
		t.Fatalf("key = %+v, %v", k, err)
	}
	v, err := DecodeValue(val)
	if err != nil || v != (Value{Upstream: 42, Downstream: 40}) {
		t.Fatalf("value = %+v, %v", v, err)
	}
	if string(EncodeKey(k)) != string(key) || string(EncodeValue(v, Version)) != string(val) {
		t.Fatal("Encode does not write what MM2 writes")
	}
}

func TestDecodeRefusals(t *testing.T) {
	good := EncodeValue(Value{Upstream: 1, Downstream: 1, Metadata: "m"}, Version)
	var ve *VersionError
	if _, err := DecodeValue(EncodeValue(Value{}, 7)); !errors.As(err, &ve) || ve.Version != 7 {
		t.Fatalf("version 7: %v", err)
	}
	for name, b := range map[string][]byte{
		"empty":    {},
		"short":    good[:10],
		"trailing": append(append([]byte{}, good...), 0),
		"negative": EncodeValue(Value{Upstream: -1, Downstream: 0}, Version),
	} {
		if _, err := DecodeValue(b); !errors.Is(err, ErrMalformed) {
			t.Errorf("value %s: err = %v, want ErrMalformed", name, err)
		}
	}
	for name, b := range map[string][]byte{
		"empty":       {},
		"neg length":  {0xff, 0xff},
		"bad utf8":    {0, 1, 0xff, 0, 0, 0, 0, 0, 0},
		"no part":     {0, 0, 0, 0},
		"neg part":    EncodeKey(Key{Group: "g", Topic: "t", Partition: -1}),
		"trailing":    append(EncodeKey(Key{Group: "g", Topic: "t"}), 1),
		"long length": {0, 9, 'a'},
	} {
		if _, err := DecodeKey(b); !errors.Is(err, ErrMalformed) {
			t.Errorf("key %s: err = %v, want ErrMalformed", name, err)
		}
	}
}

func TestCollectCompaction(t *testing.T) {
	k1 := EncodeKey(Key{Group: "g", Topic: "src.t", Partition: 0})
	k2 := EncodeKey(Key{Group: "h", Topic: "src.t", Partition: 0})
	v := func(up, down int64) []byte { return EncodeValue(Value{Upstream: up, Downstream: down}, Version) }
	recs := []Record{
		{Partition: 0, Offset: 0, Timestamp: 10, Key: k1, Value: v(5, 4)},
		{Partition: 0, Offset: 1, Timestamp: 11, Key: k2, Value: v(7, 7)},
		{Partition: 0, Offset: 2, Timestamp: 12, Key: k1, Value: v(9, 8)},
		{Partition: 0, Offset: 3, Timestamp: 13, Key: k2}, // tombstone
	}
	got, err := Collect("src.checkpoints.internal", recs)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 {
		t.Fatalf("got %d checkpoints, want 1: %+v", len(got), got)
	}
	c := got[Key{Group: "g", Topic: "src.t"}]
	if c.Upstream != 9 || c.Downstream != 8 || c.Offset != 2 || c.Timestamp != 12 {
		t.Fatalf("checkpoint = %+v, want the last record of the key", c)
	}
	recs = append(recs, Record{Partition: 0, Offset: 4, Key: k1, Value: []byte{0, 1}})
	_, err = Collect("src.checkpoints.internal", recs)
	var re *RecordError
	if !errors.As(err, &re) || re.Offset != 4 || !IsVersionError(err) {
		t.Fatalf("err = %v, want the version error at offset 4", err)
	}
}
