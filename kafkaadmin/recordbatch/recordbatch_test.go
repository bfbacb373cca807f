package recordbatch

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/segmentio/kafka-go/compress"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// testBatch is a v2 record batch for scanBatches: records at the given
// offset deltas, each timestamp base+delta.
type testBatch struct {
	first      int64
	deltas     []int32 // offset deltas of the records present (gaps: compaction)
	lastDelta  int32   // LastOffsetDelta (defaults to the last delta)
	base       int64   // FirstTimestamp
	tsDeltas   []int64
	attrs      int16
	producer   int64
	maxTS      int64
	controlKey []byte // for control batches: every record's key
	gzip       bool
}

func (tb testBatch) encode(t testing.TB) []byte {
	t.Helper()
	var recs []byte
	for i, d := range tb.deltas {
		r := kmsg.Record{OffsetDelta: d, Key: tb.controlKey, Value: []byte("v")}
		if tb.tsDeltas != nil {
			r.TimestampDelta64 = tb.tsDeltas[i]
			r.TimestampDelta = int32(tb.tsDeltas[i])
		}
		body := r.AppendTo(nil) // Length 0: one byte of varint
		r.Length = int32(len(body) - 1)
		recs = r.AppendTo(recs)
	}
	attrs := tb.attrs
	if tb.gzip {
		var buf bytes.Buffer
		w := compress.Gzip.Codec().NewWriter(&buf)
		if _, err := w.Write(recs); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		recs = buf.Bytes()
		attrs |= int16(compress.Gzip)
	}
	last := tb.lastDelta
	if last == 0 && len(tb.deltas) > 0 {
		last = tb.deltas[len(tb.deltas)-1]
	}
	b := kmsg.RecordBatch{
		FirstOffset: tb.first, Magic: 2, Attributes: attrs, LastOffsetDelta: last,
		FirstTimestamp: tb.base, MaxTimestamp: tb.maxTS, ProducerID: tb.producer, ProducerEpoch: 0,
		FirstSequence: 0, NumRecords: int32(len(tb.deltas)), Records: recs,
	}
	enc := b.AppendTo(nil)
	binary.BigEndian.PutUint32(enc[8:12], uint32(len(enc)-12))
	return enc
}

func batches(t testing.TB, bs ...testBatch) []byte {
	var out []byte
	for _, b := range bs {
		out = append(out, b.encode(t)...)
	}
	return out
}

// scanBatches is the decode and scan RecordTimes does for one read.
func scanBatches(data []byte, target int64, aborted []kmsg.FetchResponseTopicPartitionAbortedTransaction) (Scan, error) {
	d, err := Decode(data, aborted)
	return d.Scan(target), err
}

func abortKey() []byte  { return []byte{0, 0, 0, 0} }
func commitKey() []byte { return []byte{0, 0, 0, 1} }

