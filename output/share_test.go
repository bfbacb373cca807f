package output

import (
	"bytes"
	"strings"
	"testing"
)

// The describe table of a share group: START-OFFSET and the broker's
// LAG, after the consumer groups' table; a partition without a start
// offset shows "-".
func TestShareOffsetsTable(t *testing.T) {
	share := GroupDescription{Group: "sh", Type: Ptr(TypeShare), State: Ptr("Empty"), Offsets: []PartitionOffset{
		{Topic: "t", Partition: 0, StartOffset: Ptr[int64](7), LogEndOffset: Ptr[int64](10), Lag: Ptr[int64](3)},
		{Topic: "t", Partition: 1, LogEndOffset: Ptr[int64](10)},
	}, TotalLag: Ptr[int64](3)}
	consumer := GroupDescription{Group: "c", Type: Ptr(TypeConsumer), State: Ptr("Empty"), Offsets: []PartitionOffset{
		{Topic: "t", Partition: 0, CommittedOffset: Ptr[int64](5), LogEndOffset: Ptr[int64](10), Lag: Ptr[int64](5)},
	}, TotalLag: Ptr[int64](5)}
	var b bytes.Buffer
	if err := (DescribeView{Doc: NewGroupDescriptionList([]GroupDescription{consumer, share})}).WriteTable(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	parts := strings.SplitN(out, "\n\n", 2)
	if len(parts) != 2 || !strings.Contains(parts[0], "CURRENT-OFFSET") || strings.Contains(parts[0], "sh ") ||
		!strings.Contains(parts[1], "START-OFFSET") || strings.Contains(parts[1], "CURRENT-OFFSET") {
		t.Fatalf("tables:\n%s", out)
	}
	lines := strings.Split(strings.TrimSpace(parts[1]), "\n")
	if f := strings.Fields(lines[1]); f[3] != "7" || f[4] != "10" || f[5] != "3" {
		t.Fatalf("share row %q", lines[1])
	}
	if f := strings.Fields(lines[2]); f[3] != "-" || f[5] != "-" {
		t.Fatalf("uninitialised row %q", lines[2])
	}
}

// -o markdown and -o prometheus show a share group's start offset where
// they show a committed offset (Current; kafka_consumergroup_current_offset)
// and its lag; a share-partition without a start offset has neither.
func TestShareOffsetsMarkdownAndMetrics(t *testing.T) {
	share := GroupDescription{Group: "sh", Type: Ptr(TypeShare), State: Ptr("Empty"), Members: []Member{}, Offsets: []PartitionOffset{
		{Topic: "t", Partition: 0, StartOffset: Ptr[int64](7), LogStartOffset: Ptr[int64](0), LogEndOffset: Ptr[int64](10), Lag: Ptr[int64](3)},
		{Topic: "t", Partition: 1, LogStartOffset: Ptr[int64](0), LogEndOffset: Ptr[int64](10)},
	}, TotalLag: Ptr[int64](3)}
	doc := NewGroupDescriptionList([]GroupDescription{share})
	var md bytes.Buffer
	if err := renderMarkdown(&md, DescribeView{Doc: doc}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| `sh` | `t` | 0 | 7 | 10 | 3 |", "| `sh` | `t` | 1 | - | 10 | - |"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md.String())
		}
	}
	var prom bytes.Buffer
	if err := (Metrics{Doc: doc, Up: true}).WritePrometheus(&prom); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`kafka_consumergroup_current_offset{consumergroup="sh",topic="t",partition="0"} 7`,
		`kafka_consumergroup_lag{consumergroup="sh",topic="t",partition="0"} 3`,
		`kafka_consumergroup_lag_sum{consumergroup="sh",topic="t"} 3`,
	} {
		if !strings.Contains(prom.String(), want+"\n") {
			t.Errorf("metrics lack %q:\n%s", want, prom.String())
		}
	}
	if strings.Contains(prom.String(), `consumergroup="sh",topic="t",partition="1"}`) {
		t.Errorf("a share-partition without a start offset has a sample:\n%s", prom.String())
	}
}
