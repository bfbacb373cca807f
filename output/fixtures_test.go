package output

// Fixtures shared by the golden tests. They cover: a committed partition
// (3/6/lag 3), a partition without a commit, a committed partition no
// member owns, a classic Stable group with a member, a consumer-protocol
// group with epochs, target assignments, a static member and a member
// still on the classic protocol, an Empty group, a Dead group and an
// error entry.

func fixtureGroupList() GroupList {
	l := NewGroupList([]GroupListing{
		{Group: "simple-committer", State: Ptr("Empty"), Type: Ptr(TypeClassic), ProtocolType: ""},
		{Group: "payments-v2", State: Ptr("Stable"), Type: Ptr(TypeConsumer), ProtocolType: "consumer"},
		{Group: "billing", State: Ptr("Empty"), Type: Ptr(TypeClassic), ProtocolType: "consumer"},
		{Group: "legacy-app", State: nil, Type: nil, ProtocolType: "consumer"},
		{Group: "orders-app-long-group-id", State: Ptr("Stable"), Type: Ptr(TypeClassic), ProtocolType: "consumer"},
	})
	l.Sort()
	return l
}

const (
	ordersMember = "consumer-orders-app-1-5f0c0e6e-8c8a-4a43-9d1f-0b3c1c7e4a21"
	payMemberNew = "aB3xQ9tWRkqY1mZ0pL7c8w"
	payMemberOld = "Zk2uV5nTQ0eD4rF6gH8jKa"
)

func fixtureDescriptions() GroupDescriptionList {
	billing := GroupDescription{
		Group: "billing", State: Ptr("Empty"), Type: Ptr(TypeClassic), ProtocolType: "consumer",
		Coordinator: &Coordinator{ID: 1, Host: "broker-1", Port: 9092},
		Members:     []Member{},
		Offsets: []PartitionOffset{{
			Topic: "payments", Partition: 0, CommittedOffset: Ptr[int64](3), CommittedLeaderEpoch: Ptr[int32](0),
			LogStartOffset: Ptr[int64](0), LogEndOffset: Ptr[int64](6), Lag: Ptr[int64](3), Metadata: Ptr(""),
		}},
	}
	orders := GroupDescription{
		Group: "orders-app-long-group-id", State: Ptr("Stable"), Type: Ptr(TypeClassic), ProtocolType: "consumer",
		Assignor:    Ptr("range"),
		Coordinator: &Coordinator{ID: 2, Host: "broker-2", Port: 9093},
		Members: []Member{{
			MemberID: ordersMember, ClientID: "consumer-orders-app-1", Host: "/10.0.0.7",
			Assignments: []TopicPartitions{{Topic: "orders", Partitions: []int32{1, 0}}},
		}},
		Offsets: []PartitionOffset{
			{
				Topic: "orders-archive", Partition: 0, CommittedOffset: Ptr[int64](10),
				LogStartOffset: Ptr[int64](0), LogEndOffset: Ptr[int64](12), Lag: Ptr[int64](2), Metadata: Ptr(""),
			},
			{
				Topic: "orders", Partition: 1,
				LogStartOffset: Ptr[int64](0), LogEndOffset: Ptr[int64](4),
				MemberID: Ptr(ordersMember), ClientID: Ptr("consumer-orders-app-1"), Host: Ptr("/10.0.0.7"),
			},
			{
				Topic: "orders", Partition: 0, CommittedOffset: Ptr[int64](5), CommittedLeaderEpoch: Ptr[int32](2),
				LogStartOffset: Ptr[int64](0), LogEndOffset: Ptr[int64](5), Lag: Ptr[int64](0), Metadata: Ptr(""),
				MemberID: Ptr(ordersMember), ClientID: Ptr("consumer-orders-app-1"), Host: Ptr("/10.0.0.7"),
			},
		},
	}
	payTarget := []TopicPartitions{{Topic: "payments", Partitions: []int32{2}}}
	newTarget := []TopicPartitions{{Topic: "payments-dlq", Partitions: []int32{0}}, {Topic: "payments", Partitions: []int32{1, 0}}}
	payments := GroupDescription{
		Group: "payments-v2", State: Ptr("Stable"), Type: Ptr(TypeConsumer), ProtocolType: "consumer",
		Assignor:    Ptr("uniform"),
		Coordinator: &Coordinator{ID: 1, Host: "broker-1", Port: 9092},
		GroupEpoch:  Ptr[int32](12), TargetAssignmentEpoch: Ptr[int32](12),
		Members: []Member{
			{
				MemberID: payMemberNew, ClientID: "payments-worker-1", Host: "/10.0.0.5",
				MemberEpoch: Ptr[int32](12), Upgraded: Ptr(true),
				Assignments:       []TopicPartitions{{Topic: "payments-dlq", Partitions: []int32{0}}, {Topic: "payments", Partitions: []int32{1, 0}}},
				TargetAssignments: &newTarget,
			},
			{
				MemberID: payMemberOld, ClientID: "payments-worker-2", Host: "/10.0.0.6", GroupInstanceID: Ptr("worker-b"),
				MemberEpoch: Ptr[int32](11), Upgraded: Ptr(false),
				Assignments:       nil,
				TargetAssignments: &payTarget,
			},
		},
		Offsets: []PartitionOffset{
			{
				Topic: "payments", Partition: 0, CommittedOffset: Ptr[int64](100), CommittedLeaderEpoch: Ptr[int32](4),
				LogStartOffset: Ptr[int64](40), LogEndOffset: Ptr[int64](120), Lag: Ptr[int64](20), Metadata: Ptr("kcg: CHG-1234"),
				MemberID: Ptr(payMemberNew), ClientID: Ptr("payments-worker-1"), Host: Ptr("/10.0.0.5"),
			},
			{
				Topic: "payments", Partition: 1, CommittedOffset: Ptr[int64](50), CommittedLeaderEpoch: Ptr[int32](4),
				LogStartOffset: Ptr[int64](0), LogEndOffset: Ptr[int64](50), Lag: Ptr[int64](0), Metadata: Ptr(""),
				MemberID: Ptr(payMemberNew), ClientID: Ptr("payments-worker-1"), Host: Ptr("/10.0.0.5"),
			},
			{
				Topic: "payments-dlq", Partition: 0,
				LogStartOffset: Ptr[int64](0), LogEndOffset: Ptr[int64](0),
				MemberID: Ptr(payMemberNew), ClientID: Ptr("payments-worker-1"), Host: Ptr("/10.0.0.5"),
			},
			{
				Topic: "payments", Partition: 2, CommittedOffset: Ptr[int64](7),
				LogStartOffset: Ptr[int64](0), LogEndOffset: Ptr[int64](9), Lag: Ptr[int64](2), Metadata: Ptr(""),
			},
		},
	}
	zombie := GroupDescription{
		Group: "zombie", State: Ptr("Dead"), Type: Ptr(TypeClassic), ProtocolType: "",
		Coordinator: &Coordinator{ID: 1, Host: "broker-1", Port: 9092},
	}
	broken := GroupDescription{
		Group: "broken",
		Error: Ptr("OffsetFetch group broken: not authorized to access the group"),
	}
	groups := []GroupDescription{zombie, payments, broken, orders, billing}
	for i := range groups {
		groups[i].TotalLag = SumLag(groups[i].Offsets)
	}
	l := NewGroupDescriptionList(groups)
	l.Sort()
	return l
}
