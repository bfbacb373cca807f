package mm2

import (
	"bytes"
	"testing"
)

// FuzzDecodeCheckpoint: any bytes decode or fail with an error, never a
// panic, and what decodes re-encodes to the same bytes (the format has
// one encoding per value).
func FuzzDecodeCheckpoint(f *testing.F) {
	f.Add(EncodeKey(Key{Group: "g", Topic: "src.t", Partition: 1}), EncodeValue(Value{Upstream: 3, Downstream: 2, Metadata: "m"}, Version))
	f.Add([]byte{0xff, 0xff}, []byte{0, 1})
	f.Add([]byte{}, []byte{})
	f.Fuzz(func(t *testing.T, key, val []byte) {
		if k, err := DecodeKey(key); err == nil && !bytes.Equal(EncodeKey(k), key) {
			t.Fatalf("key %x decodes to %+v, which encodes to %x", key, k, EncodeKey(k))
		}
		if v, err := DecodeValue(val); err == nil && !bytes.Equal(EncodeValue(v, Version), val) {
			t.Fatalf("value %x decodes to %+v, which encodes to %x", val, v, EncodeValue(v, Version))
		}
		_, _ = Collect("t", []Record{{Key: key, Value: val}})
	})
}
