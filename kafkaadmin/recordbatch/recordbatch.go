// Package recordbatch decodes the record bytes of a Fetch answer (the v2
// record batch format) into what a read-committed consumer would receive:
// control batches (transaction markers) and the data of aborted
// transactions are left out, compressed batches are decompressed with
// kafka-go's codecs, and a batch cut off by the Fetch byte limit is
// noticed rather than misread. No network: kafkaadmin fetches the bytes,
// this package reads them, so the decoder is tested (and fuzzable) on
// bytes alone.
package recordbatch

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/segmentio/kafka-go/compress"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Scan is what Batches.Scan found for one offset: the first data record
// at or after it (Found, its Offset and Timestamp in milliseconds;
// LogAppendTime when the timestamp is the broker's append time).
type Scan struct {
	Found         bool
	Offset        int64
	Timestamp     int64
	LogAppendTime bool
	// Next is the offset after the last whole batch read (the target
	// when none was); Incomplete is set when not even one whole batch was
	// there (cut off by the byte limit).
	Next       int64
	Incomplete bool
}

// Record batch attributes (v2 format).
const (
	attrCompression   = 0x07
	attrLogAppendTime = 0x08
	attrTransactional = 0x10
	attrControl       = 0x20
)

// dataRecord is one record a read-committed consumer would receive.
type dataRecord struct {
	offset, timestamp int64
	logAppendTime     bool
	key, value        []byte // value nil: a tombstone
}

// Record is one data record with its key and value (Value nil: null, a
// tombstone), for readers of a whole topic (kafkaadmin.ReadTopic).
type Record struct {
	Offset, Timestamp int64
	Key, Value        []byte
}

// Batches is a partition's record bytes, decoded.
type Batches struct {
	recs []dataRecord // in offset order
	// next is the offset after the last whole batch; whole counts the
	// whole batches; cut is set when bytes of a batch cut off by the byte
	// limit follow.
	next  int64
	whole int
	cut   bool
}

// Decode decodes data, the RecordBatches of one Fetch partition,
// into the data records a read-committed consumer would receive: control
// batches (transaction markers) are left out, and so are the
// transactional batches of the producers whose aborted transactions the
// broker listed (an aborted transaction starts at its FirstOffset and
// ends at the producer's ABORT marker). A record of a LogAppendTime batch
// has the batch's MaxTimestamp. Records removed by compaction are simply
// not there.
func Decode(data []byte, aborted []kmsg.FetchResponseTopicPartitionAbortedTransaction) (Batches, error) {
	var d Batches
	d.next = -1
	abortedBy := map[int64]bool{} // producers inside an aborted transaction
	pendingAborts := aborted      // not yet reached, by FirstOffset (sorted by the broker)
	for len(data) >= 12 {
		length := int64(int32(binary.BigEndian.Uint32(data[8:12])))
		if length < 49 || int64(len(data)) < 12+length {
			break // cut off by the byte limit
		}
		raw := data[:12+length]
		data = data[12+length:]
		if magic := raw[16]; magic != 2 {
			return d, fmt.Errorf("record format v%d is not supported (only v2)", magic)
		}
		var b kmsg.RecordBatch
		if err := b.ReadFrom(raw); err != nil {
			return d, fmt.Errorf("decoding a record batch: %w", err)
		}
		d.whole++
		last := b.FirstOffset + int64(b.LastOffsetDelta)
		d.next = max(d.next, last+1)
		for len(pendingAborts) > 0 && pendingAborts[0].FirstOffset <= last {
			abortedBy[pendingAborts[0].ProducerID] = true
			pendingAborts = pendingAborts[1:]
		}
		if b.Attributes&attrControl != 0 {
			recs, err := batchRecords(&b)
			if err != nil {
				return d, err
			}
			for _, r := range recs {
				// Control record key: version int16, type int16 (0 ABORT, 1 COMMIT).
				if len(r.Key) >= 4 && binary.BigEndian.Uint16(r.Key[2:4]) == 0 {
					delete(abortedBy, b.ProducerID)
				}
			}
			continue
		}
		if b.Attributes&attrTransactional != 0 && abortedBy[b.ProducerID] {
			continue
		}
		recs, err := batchRecords(&b)
		if err != nil {
			return d, err
		}
		for _, r := range recs {
			dr := dataRecord{offset: b.FirstOffset + int64(r.OffsetDelta), timestamp: b.FirstTimestamp + r.TimestampDelta64, key: r.Key, value: r.Value}
			if b.Attributes&attrLogAppendTime != 0 {
				dr.timestamp, dr.logAppendTime = b.MaxTimestamp, true
			}
			d.recs = append(d.recs, dr)
		}
	}
	d.cut = len(data) > 0
	return d, nil
}

// Scan finds the first data record at offset target or after it. The
// broker starts a Fetch at the batch holding the fetch offset, so the
// records before target are skipped.
func (d Batches) Scan(target int64) Scan {
	s := Scan{Next: max(target, d.next)}
	for _, r := range d.recs {
		if r.offset >= target {
			s.Found, s.Offset, s.Timestamp, s.LogAppendTime = true, r.offset, r.timestamp, r.logAppendTime
			return s
		}
	}
	s.Incomplete = d.whole == 0 && d.cut
	return s
}

// Records returns the data records at offset from or after it, in offset
// order.
func (d Batches) Records(from int64) []Record {
	var out []Record
	for _, r := range d.recs {
		if r.offset >= from {
			out = append(out, Record{Offset: r.offset, Timestamp: r.timestamp, Key: r.key, Value: r.value})
		}
	}
	return out
}

// Next is the offset after the last whole batch decoded (-1 when none
// was), and Cut tells that a batch cut off by the byte limit followed.
func (d Batches) Next() int64 { return d.next }

// Cut reports a batch cut off by the byte limit after the whole ones.
func (d Batches) Cut() bool { return d.cut }

// batchRecords decompresses and decodes the records of a v2 batch.
func batchRecords(b *kmsg.RecordBatch) ([]kmsg.Record, error) {
	raw := b.Records
	if codec := compress.Compression(b.Attributes & attrCompression); codec != compress.None {
		c := codec.Codec()
		if c == nil {
			return nil, fmt.Errorf("record batch compressed with unknown codec %d", codec)
		}
		rd := c.NewReader(bytes.NewReader(raw))
		var err error
		raw, err = io.ReadAll(rd)
		rd.Close()
		if err != nil {
			return nil, fmt.Errorf("decompressing a %s record batch: %w", codec, err)
		}
	}
	// NumRecords comes off the wire: every record takes at least one byte,
	// so the bytes bound the capacity (a corrupt count must not allocate
	// gigabytes).
	recs := make([]kmsg.Record, 0, min(max(b.NumRecords, 0), int32(min(len(raw), math.MaxInt32))))
	for i := int32(0); i < b.NumRecords && len(raw) > 0; i++ {
		n, used := binary.Varint(raw)
		if used <= 0 || n < 0 || int64(len(raw)-used) < n {
			return nil, errors.New("malformed record in a record batch")
		}
		var r kmsg.Record
		if err := r.ReadFrom(raw[:used+int(n)]); err != nil {
			return nil, fmt.Errorf("decoding a record: %w", err)
		}
		raw = raw[used+int(n):]
		recs = append(recs, r)
	}
	return recs, nil
}
