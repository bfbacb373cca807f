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
