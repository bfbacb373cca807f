package dropin

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/internal/golden"
	"github.com/kcg-dev/kcg/output"
	"github.com/kcg-dev/kcg/vocab"
)

// The expected texts in the Test*MatchesJavaSample tests are written out
// by hand (trailing blanks included) from the format strings of
// kafka-consumer-groups 4.4, which each writer's comment cites. They pin
// the layouts independently of the golden files.

// fixture decodes one of output's documents from its golden JSON
// (output/testdata): the groups of output's own table goldens, covering a
// committed partition, one without a commit, one no member owns, a classic
// and a consumer-protocol group (epochs, target assignments, a static
// member, a member still on the classic protocol), an Empty and a Dead
// group and an error entry. output's tests pin that file as the exact
// encoding of those documents.
func fixture[T any](t *testing.T, name string) T {
	t.Helper()
	var doc T
	data, err := os.ReadFile(filepath.Join("..", "output", "testdata", name))
	if err == nil {
		err = json.Unmarshal(data, &doc)
	}
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestJavaOffsetsMatchesJavaSample(t *testing.T) {
	cid := "consumer-my-group-1-0d9b6c1e-3c55-4a5e-9d0b-0f2f5c1f7a11"
	rows := []javaOffsetRow{
		{Topic: "orders", Partition: 0, CurrentOffset: output.Ptr[int64](2), LogEndOffset: output.Ptr[int64](4), Lag: output.Ptr[int64](2), ConsumerID: &cid, Host: output.Ptr("/10.0.0.5"), ClientID: output.Ptr("consumer-my-group-1")},
		{Topic: "orders", Partition: 1, LogEndOffset: output.Ptr[int64](3), ConsumerID: &cid, Host: output.Ptr("/10.0.0.5"), ClientID: output.Ptr("consumer-my-group-1")},
		{Topic: "payments", Partition: 0, CurrentOffset: output.Ptr[int64](7), LogEndOffset: output.Ptr[int64](7), Lag: output.Ptr[int64](0), ConsumerID: output.Ptr("-"), Host: output.Ptr("-"), ClientID: output.Ptr("-")},
	}
	want := "\n" +
		"GROUP           TOPIC           PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG             CONSUMER-ID                                              HOST            CLIENT-ID\n" +
		"my-group        orders          0          2               4               2               consumer-my-group-1-0d9b6c1e-3c55-4a5e-9d0b-0f2f5c1f7a11 /10.0.0.5       consumer-my-group-1\n" +
		"my-group        orders          1          -               3               -               consumer-my-group-1-0d9b6c1e-3c55-4a5e-9d0b-0f2f5c1f7a11 /10.0.0.5       consumer-my-group-1\n" +
		"my-group        payments        0          7               7               0               -                                                        -               -\n"
	got := golden.Render(t, func(b *bytes.Buffer) error { return javaDescribeOffsets(b, "my-group", rows, false) })
	if string(got) != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}

	want = "\n" +
		"GROUP           TOPIC           PARTITION  LEADER-EPOCH    CURRENT-OFFSET  LOG-END-OFFSET  LAG             CONSUMER-ID     HOST            CLIENT-ID\n" +
		"g               t               0          -               5               5               0               -               -               -\n"
	got = golden.Render(t, func(b *bytes.Buffer) error {
		return javaDescribeOffsets(b, "g", []javaOffsetRow{{Topic: "t", CurrentOffset: output.Ptr[int64](5), LogEndOffset: output.Ptr[int64](5), Lag: output.Ptr[int64](0)}}, true)
	})
	if string(got) != want {
		t.Errorf("verbose: got\n%q\nwant\n%q", got, want)
	}
	if got := golden.Render(t, func(b *bytes.Buffer) error { return javaDescribeOffsets(b, "g", nil, false) }); len(got) != 0 {
		t.Errorf("no rows must print nothing, got %q", got)
	}
}

