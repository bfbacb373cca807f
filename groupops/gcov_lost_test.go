package groupops_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kcg-dev/kcg/groupops"
	"github.com/kcg-dev/kcg/internal/faultproxy"
	"github.com/kcg-dev/kcg/internal/kafkatest"
	"github.com/kcg-dev/kcg/kafkaadmin"
	"github.com/kcg-dev/kcg/resetplan"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// The API keys whose answers the lost-answer tests lose.
const (
	gcKeyDeleteGroups = 42
	gcKeyOffsetDelete = 47
)

// gcProxied is a one-broker kfake cluster of the test's own behind a
// fault proxy, and an admin client that talks to it through the proxy.
func gcProxied(t *testing.T) (*kafkatest.Env, *faultproxy.Cluster) {
	t.Helper()
	e := kafkatest.FakeBrokers(t, 1)
	pc, err := faultproxy.New(e.BrokerAddrs())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pc.Close)
	return e, pc
}

func gcFault(t *testing.T, pc *faultproxy.Cluster, f faultproxy.Fault) {
	t.Helper()
	if err := pc.SetAll(f); err != nil {
		t.Fatal(err)
	}
}

// A delete whose answer is cut after Kafka carried it out: DeleteGroups
// asks whether the group is still there and, since it is not, reports
// it deleted; DeleteOffsets reads the group's offsets back and reports
// the gone ones deleted.
func TestGcovLostAnswerOfADoneDelete(t *testing.T) {
	t.Parallel() // seconds of waiting, its own groups
	e, pc := gcProxied(t)
	cl, ctx := gcClient(t, pc.Addrs()...)
	topic := gcTopic(t, e, 2)
	del, dof := kafkatest.UniqueName(t, "del"), kafkatest.UniqueName(t, "dof")
	e.Commit(t, del, topic, map[int32]int64{0: 1})
	e.Commit(t, dof, topic, map[int32]int64{0: 2, 1: 3})

	gcFault(t, pc, faultproxy.Fault{Mode: faultproxy.Cut, Keys: []int16{gcKeyDeleteGroups, gcKeyOffsetDelete}})
	// A deadline as kcg's --timeout gives: the cut connection fails at
	// once rather than after the transport's own timeouts.
	ctx, cancel := context.WithTimeout(ctx, 4*time.Second)
	defer cancel()
	ds, err := groupops.DeleteGroups(ctx, cl, []string{del})
	if err != nil || len(ds) != 1 || ds[0].Group != del || ds[0].Err != nil {
		t.Errorf("DeleteGroups with its answer cut: %+v, %v; want %s deleted", ds, err, del)
	}
	r, err := groupops.DeleteOffsets(ctx, cl, dof, []resetplan.TopicSpec{{Topic: topic}})
	if err != nil {
		t.Fatalf("DeleteOffsets with its answer cut: %v", err)
	}
	if r.GroupErr != nil || len(r.Partitions) != 2 {
		t.Fatalf("DeleteOffsets: %+v, want both partitions", r)
	}
	for _, p := range r.Partitions {
		if p.Err != nil {
			t.Errorf("%s: %v, want deleted", p.Name(), p.Err)
		}
	}
	gcFault(t, pc, faultproxy.Fault{})
	if got := e.Committed(t, dof); len(got[topic]) != 0 {
		t.Errorf("%s holds %v", dof, got)
	}
	if missing, _, err := groupops.MissingGroups(ctx, cl, []string{del}); err != nil || len(missing) != 1 {
		t.Errorf("%s: missing %v, %v; want it gone", del, missing, err)
	}
}

