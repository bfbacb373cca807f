package commands_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/kcg-dev/kcg/internal/kafkatest"
)

type deleteDoc struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Groups     []struct {
		Group   string  `json:"group"`
		Deleted bool    `json:"deleted"`
		Error   *string `json:"error"`
	} `json:"groups"`
}

// kcg delete: an empty group is deleted, one with an active member is
// not, with its reason; exit 1 when any failed. A missing group is
// refused before anything is deleted (exit 3, TestDeleteMissingGroupRefused).
func TestDeleteGroups(t *testing.T) {
	e := kafkatest.Cluster(t)
	topic := kafkatest.UniqueName(t, "t")
	e.CreateTopic(t, topic, 1)
	e.Produce(t, topic, 0, records(2)...)
	empty := kafkatest.UniqueName(t, "empty")
	e.Commit(t, empty, topic, map[int32]int64{0: 1})

	r := kcgOn(t, e, "delete", "--yes", empty, "-o", "json").MustCode(t, 0)
	var d deleteDoc
	if err := json.Unmarshal([]byte(r.Stdout), &d); err != nil {
		t.Fatal(err)
	}
	if d.APIVersion != "kcg/v1" || d.Kind != "GroupDeleteResult" || len(d.Groups) != 1 || !d.Groups[0].Deleted || d.Groups[0].Error != nil {
		t.Fatalf("document %+v\n%s", d, r.Stdout)
	}
	if c := e.Committed(t, empty); len(c) != 0 {
		t.Fatalf("offsets left after delete: %v", c)
	}

	active := kafkatest.UniqueName(t, "active")
	e.ClassicMember(t, active, topic)
	missing := kafkatest.UniqueName(t, "missing")
	again := kafkatest.UniqueName(t, "again")
	e.Commit(t, again, topic, map[int32]int64{0: 1})
	r = kcgOn(t, e, "delete", "--yes", missing, again, "--group", active).MustCode(t, 3)
	if !strings.Contains(r.Stderr, fmt.Sprintf("kcg: group %q does not exist", missing)) || len(e.Committed(t, again)) != 1 {
		t.Fatalf("a missing group beside others:\n%s", r.Stderr)
	}
	r = kcgOn(t, e, "delete", "--yes", again, "--group", active).MustCode(t, 1)
	if got := rows(r.Stdout, again); len(got) != 1 || got[0][1] != "deleted" || got[0][2] != "-" {
		t.Fatalf("deleted group row %v\n%s", got, r.Stdout)
	}
	if got := rows(r.Stdout, active); len(got) != 1 || got[0][1] != "failed" || !strings.Contains(r.Stdout, "active members") {
		t.Fatalf("active group row %v\n%s", got, r.Stdout)
	}
	if !strings.Contains(r.Stderr, "kcg: group "+active+" was not deleted: ") {
		t.Fatalf("stderr:\n%s", r.Stderr)
	}
	kcgOn(t, e, "delete").MustCode(t, 64)
	kcgOn(t, e, "delete", "x", "--all-groups").MustCode(t, 64)
}

type offsetDeleteDoc struct {
	Kind       string  `json:"kind"`
	Group      string  `json:"group"`
	Error      *string `json:"error"`
	Partitions []struct {
		Topic     string  `json:"topic"`
		Partition *int32  `json:"partition"`
		Deleted   bool    `json:"deleted"`
		Error     *string `json:"error"`
	} `json:"partitions"`
}

// kcg delete-offsets: T alone is every partition; T:P one; an unknown
// topic has an entry without partition; a group that is actively
// subscribed keeps its offsets; exit 1 when anything failed.
func TestDeleteOffsets(t *testing.T) {
	e := kafkatest.Cluster(t)
	topic := kafkatest.UniqueName(t, "t")
	other := kafkatest.UniqueName(t, "o")
	e.CreateTopic(t, topic, 2)
	e.CreateTopic(t, other, 1)
	g := kafkatest.UniqueName(t, "g")
	e.Commit(t, g, topic, map[int32]int64{0: 0, 1: 0})
	e.Commit(t, g, other, map[int32]int64{0: 0})

	r := kcgOn(t, e, "delete-offsets", "--yes", g, "--topic", topic, "-o", "json").MustCode(t, 0)
	var d offsetDeleteDoc
	if err := json.Unmarshal([]byte(r.Stdout), &d); err != nil {
		t.Fatal(err)
	}
	if d.Kind != "OffsetDeleteResult" || d.Group != g || d.Error != nil || len(d.Partitions) != 2 || !d.Partitions[0].Deleted || *d.Partitions[1].Partition != 1 {
		t.Fatalf("document %+v\n%s", d, r.Stdout)
	}
	if c := e.Committed(t, g); fmt.Sprint(c) != fmt.Sprintf("map[%s:map[0:0]]", other) {
		t.Fatalf("committed after delete: %v", c)
	}

	unknown := kafkatest.UniqueName(t, "unknown")
	r = kcgOn(t, e, "delete-offsets", "--yes", "--group", g, "--topic", other+":0", "--topic", unknown).MustCode(t, 1)
	if got := rows(r.Stdout, g); len(got) != 2 || strings.Join(got[0][1:4], " ") != other+" 0 deleted" ||
		strings.Join(got[1][1:4], " ") != unknown+" - failed" {
		t.Fatalf("rows %v\n%s", got, r.Stdout)
	}

	kcgOn(t, e, "delete-offsets", g).MustCode(t, 64)
	kcgOn(t, e, "delete-offsets", g, "h", "--topic", topic).MustCode(t, 64)
	kcgOn(t, e, "delete-offsets", g, "--topic", topic+":x").MustCode(t, 64)

	// An active group subscribed to the topic keeps its offsets. (kfake
	// does not refuse OffsetDelete for subscribed topics.)
	e.RequireReal(t, "kfake deletes offsets of topics an active group is subscribed to")
	active := kafkatest.UniqueName(t, "active")
	e.Commit(t, active, topic, map[int32]int64{0: 0})
	e.ClassicMember(t, active, topic)
	r = kcgOn(t, e, "delete-offsets", "--yes", active, "--topic", topic+":0").MustCode(t, 1)
	if !strings.Contains(r.Stdout, "failed") || !strings.Contains(r.Stderr, "kcg: group "+active) {
		t.Fatalf("stdout:\n%s\nstderr:\n%s", r.Stdout, r.Stderr)
	}
	if c := e.Committed(t, active); c[topic][0] != 0 || len(c[topic]) != 1 {
		t.Fatalf("active group's offsets: %v", c)
	}
}