func TestJavaMembersMatchesJavaSample(t *testing.T) {
	assign := []output.TopicPartitions{{Topic: "payments", Partitions: []int32{0}}, {Topic: "orders", Partitions: []int32{1, 0}}}
	rows := []javaMemberRow{
		{ConsumerID: "aB3xQ9tWRkqY1mZ0pL7c8w", Host: "/10.0.0.5", ClientID: "consumer-my-group-1", Assignment: assign, CurrentEpoch: output.Ptr[int32](12), TargetEpoch: output.Ptr[int32](12), TargetAssignment: assign},
		{ConsumerID: "Zk2uV5nTQ0eD4rF6gH8jKa", Host: "/10.0.0.6", ClientID: "consumer-my-group-2", CurrentEpoch: output.Ptr[int32](12), TargetEpoch: output.Ptr[int32](12)},
	}
	want := "\n" +
		"GROUP           CONSUMER-ID            HOST            CLIENT-ID           #PARTITIONS     CURRENT-EPOCH   CURRENT-ASSIGNMENT    TARGET-EPOCH    TARGET-ASSIGNMENT    \n" +
		"my-group        aB3xQ9tWRkqY1mZ0pL7c8w /10.0.0.5       consumer-my-group-1 3               12              orders:0,1;payments:0 12              orders:0,1;payments:0\n" +
		"my-group        Zk2uV5nTQ0eD4rF6gH8jKa /10.0.0.6       consumer-my-group-2 0               12              -                     12              -                    \n"
	got := golden.Render(t, func(b *bytes.Buffer) error { return javaDescribeMembers(b, "my-group", rows, true) })
	if string(got) != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	// Non-verbose: the "%-15s " #PARTITIONS cell keeps its trailing blank.
	want = "\n" +
		"GROUP           CONSUMER-ID            HOST            CLIENT-ID           #PARTITIONS     \n" +
		"my-group        aB3xQ9tWRkqY1mZ0pL7c8w /10.0.0.5       consumer-my-group-1 3               \n" +
		"my-group        Zk2uV5nTQ0eD4rF6gH8jKa /10.0.0.6       consumer-my-group-2 0               \n"
	got = golden.Render(t, func(b *bytes.Buffer) error { return javaDescribeMembers(b, "my-group", rows, false) })
	if string(got) != want {
		t.Errorf("non-verbose: got\n%q\nwant\n%q", got, want)
	}
	// No members: Java still prints the header, at minimum widths.
	want = "\nGROUP           CONSUMER-ID     HOST            CLIENT-ID       #PARTITIONS     \n"
	got = golden.Render(t, func(b *bytes.Buffer) error { return javaDescribeMembers(b, "a-group-id-longer-than-15", nil, false) })
	if string(got) != want {
		t.Errorf("empty: got\n%q\nwant\n%q", got, want)
	}
}

func TestJavaStateMatchesJavaSample(t *testing.T) {
	want := "\n" +
		"GROUP           COORDINATOR (ID)          ASSIGNMENT-STRATEGY  STATE                #MEMBERS\n" +
		"my-group        broker-1:9092  (1)        uniform              Stable               2\n"
	got := golden.Render(t, func(b *bytes.Buffer) error {
		return javaDescribeState(b, javaStateRow{
			Group: "my-group", Coordinator: &output.Coordinator{ID: 1, Host: "broker-1", Port: 9092},
			AssignmentStrategy: "uniform", State: "Stable", NumMembers: 2,
		}, false)
	})
	if string(got) != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}

func TestJavaListMatchesJavaSample(t *testing.T) {
	groups := []output.GroupListing{
		{Group: "my-group", State: output.Ptr("Stable"), Type: output.Ptr(output.TypeConsumer)},
		{Group: "legacy-group", State: output.Ptr("Empty"), Type: output.Ptr(output.TypeClassic)},
	}
	want := "" +
		"GROUP                     TYPE                 STATE               \n" +
		"my-group                  Consumer             Stable              \n" +
		"legacy-group              Classic              Empty               \n"
	got := golden.Render(t, func(b *bytes.Buffer) error { return javaList(b, groups, true, true) })
	if string(got) != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	got = golden.Render(t, func(b *bytes.Buffer) error { return javaList(b, groups, false, false) })
	if string(got) != "my-group\nlegacy-group\n" {
		t.Errorf("plain: got %q", got)
	}
	got = golden.Render(t, func(b *bytes.Buffer) error { return javaList(b, nil, false, false) })
	if len(got) != 0 {
		t.Errorf("no groups, plain: got %q", got)
	}
}

