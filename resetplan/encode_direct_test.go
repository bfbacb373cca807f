package resetplan

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"math/rand/v2"
	"slices"
	"testing"

	"gopkg.in/yaml.v3"
)

// The tree writers as they were before the direct ones: the references.
func canonicalJSONTree(p *Plan) []byte {
	var b bytes.Buffer
	writeJSON(&b, tree(p), 0, true)
	return b.Bytes()
}

func encodeJSONTree(p *Plan) []byte {
	var b bytes.Buffer
	writeJSON(&b, tree(p), 0, false)
	b.WriteByte('\n')
	return b.Bytes()
}

func digestTree(p *Plan) string {
	sum := sha256.Sum256(canonicalJSONTree(p))
	return "sha256:" + hex.EncodeToString(sum[:])
}

func checkDirectSame(t *testing.T, p *Plan) {
	t.Helper()
	if got, want := canonicalJSON(p), canonicalJSONTree(p); !bytes.Equal(got, want) {
		t.Fatalf("canonicalJSON differs from the tree's\n--- got ---\n%s\n--- want ---\n%s", got, want)
	}
	if got, want := EncodeJSON(p), encodeJSONTree(p); !bytes.Equal(got, want) {
		t.Fatalf("EncodeJSON differs from the tree's\n--- got ---\n%s\n--- want ---\n%s", got, want)
	}
	if got, want := Digest(p), digestTree(p); got != want {
		t.Fatalf("Digest %s, the tree's %s", got, want)
	}
	checkEncodeYAMLSame(t, p)
}

// shuffled returns a copy of p with its groups and partitions out of
// order, so canonicalOrder must sort.
func shuffled(r *rand.Rand, p *Plan) *Plan {
	c := normalizedCopy(p)
	r.Shuffle(len(c.Groups), func(i, j int) { c.Groups[i], c.Groups[j] = c.Groups[j], c.Groups[i] })
	for _, g := range c.Groups {
		r.Shuffle(len(g.Partitions), func(i, j int) { g.Partitions[i], g.Partitions[j] = g.Partitions[j], g.Partitions[i] })
	}
	return c
}

// TestDirectWritersIdentical pins that canonicalJSON, EncodeJSON, Digest
// and EncodeYAML, written from the plan group by group, give the bytes of
// the whole tree: on the golden plans, every odd string in every field,
// 3,000 generated plans (sorted, shuffled, with duplicate names and
// empty groups), and a plan larger than the digest's flush size.
func TestDirectWritersIdentical(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 3))
	for name, p := range plansForGolden() {
		t.Run(name, func(t *testing.T) {
			checkDirectSame(t, p)
			checkDirectSame(t, shuffled(r, p))
		})
	}
	for _, s := range planStrings {
		p := samplePlan()
		p.Annotations = &Annotations{Ticket: s, Note: s}
		p.CreatedBy, p.Cluster.ID, p.Strategy = s, s, Strategy{Type: StrategyToGroup, Group: s}
		p.Groups[0].Group, p.Groups[0].Type, p.Groups[0].StateAtPlan = s, s, s
		p.Groups[0].Partitions[0].Topic, p.Groups[0].Partitions[0].Reason = s, Reason(s)
		p.Groups[1].Group, p.Groups[1].StateAtPlan = "zz"+s, s
		checkDirectSame(t, p)
	}
	for i := range 3000 {
		p := randomPlan(r)
		if i%3 == 0 && len(p.Groups) > 1 {
			p.Groups[1].Group = p.Groups[0].Group // a duplicate name
		}
		checkDirectSame(t, p)
		checkDirectSame(t, shuffled(r, p))
	}
	big := benchPlan(40, 64) // > flushAt of canonical bytes
	if n := len(canonicalJSONTree(big)); n < 2*flushAt {
		t.Fatalf("the big plan is only %d bytes", n)
	}
	checkDirectSame(t, big)
	checkDirectSame(t, shuffled(r, big))
}

// TestCanonicalOrderNoCopy pins that a sorted plan is written as it is
// and that an unsorted one is sorted without being modified.
func TestCanonicalOrderNoCopy(t *testing.T) {
	p := benchPlan(3, 4)
	if canonicalOrder(p) != p {
		t.Fatal("a sorted plan was copied")
	}
	q := shuffled(rand.New(rand.NewPCG(1, 1)), p)
	before := normalizedCopy(q)
	before.Groups = slices.Clone(q.Groups)
	c := canonicalOrder(q)
	if c == q {
		t.Fatal("an unsorted plan was not copied")
	}
	for i := range q.Groups {
		if q.Groups[i].Group != before.Groups[i].Group {
			t.Fatal("canonicalOrder modified the plan")
		}
	}
}

// TestYAMLPlainFastPath pins that every string plainOK accepts is written
// by yaml.v3 plain, as it is, in both contexts: odd strings and 50,000
// random ones over plainOK's alphabet and its neighbours.
func TestYAMLPlainFastPath(t *testing.T) {
	e := planYAML{cache: map[scalarKey]string{}, encode: func(n *yaml.Node) ([]byte, error) {
		var b bytes.Buffer
		enc := yaml.NewEncoder(&b)
		enc.SetIndent(2)
		if err := enc.Encode(n); err != nil {
			return nil, err
		}
		return b.Bytes(), enc.Close()
	}}
	cases := append([]string{"bench-group-0001", "a b", "a  b", "Yes", "NULL", "e1", "0g", "1e3", "0x1g", "a/b+c.d_e-f"}, planStrings...)
	r := rand.New(rand.NewPCG(3, 9))
	alphabet := []byte("aAzZyYnNoOeEtTfFgG019._/+- :#,{}\"'")
	for range 50000 {
		b := make([]byte, 1+r.IntN(8))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		cases = append(cases, string(b))
	}
	n := 0
	for _, s := range cases {
		for _, flow := range []bool{false, true} {
			if !plainOK(s, !flow) {
				continue
			}
			n++
			if got := e.scalar(s, flow); got != s {
				t.Fatalf("yaml.v3 writes %q as %s (flow %v), the fast path as it is", s, got, flow)
			}
		}
	}
	if n < 10000 {
		t.Fatalf("only %d cases took the fast path", n)
	}
}