// A delete whose request never gets an answer before the deadline, and
// whose outcome cannot be read back either: DeleteGroups says the outcome
// is unknown (ErrOutcomeUnknown) and how to check it; DeleteOffsets fails
// with the same words.
func TestGcovLostAnswerOfAnUnknownDelete(t *testing.T) {
	t.Parallel() // seconds of waiting, its own groups
	e, pc := gcProxied(t)
	cl, _ := gcClient(t, pc.Addrs()...)
	topic := gcTopic(t, e, 1)
	del, dof := kafkatest.UniqueName(t, "del"), kafkatest.UniqueName(t, "dof")
	e.Commit(t, del, topic, map[int32]int64{0: 1})
	e.Commit(t, dof, topic, map[int32]int64{0: 2})
	// Warm the client's metadata and coordinators up before the fault.
	wctx, wcancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer wcancel()
	if _, _, err := groupops.MissingGroups(wctx, cl, []string{del, dof}); err != nil {
		t.Fatal(err)
	}

	gcFault(t, pc, faultproxy.Fault{Mode: faultproxy.BlackHole, Keys: []int16{gcKeyDeleteGroups, gcKeyOffsetDelete}})
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	ds, err := groupops.DeleteGroups(ctx, cl, []string{del})
	if err != nil || len(ds) != 1 {
		t.Fatalf("DeleteGroups: %+v, %v", ds, err)
	}
	if !errors.Is(ds[0].Err, groupops.ErrOutcomeUnknown) || !strings.HasSuffix(ds[0].Err.Error(), "(check with kcg list)") {
		t.Errorf("DeleteGroups: %v, want the outcome unknown, checked with kcg list", ds[0].Err)
	}

	ctx, cancel = context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_, err = groupops.DeleteOffsets(ctx, cl, dof, []resetplan.TopicSpec{{Topic: topic, Partitions: []int32{0}}})
	if !errors.Is(err, groupops.ErrOutcomeUnknown) || !strings.HasPrefix(err.Error(), "deleting offsets of group "+dof+": ") ||
		!strings.HasSuffix(err.Error(), "(check with kcg describe "+dof+")") {
		t.Errorf("DeleteOffsets: %v, want the outcome unknown, checked with kcg describe", err)
	}
	gcFault(t, pc, faultproxy.Fault{})
	// The requests never arrived: nothing was deleted.
	if got := e.Committed(t, dof)[topic]; got[0] != 2 {
		t.Errorf("%s holds %v, want partition 0 at 2", dof, got)
	}
}

// An OffsetDelete whose connection closes before Kafka carried it out:
// the offsets read back are all still there, so each partition fails
// with the lost answer's error, and nothing is reported deleted.
func TestGcovLostAnswerOfADeleteNotDone(t *testing.T) {
	t.Parallel() // seconds of waiting, its own groups
	// kfake on both tiers: the connection is closed on demand.
	e := kafkatest.Fake(t)
	cl, ctx := gcClient(t, e.Bootstrap)
	topic := gcTopic(t, e, 2)
	g := kafkatest.UniqueName(t, "g")
	e.Commit(t, g, topic, map[int32]int64{0: 2, 1: 3})
	// Every OffsetDelete of g loses its connection (the client retries
	// it); the control leaves the shared cluster with the test.
	var over atomic.Bool
	t.Cleanup(func() { over.Store(true) })
	e.Kfake.ControlKey(int16(kmsg.OffsetDelete), func(kr kmsg.Request) (kmsg.Response, error, bool) {
		if over.Load() {
			e.Kfake.DropControl()
			return nil, nil, false
		}
		e.Kfake.KeepControl()
		if kr.(*kmsg.OffsetDeleteRequest).Group != g {
			return nil, nil, false
		}
		return nil, errors.New("connection lost"), true
	})
	// The lost connection is retried until the deadline's reserve; the
	// read-back runs in it.
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	r, err := groupops.DeleteOffsets(ctx, cl, g, []resetplan.TopicSpec{{Topic: topic}})
	if err != nil {
		t.Fatalf("DeleteOffsets: %v, want each partition's outcome", err)
	}
	var ue *kafkaadmin.UnreachableError
	if r.GroupErr != nil || len(r.Partitions) != 2 || !errors.As(r.Partitions[0].Err, &ue) || !errors.As(r.Partitions[1].Err, &ue) {
		t.Errorf("DeleteOffsets: %+v, want both partitions failed with the lost connection", r)
	}
	if got := e.Committed(t, g)[topic]; got[0] != 2 || got[1] != 3 {
		t.Errorf("%s holds %v, want 2 and 3", g, got)
	}
}