func TestJavaResetMatchesJavaSample(t *testing.T) {
	want := "\n" +
		"GROUP           TOPIC           PARTITION  NEW-OFFSET\n" +
		"my-group        orders          0          0\n" +
		"my-group        orders          1          0\n"
	got := golden.Render(t, func(b *bytes.Buffer) error {
		return javaResetTable(b, []javaResetGroup{{Group: "my-group", Partitions: []javaResetPartition{
			{Topic: "orders", Partition: 1}, {Topic: "orders", Partition: 0},
		}}})
	})
	if string(got) != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	// No group at all: Java prints only the final println.
	if got := golden.Render(t, func(b *bytes.Buffer) error { return javaResetTable(b, nil) }); string(got) != "\n" {
		t.Errorf("empty: got %q", got)
	}
}

func TestJavaDeleteOffsetsMatchesJavaSample(t *testing.T) {
	want := "Request succeeded for deleting offsets from group group1.\n" +
		"\n" +
		"TOPIC           PARTITION  STATUS         \n" +
		"T1              0          Successful     \n"
	got := golden.Render(t, func(b *bytes.Buffer) error {
		return javaDeleteOffsetsResult(b, deleteOffsetsOutcome{Group: "group1", Partitions: []deleteOffsetsPartition{{Topic: "T1", Partition: output.Ptr[int32](0)}}})
	})
	if string(got) != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}

