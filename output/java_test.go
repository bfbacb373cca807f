package output

import (
	"bytes"
	"strings"
	"testing"
)

// The expected texts in the Test*MatchesJavaSample tests are written out
// by hand (trailing blanks included) from the format strings of
// kafka-consumer-groups 4.4, which each writer's comment cites. They pin
// the layouts independently of the golden files.

func TestJavaOffsetsMatchesJavaSample(t *testing.T) {
	cid := "consumer-my-group-1-0d9b6c1e-3c55-4a5e-9d0b-0f2f5c1f7a11"
	rows := []JavaOffsetRow{
		{Topic: "orders", Partition: 0, CurrentOffset: Ptr[int64](2), LogEndOffset: Ptr[int64](4), Lag: Ptr[int64](2), ConsumerID: &cid, Host: Ptr("/10.0.0.5"), ClientID: Ptr("consumer-my-group-1")},
		{Topic: "orders", Partition: 1, LogEndOffset: Ptr[int64](3), ConsumerID: &cid, Host: Ptr("/10.0.0.5"), ClientID: Ptr("consumer-my-group-1")},
		{Topic: "payments", Partition: 0, CurrentOffset: Ptr[int64](7), LogEndOffset: Ptr[int64](7), Lag: Ptr[int64](0), ConsumerID: Ptr("-"), Host: Ptr("-"), ClientID: Ptr("-")},
	}
	want := "\n" +
		"GROUP           TOPIC           PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG             CONSUMER-ID                                              HOST            CLIENT-ID\n" +
		"my-group        orders          0          2               4               2               consumer-my-group-1-0d9b6c1e-3c55-4a5e-9d0b-0f2f5c1f7a11 /10.0.0.5       consumer-my-group-1\n" +
		"my-group        orders          1          -               3               -               consumer-my-group-1-0d9b6c1e-3c55-4a5e-9d0b-0f2f5c1f7a11 /10.0.0.5       consumer-my-group-1\n" +
		"my-group        payments        0          7               7               0               -                                                        -               -\n"
	got := render(t, func(b *bytes.Buffer) error { return JavaDescribeOffsets(b, "my-group", rows, false) })
	if string(got) != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}

	want = "\n" +
		"GROUP           TOPIC           PARTITION  LEADER-EPOCH    CURRENT-OFFSET  LOG-END-OFFSET  LAG             CONSUMER-ID     HOST            CLIENT-ID\n" +
		"g               t               0          -               5               5               0               -               -               -\n"
	got = render(t, func(b *bytes.Buffer) error {
		return JavaDescribeOffsets(b, "g", []JavaOffsetRow{{Topic: "t", CurrentOffset: Ptr[int64](5), LogEndOffset: Ptr[int64](5), Lag: Ptr[int64](0)}}, true)
	})
	if string(got) != want {
		t.Errorf("verbose: got\n%q\nwant\n%q", got, want)
	}
	if got := render(t, func(b *bytes.Buffer) error { return JavaDescribeOffsets(b, "g", nil, false) }); len(got) != 0 {
		t.Errorf("no rows must print nothing, got %q", got)
	}
}

