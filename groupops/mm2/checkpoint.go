// Package mm2 decodes the records MirrorMaker 2's checkpoint connector
// writes into <source-alias>.checkpoints.internal on the target cluster,
// byte for byte as org.apache.kafka.connect.mirror.Checkpoint encodes
// them with Kafka's protocol.types.Schema (big-endian; STRING is an int16
// length and that many bytes of UTF-8):
//
//	key:   group STRING, topic STRING, partition INT32
//	value: version INT16 (0), upstreamOffset INT64, offset INT64, metadata STRING
//
// The key's topic is the remote name on the target (src.orders under the
// default replication policy). No network: kafkaadmin reads the bytes,
// this package only decodes them, so it is fuzzed on bytes alone
// (FuzzDecodeCheckpoint).
package mm2

import (
	"encoding/binary"
	"errors"
	"fmt"
	"unicode/utf8"
)

// Version is the one value-format version MM2 writes (Checkpoint.VERSION
// since Kafka 2.4, still 0 in 4.x).
const Version = 0

// Key is a checkpoint record's key: the consumer group and the partition
// of the (remote) topic on the target.
type Key struct {
	Group     string
	Topic     string
	Partition int32
}

// Value is a checkpoint record's value: the group's committed offset on
// the source (Upstream) and its translation on the target (Downstream,
// Checkpoint's "offset"), with the commit's metadata.
type Value struct {
	Upstream   int64
	Downstream int64
	Metadata   string
}

// VersionError is a value whose version header this decoder does not
// know: a newer MM2 may have changed the layout, so guessing is unsafe.
type VersionError struct{ Version int16 }

func (e *VersionError) Error() string {
	return fmt.Sprintf("checkpoint value version %d is not supported (kcg reads version %d, what MirrorMaker 2 writes up to Kafka 4.3)", e.Version, Version)
}

// ErrMalformed is wrapped by every decoding error but VersionError.
var ErrMalformed = errors.New("malformed checkpoint record")

// DecodeKey decodes a checkpoint record's key. Trailing bytes are
// refused, which is stricter than Kafka: Schema.read reads the fields and
// leaves the rest of the buffer unread, so Checkpoint.deserializeRecord
// ignores them. MM2 never writes them (it sizes the buffer to the
// fields), so kcg takes them for a record of another layout or writer
// (docs/failover.md, "Decision: refuse what MM2 does not write").
func DecodeKey(b []byte) (Key, error) {
	var k Key
	r := reader{b: b}
	k.Group = r.str("group")
	k.Topic = r.str("topic")
	k.Partition = int32(r.u32("partition"))
	if err := r.done("key"); err != nil {
		return Key{}, err
	}
	if k.Partition < 0 {
		return Key{}, fmt.Errorf("%w: key: partition %d is negative", ErrMalformed, k.Partition)
	}
	return k, nil
}

// DecodeValue decodes a checkpoint record's value. A version other than
// Version is a *VersionError (MM2's own reader checks the version only
// with a Java assert, off unless -ea). Trailing bytes are refused as in
// DecodeKey. Negative offsets are refused: MM2 writes checkpoints only for
// committed offsets it could translate.
func DecodeValue(b []byte) (Value, error) {
	var v Value
	r := reader{b: b}
	ver := int16(r.u16("version"))
	if r.err != nil {
		return Value{}, r.err
	}
	if ver != Version {
		return Value{}, &VersionError{Version: ver}
	}
	v.Upstream = int64(r.u64("upstreamOffset"))
	v.Downstream = int64(r.u64("offset"))
	v.Metadata = r.str("metadata")
	if err := r.done("value"); err != nil {
		return Value{}, err
	}
	if v.Upstream < 0 || v.Downstream < 0 {
		return Value{}, fmt.Errorf("%w: value: negative offset (upstream %d, downstream %d)", ErrMalformed, v.Upstream, v.Downstream)
	}
	return v, nil
}

// EncodeKey and EncodeValue write what MM2 writes; tests produce
// hand-made checkpoints with them.
func EncodeKey(k Key) []byte {
	b := appendStr(nil, k.Group)
	b = appendStr(b, k.Topic)
	return binary.BigEndian.AppendUint32(b, uint32(k.Partition))
}

// EncodeValue writes version v (Version for MM2's own).
func EncodeValue(v Value, version int16) []byte {
	b := binary.BigEndian.AppendUint16(nil, uint16(version))
	b = binary.BigEndian.AppendUint64(b, uint64(v.Upstream))
	b = binary.BigEndian.AppendUint64(b, uint64(v.Downstream))
	return appendStr(b, v.Metadata)
}

func appendStr(b []byte, s string) []byte {
	b = binary.BigEndian.AppendUint16(b, uint16(len(s)))
	return append(b, s...)
}

// reader reads fields in order and keeps the first error.
type reader struct {
	b   []byte
	err error
}

func (r *reader) need(n int, field string) []byte {
	if r.err != nil {
		return nil
	}
	if len(r.b) < n {
		r.err = fmt.Errorf("%w: %s: %d bytes needed, %d left", ErrMalformed, field, n, len(r.b))
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *reader) u16(field string) uint16 {
	if b := r.need(2, field); b != nil {
		return binary.BigEndian.Uint16(b)
	}
	return 0
}

func (r *reader) u32(field string) uint32 {
	if b := r.need(4, field); b != nil {
		return binary.BigEndian.Uint32(b)
	}
	return 0
}

func (r *reader) u64(field string) uint64 {
	if b := r.need(8, field); b != nil {
		return binary.BigEndian.Uint64(b)
	}
	return 0
}

// str is Schema's STRING: int16 length (negative is an error: STRING is
// not nullable) and UTF-8. Invalid UTF-8 is refused; Java's decoder would
// substitute U+FFFD, a group or topic name that matches nothing.
func (r *reader) str(field string) string {
	n := int16(r.u16(field + " length"))
	if r.err != nil {
		return ""
	}
	if n < 0 {
		r.err = fmt.Errorf("%w: %s: negative length %d", ErrMalformed, field, n)
		return ""
	}
	b := r.need(int(n), field)
	if r.err != nil {
		return ""
	}
	if !utf8.Valid(b) {
		r.err = fmt.Errorf("%w: %s: not UTF-8", ErrMalformed, field)
		return ""
	}
	return string(b)
}

func (r *reader) done(what string) error {
	if r.err != nil {
		return r.err
	}
	if len(r.b) > 0 {
		return fmt.Errorf("%w: %s: %d bytes after the last field", ErrMalformed, what, len(r.b))
	}
	return nil
}