func TestJavaGoldens(t *testing.T) {
	l := fixture[output.GroupDescriptionList](t, "describe.json")
	describe := func(view output.View, verbose bool) func(*bytes.Buffer) error {
		return func(b *bytes.Buffer) error {
			// stdout and stderr in one golden, marked, so both streams and
			// what goes where are pinned.
			var out, errOut bytes.Buffer
			if err := javaDescribe(&out, &errOut, l, view, verbose, nil); err != nil {
				return err
			}
			b.WriteString("--- stdout\n")
			b.Write(out.Bytes())
			b.WriteString("--- stderr\n")
			b.Write(errOut.Bytes())
			return nil
		}
	}
	list := fixture[output.GroupList](t, "list.json").Groups
	notFound, _ := vocab.JavaException(vocab.CodeGroupIDNotFound)
	notEmpty, _ := vocab.JavaException(vocab.CodeNonEmptyGroup)
	subscribed, _ := vocab.JavaException(vocab.CodeGroupSubscribedToTopic)
	unknownTP, _ := vocab.JavaException(vocab.CodeUnknownTopicOrPartition)
	cases := []struct {
		name string
		fn   func(*bytes.Buffer) error
	}{
		{"java-describe-offsets.txt", describe(output.ViewOffsets, false)},
		{"java-describe-offsets-verbose.txt", describe(output.ViewOffsets, true)},
		{"java-describe-members.txt", describe(output.ViewMembers, false)},
		{"java-describe-members-verbose.txt", describe(output.ViewMembers, true)},
		{"java-describe-state.txt", describe(output.ViewState, false)},
		{"java-describe-state-verbose.txt", describe(output.ViewState, true)},
		{"java-list.txt", func(b *bytes.Buffer) error { return javaList(b, list, false, false) }},
		{"java-list-state.txt", func(b *bytes.Buffer) error { return javaList(b, list, false, true) }},
		{"java-list-type.txt", func(b *bytes.Buffer) error { return javaList(b, list, true, false) }},
		{"java-list-type-state.txt", func(b *bytes.Buffer) error { return javaList(b, list, true, true) }},
		{"java-list-state-no-groups.txt", func(b *bytes.Buffer) error { return javaList(b, nil, false, true) }},
		{"java-reset.txt", func(b *bytes.Buffer) error {
			return javaResetTable(b, []javaResetGroup{
				{Group: "orders-app-long-group-id", Partitions: []javaResetPartition{
					{Topic: "orders", Partition: 1, NewOffset: 4}, {Topic: "orders-archive", Partition: 0, NewOffset: 12}, {Topic: "orders", Partition: 0, NewOffset: 5},
				}},
				{Group: "billing", Partitions: []javaResetPartition{{Topic: "payments", Partition: 0, NewOffset: 0}}},
				{Group: "active-group"},
			})
		}},
		{"java-reset-groups-without-partitions.txt", func(b *bytes.Buffer) error {
			return javaResetTable(b, []javaResetGroup{{Group: "active-group"}})
		}},
		{"java-delete-ok.txt", func(b *bytes.Buffer) error {
			return javaDeleteResult(b, []deleteOutcome{{Group: "g2"}, {Group: "g1"}})
		}},
		{"java-delete-none.txt", func(b *bytes.Buffer) error { return javaDeleteResult(b, nil) }},
		{"java-delete-partial.txt", func(b *bytes.Buffer) error {
			return javaDeleteResult(b, []deleteOutcome{{Group: "ok"}, {Group: "missing", Error: &notFound}, {Group: "busy", Error: &notEmpty}})
		}},
		{"java-delete-failed.txt", func(b *bytes.Buffer) error {
			return javaDeleteResult(b, []deleteOutcome{{Group: "missing", Error: &notFound}})
		}},
		{"java-delete-offsets-ok.txt", func(b *bytes.Buffer) error {
			return javaDeleteOffsetsResult(b, deleteOffsetsOutcome{Group: "billing", Partitions: []deleteOffsetsPartition{
				{Topic: "t2", Partition: output.Ptr[int32](0)}, {Topic: "t", Partition: output.Ptr[int32](10)}, {Topic: "t", Partition: output.Ptr[int32](2)},
			}})
		}},
		{"java-delete-offsets-partition-errors.txt", func(b *bytes.Buffer) error {
			return javaDeleteOffsetsResult(b, deleteOffsetsOutcome{Group: "payments-v2", ErrorCode: 86, ErrorName: "GROUP_SUBSCRIBED_TO_TOPIC", Partitions: []deleteOffsetsPartition{
				{Topic: "payments", Partition: output.Ptr[int32](0), Error: &subscribed},
				{Topic: "a-topic-name-longer-than-15", Error: &unknownTP},
				{Topic: "archive", Partition: output.Ptr[int32](0)},
			}})
		}},
		{"java-delete-offsets-group-error.txt", func(b *bytes.Buffer) error {
			return javaDeleteOffsetsResult(b, deleteOffsetsOutcome{Group: "missing", ErrorCode: 69, ErrorName: "GROUP_ID_NOT_FOUND", Partitions: []deleteOffsetsPartition{
				{Topic: "foo", Partition: output.Ptr[int32](1), Error: &notFound},
			}})
		}},
		{"java-delete-offsets-unknown-error.txt", func(b *bytes.Buffer) error {
			return javaDeleteOffsetsResult(b, deleteOffsetsOutcome{Group: "g", ErrorCode: 15, ErrorName: "COORDINATOR_NOT_AVAILABLE"})
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { golden.Check(t, c.name, golden.Render(t, c.fn)) })
	}
}

func TestJavaDescribeStreamsAndStates(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := javaDescribe(&out, &errOut, fixture[output.GroupDescriptionList](t, "describe.json"), output.ViewOffsets, false, nil); err != nil {
		t.Fatal(err)
	}
	if want := "\nConsumer group 'billing' has no active members.\n"; errOut.String() != want {
		t.Errorf("stderr = %q, want %q", errOut.String(), want)
	}
	if !strings.Contains(out.String(), "\nError: Consumer group 'zombie' does not exist.\n") {
		t.Errorf("Dead group message missing from stdout:\n%s", out.String())
	}
	if strings.Contains(out.String(), "broken") {
		t.Errorf("error entries are the caller's to report:\n%s", out.String())
	}
	// Groups come out in the order given, each with its own header.
	if n := strings.Count(out.String(), "\nGROUP "); n != 3 {
		t.Errorf("want a header per printed group (3), got %d", n)
	}

	rebalancing := output.NewGroupDescriptionList([]output.GroupDescription{{Group: "g", State: output.Ptr("PreparingRebalance")}})
	out.Reset()
	errOut.Reset()
	if err := javaDescribe(&out, &errOut, rebalancing, output.ViewState, false, nil); err != nil {
		t.Fatal(err)
	}
	if errOut.String() != "\nWarning: Consumer group 'g' is rebalancing.\n" || !strings.Contains(out.String(), "PreparingRebalance") {
		t.Errorf("rebalancing: stdout %q stderr %q", out.String(), errOut.String())
	}

	unknown := output.NewGroupDescriptionList([]output.GroupDescription{{Group: "g"}})
	err := javaDescribe(&out, &errOut, unknown, output.ViewState, false, nil)
	if err == nil || err.Error() != "Expected a valid consumer group state, but found 'Unknown'." {
		t.Errorf("unknown state: %v", err)
	}
}

func TestOffsetRowsForJavaOrder(t *testing.T) {
	d := output.GroupDescription{
		Group: "g",
		Members: []output.Member{
			{MemberID: "a", Assignments: []output.TopicPartitions{{Topic: "t", Partitions: []int32{3}}}},
			{MemberID: "b", Assignments: []output.TopicPartitions{{Topic: "t", Partitions: []int32{1, 0}}}},
			{MemberID: "c"},
		},
		Offsets: []output.PartitionOffset{
			{Topic: "t", Partition: 0, MemberID: output.Ptr("b")},
			{Topic: "t", Partition: 1, MemberID: output.Ptr("b")},
			{Topic: "t", Partition: 3, MemberID: output.Ptr("a")},
			{Topic: "s", Partition: 5},
			{Topic: "a", Partition: 9},
		},
	}
	var got []string
	for _, r := range offsetRowsForJava(d, nil) {
		got = append(got, r.Topic+"-"+string(rune('0'+r.Partition))+"@"+output.StringCell(r.ConsumerID))
	}
	// Member b owns more partitions, so it comes first; unowned partitions
	// last, sorted; member c (no partitions) has no row.
	want := "t-0@b t-1@b t-3@a a-9@- s-5@-"
	if strings.Join(got, " ") != want {
		t.Errorf("got %v, want %s", got, want)
	}

	// Members with as many partitions: in the broker's order (issue 30
	// item 20), here d (place 0) before a (place 1), not by member id.
	d.Members = append(d.Members, output.Member{MemberID: "d", Assignments: []output.TopicPartitions{{Topic: "t", Partitions: []int32{2}}}})
	d.Offsets = append(d.Offsets, output.PartitionOffset{Topic: "t", Partition: 2, MemberID: output.Ptr("d")})
	got = got[:0]
	for _, r := range offsetRowsForJava(d, map[string]int{"d": 0, "a": 1, "b": 2, "c": 3}) {
		got = append(got, r.Topic+"-"+string(rune('0'+r.Partition))+"@"+output.StringCell(r.ConsumerID))
	}
	if want := "t-0@b t-1@b t-2@d t-3@a a-9@- s-5@-"; strings.Join(got, " ") != want {
		t.Errorf("in the broker's order: got %v, want %s", got, want)
	}
}

// TestJavaDeleteOffsetsFirstLine pins the first line for every error code
// the Java tool treats specially, beyond the goldens' 69, 86 and 15.
func TestJavaDeleteOffsetsFirstLine(t *testing.T) {
	cases := map[int16]string{
		0:  "Request succeeded for deleting offsets from group g.\n",
		3:  "\nError: Encountered some partition-level error, see the follow-up details.\n",
		24: "\nError: The configured groupId is invalid.\n",
		29: "\nError: Encountered some partition-level error, see the follow-up details.\n",
		30: "\nError: Group authorization failed.\n",
		68: "\nError: The group is not empty.\n",
		69: "\nError: The group id does not exist.\n",
		86: "\nError: Encountered some partition-level error, see the follow-up details.\n",
	}
	for code, first := range cases {
		got := golden.Render(t, func(b *bytes.Buffer) error {
			return javaDeleteOffsetsResult(b, deleteOffsetsOutcome{Group: "g", ErrorCode: code, ErrorName: "X"})
		})
		if !strings.HasPrefix(string(got), first) {
			t.Errorf("code %d: got %q, want it to start with %q", code, got, first)
		}
	}
}