func TestJavaMembersMatchesJavaSample(t *testing.T) {
	assign := []TopicPartitions{{Topic: "payments", Partitions: []int32{0}}, {Topic: "orders", Partitions: []int32{1, 0}}}
	rows := []JavaMemberRow{
		{ConsumerID: "aB3xQ9tWRkqY1mZ0pL7c8w", Host: "/10.0.0.5", ClientID: "consumer-my-group-1", Assignment: assign, CurrentEpoch: Ptr[int32](12), TargetEpoch: Ptr[int32](12), TargetAssignment: assign},
		{ConsumerID: "Zk2uV5nTQ0eD4rF6gH8jKa", Host: "/10.0.0.6", ClientID: "consumer-my-group-2", CurrentEpoch: Ptr[int32](12), TargetEpoch: Ptr[int32](12)},
	}
	want := "\n" +
		"GROUP           CONSUMER-ID            HOST            CLIENT-ID           #PARTITIONS     CURRENT-EPOCH   CURRENT-ASSIGNMENT    TARGET-EPOCH    TARGET-ASSIGNMENT    \n" +
		"my-group        aB3xQ9tWRkqY1mZ0pL7c8w /10.0.0.5       consumer-my-group-1 3               12              orders:0,1;payments:0 12              orders:0,1;payments:0\n" +
		"my-group        Zk2uV5nTQ0eD4rF6gH8jKa /10.0.0.6       consumer-my-group-2 0               12              -                     12              -                    \n"
	got := render(t, func(b *bytes.Buffer) error { return JavaDescribeMembers(b, "my-group", rows, true) })
	if string(got) != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	// Non-verbose: the "%-15s " #PARTITIONS cell keeps its trailing blank.
	want = "\n" +
		"GROUP           CONSUMER-ID            HOST            CLIENT-ID           #PARTITIONS     \n" +
		"my-group        aB3xQ9tWRkqY1mZ0pL7c8w /10.0.0.5       consumer-my-group-1 3               \n" +
		"my-group        Zk2uV5nTQ0eD4rF6gH8jKa /10.0.0.6       consumer-my-group-2 0               \n"
	got = render(t, func(b *bytes.Buffer) error { return JavaDescribeMembers(b, "my-group", rows, false) })
	if string(got) != want {
		t.Errorf("non-verbose: got\n%q\nwant\n%q", got, want)
	}
	// No members: Java still prints the header, at minimum widths.
	want = "\nGROUP           CONSUMER-ID     HOST            CLIENT-ID       #PARTITIONS     \n"
	got = render(t, func(b *bytes.Buffer) error { return JavaDescribeMembers(b, "a-group-id-longer-than-15", nil, false) })
	if string(got) != want {
		t.Errorf("empty: got\n%q\nwant\n%q", got, want)
	}
}

func TestJavaStateMatchesJavaSample(t *testing.T) {
	want := "\n" +
		"GROUP           COORDINATOR (ID)          ASSIGNMENT-STRATEGY  STATE                #MEMBERS\n" +
		"my-group        broker-1:9092  (1)        uniform              Stable               2\n"
	got := render(t, func(b *bytes.Buffer) error {
		return JavaDescribeState(b, JavaStateRow{
			Group: "my-group", Coordinator: &Coordinator{ID: 1, Host: "broker-1", Port: 9092},
			AssignmentStrategy: "uniform", State: "Stable", NumMembers: 2,
		}, false)
	})
	if string(got) != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}

func TestJavaListMatchesJavaSample(t *testing.T) {
	groups := []GroupListing{
		{Group: "my-group", State: Ptr("Stable"), Type: Ptr(TypeConsumer)},
		{Group: "legacy-group", State: Ptr("Empty"), Type: Ptr(TypeClassic)},
	}
	want := "" +
		"GROUP                     TYPE                 STATE               \n" +
		"my-group                  Consumer             Stable              \n" +
		"legacy-group              Classic              Empty               \n"
	got := render(t, func(b *bytes.Buffer) error { return JavaList(b, groups, true, true) })
	if string(got) != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	got = render(t, func(b *bytes.Buffer) error { return JavaList(b, groups, false, false) })
	if string(got) != "my-group\nlegacy-group\n" {
		t.Errorf("plain: got %q", got)
	}
	got = render(t, func(b *bytes.Buffer) error { return JavaList(b, nil, false, false) })
	if len(got) != 0 {
		t.Errorf("no groups, plain: got %q", got)
	}
}

