package kafkaadmin_test

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// RecordTimes costs one Fetch per partition leader, also when a partition
// is asked at two offsets (two groups committed at different places): the
// read from the lower one answers both. Each answer is the record at the
// offset.
func TestRecordTimesFetchesPerLeader(t *testing.T) {
	e := kafkatest.Fake(t) // counts requests: kfake only
	cl := newClient(t, e)
	ctx := ctxFor(t)
	topic := kafkatest.UniqueName(t, "t")
	e.CreateTopic(t, topic, 6)
	base := time.Now().Add(-time.Hour).Truncate(time.Millisecond)
	var qs []kafkaadmin.RecordAt
	for p := range 6 {
		var rs []kafkatest.Record
		for i := range 4 {
			rs = append(rs, kafkatest.Record{Value: "v", Time: base.Add(time.Duration(p*10+i) * time.Second)})
		}
		e.Produce(t, topic, p, rs...)
		qs = append(qs, kafkaadmin.RecordAt{TP: kafkaadmin.TopicPartition{Topic: topic, Partition: int32(p)}, Offset: 1})
	}
	qs = append(qs, kafkaadmin.RecordAt{TP: kafkaadmin.TopicPartition{Topic: topic, Partition: 0}, Offset: 3})
	var fetches atomic.Int64
	e.Kfake.ControlKey(int16(kmsg.Fetch), func(kmsg.Request) (kmsg.Response, error, bool) {
		fetches.Add(1)
		e.Kfake.KeepControl()
		return nil, nil, false
	})
	defer e.Kfake.DropControl()

	got, err := cl.RecordTimes(ctx, qs)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range qs {
		r := got[q]
		want := base.Add(time.Duration(int(q.TP.Partition)*10+int(q.Offset)) * time.Second).UnixMilli()
		if r.Err != nil || !r.Found || r.Offset != q.Offset || r.Timestamp != want {
			t.Errorf("%v: %+v, want the record at the offset with timestamp %d", q, r, want)
		}
	}
	// One broker on this tier: one Fetch.
	if n := fetches.Load(); n != 1 {
		t.Errorf("%d Fetch requests, want 1", n)
	}
}
