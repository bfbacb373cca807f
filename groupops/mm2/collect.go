package mm2

import (
	"errors"
	"fmt"
)

// Record is one record of the checkpoints topic as read: Value nil is a
// tombstone (compaction deletes the key).
type Record struct {
	Partition int32
	Offset    int64
	// Timestamp is the record's timestamp in milliseconds (MM2's
	// producer sets CreateTime when it writes the checkpoint).
	Timestamp  int64
	Key, Value []byte
}

// Checkpoint is the newest checkpoint of one key, with where it was read.
type Checkpoint struct {
	Key
	Value
	// Timestamp (milliseconds), Partition and Offset are the record's in
	// the checkpoints topic.
	Timestamp int64
	Partition int32
	Offset    int64
}

// RecordError is a checkpoint record that cannot be decoded, named by its
// place in the checkpoints topic.
type RecordError struct {
	Topic     string
	Partition int32
	Offset    int64
	Err       error
}

func (e *RecordError) Error() string {
	return fmt.Sprintf("checkpoints topic %s partition %d offset %d: %v", e.Topic, e.Partition, e.Offset, e.Err)
}

func (e *RecordError) Unwrap() error { return e.Err }

// Collect reads the records of topic (each partition's in offset order,
// partitions in any order) as compaction would leave them: the last
// record of a key wins, a tombstone removes the key. A key seen in two
// partitions (the topic was repartitioned) keeps the newer record by
// timestamp. The first record that does not decode fails the whole read:
// a plan made from a partly understood topic could fail a group over to
// the wrong place.
func Collect(topic string, recs []Record) (map[Key]Checkpoint, error) {
	out := map[Key]Checkpoint{}
	where := map[Key]int32{}
	for _, r := range recs {
		k, err := DecodeKey(r.Key)
		if err != nil {
			return nil, &RecordError{Topic: topic, Partition: r.Partition, Offset: r.Offset, Err: err}
		}
		if r.Value == nil {
			if p, ok := where[k]; ok && p == r.Partition {
				delete(out, k)
				delete(where, k)
			}
			continue
		}
		v, err := DecodeValue(r.Value)
		if err != nil {
			return nil, &RecordError{Topic: topic, Partition: r.Partition, Offset: r.Offset, Err: err}
		}
		if old, ok := out[k]; ok && old.Partition != r.Partition && old.Timestamp > r.Timestamp {
			continue
		}
		out[k] = Checkpoint{Key: k, Value: v, Timestamp: r.Timestamp, Partition: r.Partition, Offset: r.Offset}
		where[k] = r.Partition
	}
	return out, nil
}

// IsVersionError reports whether err is (or wraps) a *VersionError.
func IsVersionError(err error) bool {
	var ve *VersionError
	return errors.As(err, &ve)
}