func TestJavaResetMatchesJavaSample(t *testing.T) {
	want := "\n" +
		"GROUP           TOPIC           PARTITION  NEW-OFFSET\n" +
		"my-group        orders          0          0\n" +
		"my-group        orders          1          0\n"
	got := render(t, func(b *bytes.Buffer) error {
		return JavaResetTable(b, []JavaResetGroup{{Group: "my-group", Partitions: []JavaResetPartition{
			{Topic: "orders", Partition: 1}, {Topic: "orders", Partition: 0},
		}}})
	})
	if string(got) != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	// No group at all: Java prints only the final println.
	if got := render(t, func(b *bytes.Buffer) error { return JavaResetTable(b, nil) }); string(got) != "\n" {
		t.Errorf("empty: got %q", got)
	}
}

func TestJavaDeleteOffsetsMatchesJavaSample(t *testing.T) {
	want := "Request succeeded for deleting offsets from group group1.\n" +
		"\n" +
		"TOPIC           PARTITION  STATUS         \n" +
		"T1              0          Successful     \n"
	got := render(t, func(b *bytes.Buffer) error {
		return JavaDeleteOffsetsResult(b, DeleteOffsetsOutcome{Group: "group1", Partitions: []DeleteOffsetsPartition{{Topic: "T1", Partition: Ptr[int32](0)}}})
	})
	if string(got) != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}

