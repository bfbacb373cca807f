package output

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/internal/golden"
)

func TestNativeTableGoldens(t *testing.T) {
	l := fixtureDescriptions()
	cases := []struct {
		name string
		doc  Document
	}{
		{"list.table", fixtureGroupList()},
		{"describe-offsets.table", DescribeView{Doc: l, View: ViewOffsets}},
		{"describe-offsets-verbose.table", DescribeView{Doc: l, View: ViewOffsets, Verbose: true}},
		{"describe-offsets-timelag.table", DescribeView{Doc: withTimeLags(fixtureDescriptions()), View: ViewOffsets, TimeLag: true}},
		{"describe-members.table", DescribeView{Doc: l, View: ViewMembers}},
		{"describe-members-verbose.table", DescribeView{Doc: l, View: ViewMembers, Verbose: true}},
		{"describe-state.table", DescribeView{Doc: l, View: ViewState}},
		{"describe-state-verbose.table", DescribeView{Doc: l, View: ViewState, Verbose: true}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := golden.Render(t, func(b *bytes.Buffer) error { return Write(b, FormatTable, c.doc) })
			golden.Check(t, c.name, got)
			for i, line := range strings.Split(strings.TrimSuffix(string(got), "\n"), "\n") {
				if strings.HasSuffix(line, " ") {
					t.Errorf("line %d has trailing blanks: %q", i+1, line)
				}
				if strings.ContainsAny(line, "|+─│┌") {
					t.Errorf("line %d has border characters: %q", i+1, line)
				}
			}
		})
	}
}

// TestNativeTableShape pins the properties the goldens encode, so a
// tablewriter upgrade that changes them fails with a readable message.
func TestNativeTableShape(t *testing.T) {
	got := string(golden.Render(t, func(b *bytes.Buffer) error {
		return Write(b, FormatTable, DescribeView{Doc: fixtureDescriptions(), View: ViewOffsets})
	}))
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	if n := strings.Count(got, "GROUP "); n != 1 {
		t.Errorf("want one header for all groups, got %d:\n%s", n, got)
	}
	if !strings.HasPrefix(lines[0], "GROUP ") || !strings.Contains(lines[0], " LAG   CONSUMER-ID ") {
		t.Errorf("header not left-aligned with three-blank gaps: %q", lines[0])
	}
	want := []string{
		"billing payments 0 3 6 3 - - -",
		"billing (total) 3",
		"orders-app-long-group-id orders 0 5 5 0 " + ordersMember + " /10.0.0.7 consumer-orders-app-1",
		"orders-app-long-group-id orders 1 - 4 - " + ordersMember + " /10.0.0.7 consumer-orders-app-1",
		"orders-app-long-group-id orders-archive 0 10 12 2 - - -",
		"orders-app-long-group-id (total) 2",
	}
	fields := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	for i, w := range want {
		if got := fields(lines[i+1]); got != w {
			t.Errorf("row %d = %q, want %q", i+1, got, w)
		}
	}
	// Columns line up: every row's LAG cell starts where the header's does.
	lagCol := strings.Index(lines[0], "LAG")
	if lines[2][lagCol] != '3' {
		t.Errorf("total lag not under LAG:\n%s\n%s", lines[0], lines[2])
	}
	// Errors, Dead groups without offsets and empty lists print no rows.
	if strings.Contains(got, "broken") || strings.Contains(got, "zombie") {
		t.Errorf("groups without offsets must not print:\n%s", got)
	}
	var b bytes.Buffer
	if err := Write(&b, FormatTable, NewGroupList(nil)); err != nil || b.Len() != 0 {
		t.Errorf("empty list printed %q, %v", b.String(), err)
	}
}

