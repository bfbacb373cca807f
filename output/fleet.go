package output

import (
	"cmp"
	"slices"
	"strings"
	"time"
)

// ClusterRef is the cluster a group was read from, on each group of a
// document of several clusters (kcg list|describe|watch --profile a,b or
// --all-profiles); absent from the documents of one cluster, whose bytes
// stay what they were (docs/output.md, "Many clusters").
type ClusterRef struct {
	// Profile is the profile's name in the config file.
	Profile string `json:"profile" yaml:"profile"`
	// ID is the cluster id the cluster gave; nil when it gave none.
	ID *string `json:"id" yaml:"id"`
}

// ClusterStatus is one cluster of a document of several clusters, in the
// order of their profile names: its id, or why it could not be read (its
// groups are then absent from the document).
type ClusterStatus struct {
	Profile string  `json:"profile" yaml:"profile"`
	ID      *string `json:"id" yaml:"id"`
	// Error says why the cluster could not be read; nil when it was.
	Error *string `json:"error" yaml:"error"`
}

// Ref is the reference the groups read from c carry.
func (c ClusterStatus) Ref() *ClusterRef { return &ClusterRef{Profile: c.Profile, ID: c.ID} }

// clusterColumn is the CLUSTER column's header, the first of every table
// of a document of several clusters.
const clusterColumn = "CLUSTER"

// withCluster is header with CLUSTER first when fleet.
func withCluster(fleet bool, header ...string) []string {
	if !fleet {
		return header
	}
	return append([]string{clusterColumn}, header...)
}

// lead is the cells a group's row starts with: its cluster's profile
// (only in a document of several clusters) and the group, sized for a row
// of n cells.
func lead(n int, c *ClusterRef, group string) []string {
	r := make([]string, 0, n)
	if c != nil {
		r = append(r, c.Profile)
	}
	return append(r, group)
}

// profileOf is c's profile, "" for nil: the sort key of a group of a
// document of one cluster.
func profileOf(c *ClusterRef) string {
	if c == nil {
		return ""
	}
	return c.Profile
}

// byCluster orders groups by cluster profile, then group id.
func byCluster(ca, cb *ClusterRef, a, b string) int {
	return cmp.Or(cmp.Compare(profileOf(ca), profileOf(cb)), cmp.Compare(a, b))
}

// DownClusters is "eu, us": the clusters of cs that could not be read,
// for a title line; "" when none.
func DownClusters(cs []ClusterStatus) string {
	var down []string
	for _, c := range cs {
		if c.Error != nil {
			down = append(down, c.Profile)
		}
	}
	return strings.Join(down, ", ")
}

// NewFleetGroupList is the list of several clusters: cs in profile
// order, and lists[i] the list of cs[i] (empty for a cluster that could
// not be read); each group carries its cluster.
func NewFleetGroupList(cs []ClusterStatus, lists []GroupList) GroupList {
	out := NewGroupList(joinClusters(cs, lists, func(l GroupList) []GroupListing { return l.Groups },
		func(g *GroupListing, c *ClusterRef) { g.Cluster = c }))
	out.Clusters = cs
	out.Sort()
	return out
}

// NewFleetDescriptionList is NewFleetGroupList for describe.
func NewFleetDescriptionList(cs []ClusterStatus, lists []GroupDescriptionList) GroupDescriptionList {
	out := NewGroupDescriptionList(joinClusters(cs, lists, func(l GroupDescriptionList) []GroupDescription { return l.Groups },
		func(g *GroupDescription, c *ClusterRef) { g.Cluster = c }))
	out.Clusters = cs
	out.Sort()
	return out
}

// NewFleetLagSample is NewFleetGroupList for one sample of kcg watch: the
// groups of every cluster that answered, at.
func NewFleetLagSample(cs []ClusterStatus, samples []LagSample, at time.Time, timeLag bool) LagSample {
	out := NewLagSampleOf(nil, at, timeLag)
	out.Clusters = cs
	out.Groups = joinClusters(cs, samples, func(s LagSample) []WatchedGroup { return s.Groups },
		func(g *WatchedGroup, c *ClusterRef) { g.Cluster = c })
	slices.SortStableFunc(out.Groups, func(a, b WatchedGroup) int { return byCluster(a.Cluster, b.Cluster, a.Group, b.Group) })
	return out
}

// joinClusters is the groups of every document of docs (docs[i] is cs[i]'s),
// each given its cluster with set; never nil.
func joinClusters[D, G any](cs []ClusterStatus, docs []D, groups func(D) []G, set func(*G, *ClusterRef)) []G {
	out := []G{}
	for i, d := range docs {
		ref := cs[i].Ref()
		for _, g := range groups(d) {
			set(&g, ref)
			out = append(out, g)
		}
	}
	return out
}

// fleetMetricsOf is the metrics of a describe document of several
// clusters: one Metrics per cluster, in the document's order, with its
// groups; a cluster that could not be read has kcg_up 0 and no other
// sample.
func fleetMetricsOf(doc GroupDescriptionList, timeLag bool, took time.Duration, at time.Time) FleetMetrics {
	ms := make(FleetMetrics, len(doc.Clusters))
	idx := make(map[string]int, len(doc.Clusters))
	for i, c := range doc.Clusters {
		ms[i] = Metrics{Doc: NewGroupDescriptionList(nil), Cluster: Deref(c.ID), ClusterName: c.Profile, TimeLag: timeLag, Up: c.Error == nil}
		if c.Error == nil {
			ms[i].Took, ms[i].At = took, at
		}
		idx[c.Profile] = i
	}
	for _, g := range doc.Groups {
		if i, ok := idx[profileOf(g.Cluster)]; ok {
			ms[i].Doc.Groups = append(ms[i].Doc.Groups, g)
		}
	}
	return ms
}