func TestJavaGoldens(t *testing.T) {
	l := fixtureDescriptions()
	describe := func(view View, verbose bool) func(*bytes.Buffer) error {
		return func(b *bytes.Buffer) error {
			// stdout and stderr in one golden, marked, so both streams and
			// what goes where are pinned.
			var out, errOut bytes.Buffer
			if err := JavaDescribe(&out, &errOut, l, view, verbose); err != nil {
				return err
			}
			b.WriteString("--- stdout\n")
			b.Write(out.Bytes())
			b.WriteString("--- stderr\n")
			b.Write(errOut.Bytes())
			return nil
		}
	}
	list := fixtureGroupList().Groups
	notFound, _ := JavaExceptionText(69)
	notEmpty, _ := JavaExceptionText(68)
	subscribed, _ := JavaExceptionText(86)
	unknownTP, _ := JavaExceptionText(3)
	cases := []struct {
		name string
		fn   func(*bytes.Buffer) error
	}{
		{"java-describe-offsets.txt", describe(ViewOffsets, false)},
		{"java-describe-offsets-verbose.txt", describe(ViewOffsets, true)},
		{"java-describe-members.txt", describe(ViewMembers, false)},
		{"java-describe-members-verbose.txt", describe(ViewMembers, true)},
		{"java-describe-state.txt", describe(ViewState, false)},
		{"java-describe-state-verbose.txt", describe(ViewState, true)},
		{"java-list.txt", func(b *bytes.Buffer) error { return JavaList(b, list, false, false) }},
		{"java-list-state.txt", func(b *bytes.Buffer) error { return JavaList(b, list, false, true) }},
		{"java-list-type.txt", func(b *bytes.Buffer) error { return JavaList(b, list, true, false) }},
		{"java-list-type-state.txt", func(b *bytes.Buffer) error { return JavaList(b, list, true, true) }},
		{"java-list-state-no-groups.txt", func(b *bytes.Buffer) error { return JavaList(b, nil, false, true) }},
		{"java-reset.txt", func(b *bytes.Buffer) error {
			return JavaResetTable(b, []JavaResetGroup{
				{Group: "orders-app-long-group-id", Partitions: []JavaResetPartition{
					{Topic: "orders", Partition: 1, NewOffset: 4}, {Topic: "orders-archive", Partition: 0, NewOffset: 12}, {Topic: "orders", Partition: 0, NewOffset: 5},
				}},
				{Group: "billing", Partitions: []JavaResetPartition{{Topic: "payments", Partition: 0, NewOffset: 0}}},
				{Group: "active-group"},
			})
		}},
		{"java-reset-groups-without-partitions.txt", func(b *bytes.Buffer) error {
			return JavaResetTable(b, []JavaResetGroup{{Group: "active-group"}})
		}},
		{"java-delete-ok.txt", func(b *bytes.Buffer) error {
			return JavaDeleteResult(b, []DeleteOutcome{{Group: "g2"}, {Group: "g1"}})
		}},
		{"java-delete-none.txt", func(b *bytes.Buffer) error { return JavaDeleteResult(b, nil) }},
		{"java-delete-partial.txt", func(b *bytes.Buffer) error {
			return JavaDeleteResult(b, []DeleteOutcome{{Group: "ok"}, {Group: "missing", Error: &notFound}, {Group: "busy", Error: &notEmpty}})
		}},
		{"java-delete-failed.txt", func(b *bytes.Buffer) error {
			return JavaDeleteResult(b, []DeleteOutcome{{Group: "missing", Error: &notFound}})
		}},
		{"java-delete-offsets-ok.txt", func(b *bytes.Buffer) error {
			return JavaDeleteOffsetsResult(b, DeleteOffsetsOutcome{Group: "billing", Partitions: []DeleteOffsetsPartition{
				{Topic: "t2", Partition: Ptr[int32](0)}, {Topic: "t", Partition: Ptr[int32](10)}, {Topic: "t", Partition: Ptr[int32](2)},
			}})
		}},
		{"java-delete-offsets-partition-errors.txt", func(b *bytes.Buffer) error {
			return JavaDeleteOffsetsResult(b, DeleteOffsetsOutcome{Group: "payments-v2", ErrorCode: 86, ErrorName: "GROUP_SUBSCRIBED_TO_TOPIC", Partitions: []DeleteOffsetsPartition{
				{Topic: "payments", Partition: Ptr[int32](0), Error: &subscribed},
				{Topic: "a-topic-name-longer-than-15", Error: &unknownTP},
				{Topic: "archive", Partition: Ptr[int32](0)},
			}})
		}},
		{"java-delete-offsets-group-error.txt", func(b *bytes.Buffer) error {
			return JavaDeleteOffsetsResult(b, DeleteOffsetsOutcome{Group: "missing", ErrorCode: 69, ErrorName: "GROUP_ID_NOT_FOUND", Partitions: []DeleteOffsetsPartition{
				{Topic: "foo", Partition: Ptr[int32](1), Error: &notFound},
			}})
		}},
		{"java-delete-offsets-unknown-error.txt", func(b *bytes.Buffer) error {
			return JavaDeleteOffsetsResult(b, DeleteOffsetsOutcome{Group: "g", ErrorCode: 15, ErrorName: "COORDINATOR_NOT_AVAILABLE"})
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { golden(t, c.name, render(t, c.fn)) })
	}
}

func TestJavaDescribeStreamsAndStates(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := JavaDescribe(&out, &errOut, fixtureDescriptions(), ViewOffsets, false); err != nil {
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

	rebalancing := NewGroupDescriptionList([]GroupDescription{{Group: "g", State: Ptr("PreparingRebalance")}})
	out.Reset()
	errOut.Reset()
	if err := JavaDescribe(&out, &errOut, rebalancing, ViewState, false); err != nil {
		t.Fatal(err)
	}
	if errOut.String() != "\nWarning: Consumer group 'g' is rebalancing.\n" || !strings.Contains(out.String(), "PreparingRebalance") {
		t.Errorf("rebalancing: stdout %q stderr %q", out.String(), errOut.String())
	}

	unknown := NewGroupDescriptionList([]GroupDescription{{Group: "g"}})
	err := JavaDescribe(&out, &errOut, unknown, ViewState, false)
	if err == nil || err.Error() != "Expected a valid consumer group state, but found 'Unknown'." {
		t.Errorf("unknown state: %v", err)
	}
}

func TestOffsetRowsForJavaOrder(t *testing.T) {
	d := GroupDescription{
		Group: "g",
		Members: []Member{
			{MemberID: "a", Assignments: []TopicPartitions{{Topic: "t", Partitions: []int32{3}}}},
			{MemberID: "b", Assignments: []TopicPartitions{{Topic: "t", Partitions: []int32{1, 0}}}},
			{MemberID: "c"},
		},
		Offsets: []PartitionOffset{
			{Topic: "t", Partition: 0, MemberID: Ptr("b")},
			{Topic: "t", Partition: 1, MemberID: Ptr("b")},
			{Topic: "t", Partition: 3, MemberID: Ptr("a")},
			{Topic: "s", Partition: 5},
			{Topic: "a", Partition: 9},
		},
	}
	var got []string
	for _, r := range OffsetRowsForJava(d) {
		got = append(got, r.Topic+"-"+string(rune('0'+r.Partition))+"@"+strCell(r.ConsumerID))
	}
	// Member b owns more partitions, so it comes first; unowned partitions
	// last, sorted; member c (no partitions) has no row.
	want := "t-0@b t-1@b t-3@a a-9@- s-5@-"
	if strings.Join(got, " ") != want {
		t.Errorf("got %v, want %s", got, want)
	}
}

func TestStateNotice(t *testing.T) {
	cases := []struct {
		state  *string
		text   string
		stream Stream
		ok     bool
	}{
		{Ptr("Empty"), "Consumer group 'g' has no active members.", Stderr, true},
		{Ptr("Reconciling"), "Warning: Consumer group 'g' is rebalancing.", Stderr, true},
		{Ptr("Assigning"), "Warning: Consumer group 'g' is rebalancing.", Stderr, true},
		{Ptr("PreparingRebalance"), "Warning: Consumer group 'g' is rebalancing.", Stderr, true},
		{Ptr("CompletingRebalance"), "Warning: Consumer group 'g' is rebalancing.", Stderr, true},
		{Ptr(""), "", Stdout, false},
		{Ptr("Unknown"), "", Stdout, false},
		{Ptr("Dead"), "Error: Consumer group 'g' does not exist.", Stdout, true},
		{nil, "Error: The consumer group 'g' does not exist.", Stdout, true},
		{Ptr("Stable"), "", Stdout, false},
	}
	for _, c := range cases {
		n, ok := StateNotice("g", c.state)
		if ok != c.ok || n.Text != c.text || (ok && n.Stream != c.stream) {
			t.Errorf("StateNotice(%v) = %+v, %v", c.state, n, ok)
		}
	}
}

// TestJavaExceptionText pins the Java texts, now vocab's, byte for byte:
// drop-in mode prints them where the Java tool prints its exceptions.
func TestJavaExceptionText(t *testing.T) {
	want := map[int16]string{
		3:  "org.apache.kafka.common.errors.UnknownTopicOrPartitionException: This server does not host this topic-partition.",
		24: "org.apache.kafka.common.errors.InvalidGroupIdException: The configured groupId is invalid.",
		68: "org.apache.kafka.common.errors.GroupNotEmptyException: The group is not empty.",
		69: "org.apache.kafka.common.errors.GroupIdNotFoundException: The group id does not exist.",
		86: "org.apache.kafka.common.errors.GroupSubscribedToTopicException: Deleting offsets of a topic is forbidden while the consumer group is actively subscribed to it.",
	}
	for code, text := range want {
		if got, ok := JavaExceptionText(code); !ok || got != text {
			t.Errorf("JavaExceptionText(%d) = %q, %v", code, got, ok)
		}
	}
	for _, code := range []int16{0, 15, 16, 29, 30} {
		if got, ok := JavaExceptionText(code); ok {
			t.Errorf("JavaExceptionText(%d) = %q, want no text", code, got)
		}
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
		got := render(t, func(b *bytes.Buffer) error {
			return JavaDeleteOffsetsResult(b, DeleteOffsetsOutcome{Group: "g", ErrorCode: code, ErrorName: "X"})
		})
		if !strings.HasPrefix(string(got), first) {
			t.Errorf("code %d: got %q, want it to start with %q", code, got, first)
		}
	}
}