func TestAssignmentString(t *testing.T) {
	cases := []struct {
		in   []TopicPartitions
		want string
	}{
		{nil, "-"},
		{[]TopicPartitions{{Topic: "t", Partitions: nil}}, "-"},
		{[]TopicPartitions{{Topic: "topic2", Partitions: []int32{0}}, {Topic: "topic1", Partitions: []int32{1, 0}}}, "topic1:0,1;topic2:0"},
		{[]TopicPartitions{{Topic: "t", Partitions: []int32{10, 2, 1}}}, "t:1,2,10"},
		// Java sorts the "topic:partitions" strings: '-' < ':'.
		{[]TopicPartitions{{Topic: "a", Partitions: []int32{0}}, {Topic: "a-b", Partitions: []int32{0}}}, "a-b:0;a:0"},
		{[]TopicPartitions{{Topic: "t", Partitions: []int32{1}}, {Topic: "t", Partitions: []int32{0}}}, "t:0,1"},
	}
	for _, c := range cases {
		if got := AssignmentString(c.in); got != c.want {
			t.Errorf("AssignmentString(%+v) = %q, want %q", c.in, got, c.want)
		}
	}
}

// withTimeLags gives the fixture's offsets time lags as describe
// --time-lag reads them: one known, the others unknown ("-").
func withTimeLags(l GroupDescriptionList) GroupDescriptionList {
	lags := []*int64{Ptr(int64(252_000)), nil, Ptr(int64(93_784_000))}
	n := 0
	for gi := range l.Groups {
		g := &l.Groups[gi]
		for oi := range g.Offsets {
			o := &g.Offsets[oi]
			switch {
			case o.CommittedOffset == nil:
			case o.Lag != nil && *o.Lag == 0:
				o.TimeLagMs = Ptr(int64(0))
			default:
				o.TimeLagMs = lags[n%len(lags)]
				n++
			}
		}
		g.MaxTimeLagMs = MaxTimeLag(g.Offsets)
	}
	return l
}

func TestHumanMillis(t *testing.T) {
	for ms, want := range map[int64]string{
		0: "0s", 350: "350ms", 1000: "1s", 12_999: "12s", 60_000: "1m", 252_000: "4m12s",
		3_600_000: "1h", 7_500_000: "2h5m", 86_400_000: "1d", 273_600_000: "3d4h", -5000: "-5s",
	} {
		if got := HumanMillis(ms); got != want {
			t.Errorf("HumanMillis(%d) = %q, want %q", ms, got, want)
		}
	}
}

// humanMillisBefore is HumanMillis as it was before it wrote into one
// buffer (string concatenation per unit), kept as the reference the
// rewrite must match byte for byte.
func humanMillisBefore(ms int64) string {
	if ms < 0 {
		return "-" + humanMillisBefore(-ms)
	}
	if ms == 0 {
		return "0s"
	}
	if ms < 1000 {
		return strconv.FormatInt(ms, 10) + "ms"
	}
	s := ms / 1000
	two := func(a int64, ua string, b int64, ub string) string {
		out := strconv.FormatInt(a, 10) + ua
		if b > 0 {
			out += strconv.FormatInt(b, 10) + ub
		}
		return out
	}
	switch {
	case s < 60:
		return strconv.FormatInt(s, 10) + "s"
	case s < 3600:
		return two(s/60, "m", s%60, "s")
	case s < 86400:
		return two(s/3600, "h", s%3600/60, "m")
	}
	return two(s/86400, "d", s%86400/3600, "h")
}

// TestHumanMillisMatchesBefore compares HumanMillis with the reference on
// every unit boundary (±1 ms), a dense sweep of the first two hours, a
// random sample up to the largest int64 and their negatives.
func TestHumanMillisMatchesBefore(t *testing.T) {
	var ms []int64
	for _, unit := range []int64{1, 1000, 60_000, 3_600_000, 86_400_000} {
		for k := int64(0); k <= 100; k++ {
			ms = append(ms, k*unit-1, k*unit, k*unit+1)
		}
	}
	for v := int64(0); v < 7_200_000; v += 997 {
		ms = append(ms, v)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20_000 {
		ms = append(ms, r.Int64(), r.Int64N(1<<40))
	}
	ms = append(ms, math.MaxInt64)
	for _, v := range ms {
		for _, v := range []int64{v, -v} {
			if got, want := HumanMillis(v), humanMillisBefore(v); got != want {
				t.Fatalf("HumanMillis(%d) = %q, before %q", v, got, want)
			}
		}
	}
}
