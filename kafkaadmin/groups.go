package kafkaadmin

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/kcg-dev/kcg/vocab"
	"github.com/segmentio/kafka-go"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Group types as Kafka names them (ListGroups v5, KIP-848); the layers
// above use vocab's names for them.
const (
	// TypeClassic is a group of the classic rebalance protocol, and every
	// group of a broker before 4.0.
	TypeClassic = vocab.TypeClassic
	// TypeConsumer is a KIP-848 consumer group.
	TypeConsumer = vocab.TypeConsumer
)

// protocolTypeConsumer is the protocol type of classic groups whose members
// speak ConsumerProtocol (Kafka consumers, as opposed to Connect workers).
// It is a different field from the group type TypeConsumer that happens to
// use the same word.
const protocolTypeConsumer = "consumer"

// GroupListing is one group as ListGroups reports it.
type GroupListing struct {
	Group string
	// State is "" on brokers before ListGroups v4 (Kafka 2.6), unless
	// ListGroupsOptions.WithStates asked for it (DescribeGroups).
	State        string
	Type         string // "" when the broker is too old to say (ListGroups < v5)
	ProtocolType string
	Coordinator  int32
}

// ListGroupsOptions filters ListGroups on the broker side where the broker
// supports it (states: v4+, types: v5+) and on the client side otherwise.
// Values are Kafka's names; matching is case-insensitive.
//
// Brokers before ListGroups v4 (Kafka 2.5 and older) report no states:
// with WithStates, the listed groups are described (DescribeGroups, one
// coordinator lookup per group before batched FindCoordinator) for their
// states, and States filters on them; without it, State stays "" and a
// States filter fails with a *FilterError, as the Java admin client fails
// it. Callers that only need group ids or types leave both unset: on those
// brokers a listing then costs one request per broker, not two per group
// of the cluster.
//
// Before ListGroups v5 (KIP-848's group types: 2.8.2 and 3.7.2 serve v4,
// 3.9.1 v5) every group is classic: a Types filter naming classic
// keeps them all, one that does not keeps none, or, with Strict, fails
// with a *FilterError as the Java admin client does.
type ListGroupsOptions struct {
	States     []string
	Types      []string
	WithStates bool
	Strict     bool
}

// FilterError is a ListGroups filter the broker cannot apply: a state
// filter (without WithStates) before ListGroups v4, a types filter without
// classic (with Strict) before v5.
type FilterError struct {
	Broker  Broker   // the broker asked
	Version int16    // the highest ListGroups version it serves
	Need    int16    // the version that filters
	Types   []string // the types filter ("" for a states filter)
}

func (e *FilterError) Error() string {
	what := "by state"
	if len(e.Types) > 0 {
		what = "by type " + strings.Join(e.Types, ",")
	}
	return fmt.Sprintf("broker %d (%s) serves ListGroups up to v%d, which cannot filter %s (v%d can)", e.Broker.ID, e.Broker.Addr(), e.Version, what, e.Need)
}

// ListGroups lists the groups of every broker, sorted by group id. Any
// broker that fails fails the listing: a partial list would silently hide
// groups. An unreachable cluster is an error, never an empty list.
func (c *Client) ListGroups(ctx context.Context, opts ListGroupsOptions) ([]GroupListing, error) {
	info, err := c.RecentCluster(ctx)
	if err != nil {
		return nil, err
	}
	ids := make([]int32, len(info.Brokers))
	for i, b := range info.Brokers {
		ids[i] = b.ID
	}
	return c.listGroups(ctx, ids, opts)
}

