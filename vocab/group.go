package vocab

import "strings"

// Group types, as Kafka names them in ListGroups v5 and the describe APIs
// (lower case, as kcg writes them in documents).
const (
	// TypeClassic is a group of the classic rebalance protocol
	// (JoinGroup/SyncGroup), and every group of brokers before 4.0.
	TypeClassic = "classic"
	// TypeConsumer is a KIP-848 consumer group (ConsumerGroupHeartbeat).
	TypeConsumer = "consumer"
	// TypeShare is a KIP-932 share group.
	TypeShare = "share"
	// TypeStreams is a KIP-1071 streams group.
	TypeStreams = "streams"
)

// Group states, with Kafka's names. Classic groups use the first five,
// KIP-848 consumer groups Assigning and Reconciling instead of the two
// rebalance states.
const (
	StatePreparingRebalance  = "PreparingRebalance"
	StateCompletingRebalance = "CompletingRebalance"
	StateStable              = "Stable"
	StateDead                = "Dead"
	StateEmpty               = "Empty"
	StateAssigning           = "Assigning"
	StateReconciling         = "Reconciling"
)

// States are the group states the Java tool accepts in --state, in the
// order its messages list them.
var States = []string{StatePreparingRebalance, StateCompletingRebalance, StateStable, StateDead, StateEmpty, StateAssigning, StateReconciling}

// ConsumerTypes are the group types the Java tool accepts in --type.
var ConsumerTypes = []string{TypeClassic, TypeConsumer}

// IsRebalancing reports whether a group in state is moving partitions
// between members: what describe shows may change in a moment.
func IsRebalancing(state string) bool {
	switch state {
	case StatePreparingRebalance, StateCompletingRebalance, StateAssigning, StateReconciling:
		return true
	}
	return false
}

// IsKnownState reports whether state is one of Kafka's group state names.
func IsKnownState(state string) bool {
	for _, s := range States {
		if s == state {
			return true
		}
	}
	return false
}

// MayReset reports whether a group in state has no members that could
// overwrite a reset: Empty, Dead (what brokers report for a group that
// does not exist), or unknown ("").
func MayReset(state string) bool {
	switch state {
	case StateEmpty, StateDead, "":
		return true
	}
	return false
}

// IsConsumerGroup reports whether a group listed with groupType and
// protocolType is what the Java kafka-consumer-groups tool lists as a
// consumer group: a classic group with protocol type "consumer" or ""
// (admin-only "simple" groups), or a KIP-848 consumer group. Share,
// streams and Connect groups are not.
func IsConsumerGroup(groupType, protocolType string) bool {
	switch strings.ToLower(groupType) {
	case "", TypeClassic:
		return protocolType == "" || protocolType == "consumer"
	case TypeConsumer:
		return true
	}
	return false
}