func TestScanBatches(t *testing.T) {
	const t0 = int64(1_700_000_000_000)
	plain := testBatch{first: 10, deltas: []int32{0, 1, 2, 3}, base: t0, tsDeltas: []int64{0, 100, 200, 300}}
	for _, tc := range []struct {
		name    string
		data    []byte
		target  int64
		aborted []kmsg.FetchResponseTopicPartitionAbortedTransaction
		want    Scan
	}{
		{"record inside the batch", batches(t, plain), 12, nil,
			Scan{Found: true, Offset: 12, Timestamp: t0 + 200, Next: 14}},
		{"compacted: the record at the offset is gone, the next one is used",
			batches(t, testBatch{first: 10, deltas: []int32{0, 4, 6}, base: t0, tsDeltas: []int64{0, 40, 60}}), 12, nil,
			Scan{Found: true, Offset: 14, Timestamp: t0 + 40, Next: 17}},
		{"compacted: a whole batch is gone, the next batch is used",
			batches(t, testBatch{first: 20, deltas: []int32{0}, base: t0 + 5000, tsDeltas: []int64{0}}), 12, nil,
			Scan{Found: true, Offset: 20, Timestamp: t0 + 5000, Next: 21}},
		{"a batch wholly before the offset is skipped",
			batches(t, plain, testBatch{first: 14, deltas: []int32{0, 1}, base: t0 + 1000, tsDeltas: []int64{0, 1}}), 14, nil,
			Scan{Found: true, Offset: 14, Timestamp: t0 + 1000, Next: 16}},
		{"LogAppendTime: the batch's max timestamp",
			batches(t, testBatch{first: 0, deltas: []int32{0, 1}, base: t0, tsDeltas: []int64{0, 0}, attrs: attrLogAppendTime, maxTS: t0 + 777}), 1, nil,
			Scan{Found: true, Offset: 1, Timestamp: t0 + 777, LogAppendTime: true, Next: 2}},
		{"gzip-compressed batch", batches(t, testBatch{first: 10, deltas: []int32{0, 1, 2}, base: t0, tsDeltas: []int64{0, 5, 9}, gzip: true}), 11, nil,
			Scan{Found: true, Offset: 11, Timestamp: t0 + 5, Next: 13}},
		{"transaction markers are skipped to the next data record",
			batches(t,
				testBatch{first: 0, deltas: []int32{0}, attrs: attrControl | attrTransactional, producer: 7, controlKey: commitKey(), base: t0},
				testBatch{first: 1, deltas: []int32{0}, base: t0 + 50, tsDeltas: []int64{0}}),
			0, nil, Scan{Found: true, Offset: 1, Timestamp: t0 + 50, Next: 2}},
		{"aborted data and its marker are skipped",
			batches(t,
				testBatch{first: 0, deltas: []int32{0, 1}, attrs: attrTransactional, producer: 7, base: t0, tsDeltas: []int64{0, 1}},
				testBatch{first: 2, deltas: []int32{0}, attrs: attrControl | attrTransactional, producer: 7, controlKey: abortKey(), base: t0},
				testBatch{first: 3, deltas: []int32{0}, attrs: attrTransactional, producer: 7, base: t0 + 300, tsDeltas: []int64{0}}),
			0, []kmsg.FetchResponseTopicPartitionAbortedTransaction{{ProducerID: 7, FirstOffset: 0}},
			Scan{Found: true, Offset: 3, Timestamp: t0 + 300, Next: 4}},
		{"committed transactional data is data",
			batches(t, testBatch{first: 0, deltas: []int32{0}, attrs: attrTransactional, producer: 8, base: t0, tsDeltas: []int64{0}}),
			0, []kmsg.FetchResponseTopicPartitionAbortedTransaction{{ProducerID: 7, FirstOffset: 0}},
			Scan{Found: true, Offset: 0, Timestamp: t0, Next: 1}},
		{"only markers left: nothing found, read up to after them",
			batches(t, testBatch{first: 5, deltas: []int32{0}, attrs: attrControl | attrTransactional, producer: 7, controlKey: commitKey(), base: t0}),
			5, nil, Scan{Next: 6}},
		{"no bytes", nil, 9, nil, Scan{Next: 9}},
		{"a batch cut off by the byte limit", batches(t, plain)[:40], 12, nil, Scan{Next: 12, Incomplete: true}},
		{"whole batches, then a cut-off one", append(batches(t, testBatch{first: 0, deltas: []int32{0}, attrs: attrControl, controlKey: commitKey()}), batches(t, plain)[:30]...), 0, nil,
			Scan{Next: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := scanBatches(tc.data, tc.target, tc.aborted)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestScanBatchesOldFormat(t *testing.T) {
	data := batches(t, testBatch{first: 0, deltas: []int32{0}})
	data[16] = 1
	_, err := scanBatches(data, 0, nil)
	if err == nil || !strings.Contains(err.Error(), "record format v1") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("err = %v, want one line about record format v1", err)
	}
}

// FuzzDecodeBatches feeds Decode the bytes a broker could send: it never
// panics, and what Scan reports lies at or after the offset asked for.
func FuzzDecodeBatches(f *testing.F) {
	f.Add(batches(f, testBatch{first: 10, deltas: []int32{0, 2, 3}, base: 1000, tsDeltas: []int64{0, 5, 9}}), int64(11))
	f.Add(batches(f, testBatch{first: 0, deltas: []int32{0}, attrs: attrControl | attrTransactional, producer: 7, controlKey: abortKey()}), int64(0))
	f.Add(batches(f, testBatch{first: 3, deltas: []int32{0, 1}, base: 7, tsDeltas: []int64{0, 1}, gzip: true})[:40], int64(3))
	f.Fuzz(func(t *testing.T, data []byte, target int64) {
		d, err := Decode(data, []kmsg.FetchResponseTopicPartitionAbortedTransaction{{ProducerID: 7, FirstOffset: 0}})
		if err != nil {
			return
		}
		s := d.Scan(target)
		if s.Next < target {
			t.Fatalf("Scan(%d).Next = %d, before the target", target, s.Next)
		}
		if s.Found && s.Offset < target {
			t.Fatalf("Scan(%d) found offset %d, before the target", target, s.Offset)
		}
	})
}