// ListCoordinatedGroups lists what the coordinators of groups list (opts
// as for ListGroups): every group a broker coordinates is in its listing,
// so this learns the type of each of groups without asking the brokers
// that coordinate none of them, and a broker that is down does not fail
// it unless it coordinates one of groups. A group whose coordinator cannot
// be found is left out: every read or write of it fails on its own.
func (c *Client) ListCoordinatedGroups(ctx context.Context, groups []string, opts ListGroupsOptions) ([]GroupListing, error) {
	coords, _, err := c.coordinators(ctx, groups)
	if err != nil {
		return nil, err
	}
	var ids []int32
	for _, id := range coords {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return c.listGroups(ctx, slices.Compact(ids), opts)
}

// listGroups is ListGroups on the brokers ids.
func (c *Client) listGroups(ctx context.Context, ids []int32, opts ListGroupsOptions) ([]GroupListing, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	v, ok, err := c.pickVersion(ctx, kmsg.NewPtrListGroupsRequest(), 5)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errors.New("the broker does not support the ListGroups API")
	}
	if v < 4 && len(opts.States) > 0 && !opts.WithStates {
		return nil, c.filterError(ctx, ids[0], &FilterError{Version: v, Need: 4})
	}
	if v < 5 && opts.Strict && len(opts.Types) > 0 && !containsFold(opts.Types, TypeClassic) {
		return nil, c.filterError(ctx, ids[0], &FilterError{Version: v, Need: 5, Types: opts.Types})
	}
	// Each broker is asked on its own, its request retried within
	// requestRetries; any broker that keeps failing fails the listing.
	var mu sync.Mutex
	var all []GroupListing
	api := listGroupsOn(v, opts)
	err = eachBatch(chunks(ids, 1), func(id []int32) error {
		got, errs, err := shard(ctx, c, brokerRouter[int32](id[0]), api, id)
		if err == nil {
			err = errs[0]
		}
		if err != nil {
			return err
		}
		mu.Lock()
		all = append(all, got[0]...)
		mu.Unlock()
		return nil
	})
	if err != nil {
		return nil, err
	}
	// A broker lists the groups it coordinates: the reads that follow
	// (describe --all-groups) go to it without a FindCoordinator round
	// trip first. A group that moved since answers NOT_COORDINATOR and is
	// looked up then, as any moved group is.
	c.mu.Lock()
	for _, g := range all {
		if _, ok := c.coords[g.Group]; !ok {
			c.coords[g.Group] = g.Coordinator
		}
	}
	c.mu.Unlock()
	// Brokers before ListGroups v4 do not report states: when the caller
	// wants them, ask DescribeGroups (one more batched phase) so the
	// listing and the state filter work the same on every broker.
	if v < 4 && opts.WithStates && len(all) > 0 {
		ids := make([]string, len(all))
		for i, g := range all {
			ids[i] = g.Group
		}
		descs, err := c.DescribeGroups(ctx, ids)
		if err != nil {
			return nil, err
		}
		for i := range all {
			if descs[i].Err == nil {
				all[i].State = descs[i].State
			}
		}
	}
	// Older brokers cannot filter; do it here so the result is the same.
	out := all[:0]
	for _, g := range all {
		if v < 4 && len(opts.States) > 0 && !containsFold(opts.States, g.State) {
			continue
		}
		if v < 5 && len(opts.Types) > 0 {
			// A broker without ListGroups v5 predates KIP-848: every
			// group on it is classic.
			if !containsFold(opts.Types, TypeClassic) {
				continue
			}
		}
		out = append(out, g)
	}
	slices.SortFunc(out, func(a, b GroupListing) int { return cmp.Compare(a.Group, b.Group) })
	return out, nil
}

// filterError is e, on broker id.
func (c *Client) filterError(ctx context.Context, id int32, e *FilterError) error {
	e.Broker = Broker{ID: id}
	if info, err := c.RecentCluster(ctx); err == nil {
		for _, b := range info.Brokers {
			if b.ID == id {
				e.Broker = b
			}
		}
	}
	return e
}

// listGroupsOn is ListGroups at version v for the engine, keyed by the
// broker asked, with the filters of opts the version carries (states v4+,
// types v5+). A broker-level error fails the listing unless it is
// retriable.
func listGroupsOn(v int16, opts ListGroupsOptions) *sharded[int32, []GroupListing] {
	return &sharded[int32, []GroupListing]{
		request: func([]int32) kmsg.Request {
			req := kmsg.NewPtrListGroupsRequest()
			req.Version = v
			if v >= 4 {
				req.StatesFilter = opts.States
			}
			if v >= 5 {
				req.TypesFilter = opts.Types
			}
			return req
		},
		decode: func(_ context.Context, id int32, _ []int32, resp kmsg.Response, r *reply[int32, []GroupListing]) error {
			lr := resp.(*kmsg.ListGroupsResponse)
			if err := kerr("ListGroups", fmt.Sprintf("on broker %d", id), lr.ErrorCode, nil); err != nil {
				return err
			}
			listed := make([]GroupListing, 0, len(lr.Groups))
			for _, g := range lr.Groups {
				listed = append(listed, GroupListing{Group: g.Group, State: g.GroupState, Type: strings.ToLower(g.GroupType), ProtocolType: g.ProtocolType, Coordinator: id})
			}
			r.set(id, listed)
			return nil
		},
		fatal: true,
	}
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// GroupDescription is everything kcg knows about one group's membership.
type GroupDescription struct {
	Group  string
	Exists bool // false: the broker knows no such group
	// NotFound tells how the broker said a group does not exist: true
	// when it answered GROUP_ID_NOT_FOUND (DescribeGroups v6, Kafka 4.0
	// and later), false when it described the group in state Dead (v5 and
	// older, brokers before 4.0).
	// The Java tool reports the two differently; drop-in mode follows it.
	NotFound     bool
	Type         string // TypeClassic or TypeConsumer
	ProtocolType string // "consumer" for consumer groups; "" for admin-only ("simple") groups
	State        string // Kafka's name: Stable, Empty, Dead, PreparingRebalance, CompletingRebalance, Assigning, Reconciling
	Assignor     string // classic: the chosen protocol (range, cooperative-sticky…); consumer: the server assignor
	Coordinator  Broker
	// GroupEpoch and AssignmentEpoch exist for consumer-protocol groups only.
	GroupEpoch      *int32
	AssignmentEpoch *int32
	Members         []Member // sorted by member id
	// Streams is set for a KIP-1071 streams group (Type TypeStreams):
	// its topology and tasks (streams.go).
	Streams *StreamsGroup
	Err     error // the group could not be described
}

// Member is one group member.
type Member struct {
	MemberID   string
	InstanceID *string
	ClientID   string
	ClientHost string
	// Assignment is the member's current assignment, sorted.
	Assignment []TopicPartitions
	// Subscribed topics (classic: from the subscription metadata).
	Subscribed []string
	// MemberEpoch and TargetAssignment exist for consumer-protocol groups.
	MemberEpoch      *int32
	TargetAssignment []TopicPartitions
	// Upgraded tells, in a consumer-protocol group, whether the member
	// speaks the new protocol (true) or joined as a classic consumer
	// (false); nil when the broker does not say (ConsumerGroupDescribe v0)
	// or for classic groups.
	Upgraded *bool
	// DecodeErr is set when the member's classic metadata could not be
	// decoded; the member is still reported.
	DecodeErr error
	// Position is the member's place in the broker's answer (Members is
	// sorted by id): drop-in mode prints members with as many partitions
	// in that order, as the Java tool does.
	Position int
}

// HasMembers reports whether the group has active members.
func (d GroupDescription) HasMembers() bool { return len(d.Members) > 0 }

// describeGroupsBatch bounds the groups per DescribeGroups or
// ConsumerGroupDescribe request.
const describeGroupsBatch = 500

// DescribeGroups describes groups, in the order given. Consumer-protocol
// (KIP-848) groups are described with ConsumerGroupDescribe when the
// cluster supports it; classic groups, and all groups on older clusters,
// with DescribeGroups. A group that cannot be described carries Err; the
// call itself fails only when the cluster cannot be reached.
func (c *Client) DescribeGroups(ctx context.Context, groups []string) ([]GroupDescription, error) {
	// No Metadata first: the coordinator lookup is the first request (an
	// unreachable cluster fails it), and it names each coordinator's
	// address (learnBroker) for the descriptions.
	cgdVersion, cgdOK, err := c.pickVersion(ctx, kmsg.NewPtrConsumerGroupDescribeRequest(), 1)
	if err != nil {
		return nil, err
	}
	// v6 (Kafka 4.0+) answers GROUP_ID_NOT_FOUND for a group it does not
	// know, as the Java tool sees it; v5 and older brokers say Dead.
	dgVersion, dgOK, err := c.pickVersion(ctx, kmsg.NewPtrDescribeGroupsRequest(), 6)
	if err != nil {
		return nil, err
	}
	if !dgOK {
		return nil, errors.New("the broker does not support the DescribeGroups API")
	}
	// The batches of one coordinator go out together (the client's
	// in-flight bound still applies): 1,000 groups are five batches, and
	// sending them one after the other cost five round trips per phase.
	var streams *sharded[string, GroupDescription]
	if sgdVersion, sgdOK, err := c.pickVersion(ctx, kmsg.NewPtrStreamsGroupDescribeRequest(), 1); err != nil {
		return nil, err
	} else if sgdOK && dgVersion >= 6 {
		// A streams group is GROUP_ID_NOT_FOUND to DescribeGroups v6:
		// only those groups are asked again, as streams groups.
		streams = c.describeStreamsGroups(sgdVersion)
	}
	api := c.describeClassicGroups(dgVersion, streams)
	if cgdOK {
		api = c.describeConsumerGroups(cgdVersion, api)
	}
	out, errs, err := shard(ctx, c, c.coordinatorRouter(), api, groups)
	if err != nil {
		return nil, err
	}
	for i, e := range errs {
		if e != nil {
			out[i] = GroupDescription{Group: groups[i], Err: e}
		}
	}
	return out, nil
}

func noDescription(g string) error { return fmt.Errorf("group %s: no description returned", g) }

func describeGroupBatches(groups []string) [][]string { return chunks(groups, describeGroupsBatch) }

// describeConsumerGroups is ConsumerGroupDescribe at version v for the
// engine; the groups it does not know as consumer-protocol groups go on to
// classic, on the same coordinator.
func (c *Client) describeConsumerGroups(v int16, classic *sharded[string, GroupDescription]) *sharded[string, GroupDescription] {
	return &sharded[string, GroupDescription]{
		split: describeGroupBatches,
		request: func(batch []string) kmsg.Request {
			req := kmsg.NewPtrConsumerGroupDescribeRequest()
			req.Version = v
			req.Groups = batch
			return req
		},
		decode: func(ctx context.Context, broker int32, _ []string, resp kmsg.Response, r *reply[string, GroupDescription]) error {
			return c.decodeConsumerGroups(ctx, broker, resp.(*kmsg.ConsumerGroupDescribeResponse), r)
		},
		then: classic,
		// DescribeGroups goes out with ConsumerGroupDescribe: the
		// groups of one family or the other answer one of them, and
		// asking the second after the first cost a round trip.
		eager:   true,
		missing: noDescription,
	}
}

func (c *Client) decodeConsumerGroups(ctx context.Context, broker int32, resp *kmsg.ConsumerGroupDescribeResponse, r *reply[string, GroupDescription]) error {
	// Kafka 3.9 answers a batch that names a group it does not know as
	// consumer group with every group twice: the described ones, then
	// GROUP_ID_NOT_FOUND for all of the batch (seen on 3.9.1; 4.0.2
	// answers once per group). A group described in this response is
	// described; its error entry is the broker's slip, not a second
	// answer.
	described := map[string]bool{}
	for i := range resp.Groups {
		if resp.Groups[i].ErrorCode == 0 {
			described[resp.Groups[i].Group] = true
		}
	}
	for i := range resp.Groups {
		g := &resp.Groups[i]
		e := kerr("ConsumerGroupDescribe", "group "+g.Group, g.ErrorCode, g.ErrorMessage)
		if e != nil && described[g.Group] {
			continue
		}
		switch {
		case e == nil:
			d, err := c.consumerGroupDescription(ctx, broker, g)
			if err != nil {
				return err
			}
			r.set(g.Group, d)
		case errors.Is(e, kafka.GroupIdNotFound), errors.Is(e, kafka.UnsupportedVersion):
			// Not a consumer-protocol group (or none at all): the
			// classic API tells which.
			r.pass(g.Group)
		case retriable(e):
			r.retry(g.Group, e)
		default:
			r.set(g.Group, GroupDescription{Group: g.Group, Err: e})
		}
	}
	return nil
}

// describeClassicGroups is DescribeGroups at version v for the engine;
// the groups it does not know go on to streams (StreamsGroupDescribe)
// when that is set.
func (c *Client) describeClassicGroups(v int16, streams *sharded[string, GroupDescription]) *sharded[string, GroupDescription] {
	return &sharded[string, GroupDescription]{
		split: describeGroupBatches,
		request: func(batch []string) kmsg.Request {
			req := kmsg.NewPtrDescribeGroupsRequest()
			req.Version = v
			req.Groups = batch
			return req
		},
		decode: func(_ context.Context, broker int32, _ []string, resp kmsg.Response, r *reply[string, GroupDescription]) error {
			groups := resp.(*kmsg.DescribeGroupsResponse).Groups
			for i := range groups {
				g := &groups[i]
				e := kerr("DescribeGroups", "group "+g.Group, g.ErrorCode, g.ErrorMessage)
				switch {
				case e == nil:
					r.set(g.Group, c.classicGroupDescription(broker, g))
				case errors.Is(e, kafka.GroupIdNotFound) && streams != nil:
					r.pass(g.Group)
				case errors.Is(e, kafka.GroupIdNotFound):
					r.set(g.Group, GroupDescription{Group: g.Group, Exists: false, NotFound: true, State: vocab.StateDead, Type: TypeClassic, Coordinator: c.brokerOrID(broker)})
				case retriable(e):
					r.retry(g.Group, e)
				default:
					r.set(g.Group, GroupDescription{Group: g.Group, Err: e})
				}
			}
			return nil
		},
		then:    streams,
		missing: noDescription,
	}
}

func (c *Client) brokerOrID(id int32) Broker {
	if b, ok := c.broker(id); ok {
		return b
	}
	return Broker{ID: id}
}

func (c *Client) classicGroupDescription(broker int32, g *kmsg.DescribeGroupsResponseGroup) GroupDescription {
	d := GroupDescription{
		Group:        g.Group,
		Exists:       g.State != vocab.StateDead,
		Type:         TypeClassic,
		ProtocolType: g.ProtocolType,
		State:        g.State,
		Assignor:     g.Protocol,
		Coordinator:  c.brokerOrID(broker),
	}
	for i, m := range g.Members {
		mem := Member{MemberID: m.MemberID, InstanceID: m.InstanceID, ClientID: m.ClientID, ClientHost: m.ClientHost, Position: i}
		// Only "consumer" groups use ConsumerProtocol; Connect workers and
		// others put their own bytes there.
		if g.ProtocolType == protocolTypeConsumer {
			if sub, err := DecodeSubscription(m.ProtocolMetadata); err == nil {
				mem.Subscribed = sub.Topics
			} else {
				mem.DecodeErr = err
			}
			if a, err := DecodeAssignment(m.MemberAssignment); err == nil {
				mem.Assignment = a.Partitions
			} else if mem.DecodeErr == nil {
				mem.DecodeErr = err
			}
		}
		d.Members = append(d.Members, mem)
	}
	slices.SortFunc(d.Members, func(a, b Member) int { return cmp.Compare(a.MemberID, b.MemberID) })
	return d
}

func (c *Client) consumerGroupDescription(ctx context.Context, broker int32, g *kmsg.ConsumerGroupDescribeResponseGroup) (GroupDescription, error) {
	epoch, aepoch := g.Epoch, g.AssignmentEpoch
	d := GroupDescription{
		Group:           g.Group,
		Exists:          g.State != vocab.StateDead,
		Type:            TypeConsumer,
		ProtocolType:    protocolTypeConsumer,
		State:           g.State,
		Assignor:        g.AssignorName,
		Coordinator:     c.brokerOrID(broker),
		GroupEpoch:      &epoch,
		AssignmentEpoch: &aepoch,
	}
	// Some brokers name assigned topics by id only; resolve ids through
	// Metadata once, and only if needed.
	var names map[[16]byte]string
	resolve := func(a kmsg.Assignment) ([]TopicPartitions, error) {
		var out []TopicPartitions
		for _, tp := range a.TopicPartitions {
			name := tp.Topic
			if name == "" {
				if names == nil {
					ts, err := c.Topics(ctx, nil)
					if err != nil {
						return nil, err
					}
					names = map[[16]byte]string{}
					for n, t := range ts {
						names[t.ID] = n
					}
				}
				name = names[tp.TopicID]
			}
			ps := append([]int32(nil), tp.Partitions...)
			slices.Sort(ps)
			out = append(out, TopicPartitions{Topic: name, Partitions: ps})
		}
		slices.SortFunc(out, func(a, b TopicPartitions) int { return cmp.Compare(a.Topic, b.Topic) })
		return out, nil
	}
	for i, m := range g.Members {
		mepoch := m.MemberEpoch
		mem := Member{
			Position:    i,
			MemberID:    m.MemberID,
			InstanceID:  m.InstanceID,
			ClientID:    m.ClientID,
			ClientHost:  m.ClientHost,
			Subscribed:  append([]string(nil), m.SubscribedTopics...),
			MemberEpoch: &mepoch,
		}
		slices.Sort(mem.Subscribed)
		var err error
		if mem.Assignment, err = resolve(m.Assignment); err != nil {
			return GroupDescription{}, err
		}
		if mem.TargetAssignment, err = resolve(m.TargetAssignment); err != nil {
			return GroupDescription{}, err
		}
		switch m.MemberType {
		case 0:
			f := false
			mem.Upgraded = &f
		case 1:
			t := true
			mem.Upgraded = &t
		}
		d.Members = append(d.Members, mem)
	}
	slices.SortFunc(d.Members, func(a, b Member) int { return cmp.Compare(a.MemberID, b.MemberID) })
	return d, nil
}
