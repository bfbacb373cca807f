package resetplan

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// The wire types mirror the file for strict decoding: pointers tell an
// absent key from a zero value, so required fields can be enforced.
type wirePlan struct {
	APIVersion  string           `json:"apiVersion" yaml:"apiVersion"`
	Kind        string           `json:"kind" yaml:"kind"`
	CreatedAt   *string          `json:"createdAt" yaml:"createdAt"`
	CreatedBy   string           `json:"createdBy" yaml:"createdBy"`
	Cluster     *wireCluster     `json:"cluster" yaml:"cluster"`
	Strategy    *wireStrategy    `json:"strategy" yaml:"strategy"`
	Annotations *wireAnnotations `json:"annotations" yaml:"annotations"`
	Connector   *wireConnector   `json:"connector" yaml:"connector"`
	Groups      *[]wireGroup     `json:"groups" yaml:"groups"`
}

type wireCluster struct {
	ID        string `json:"id" yaml:"id"`
	Bootstrap string `json:"bootstrap" yaml:"bootstrap"`
}

type wireStrategy struct {
	Type             string  `json:"type" yaml:"type"`
	Offset           *int64  `json:"offset" yaml:"offset"`
	ShiftBy          *int64  `json:"shiftBy" yaml:"shiftBy"`
	Datetime         *string `json:"datetime" yaml:"datetime"`
	Duration         *string `json:"duration" yaml:"duration"`
	ResolvedTime     *string `json:"resolvedTime" yaml:"resolvedTime"`
	File             *string `json:"file" yaml:"file"`
	RollbackOf       *string `json:"rollbackOf" yaml:"rollbackOf"`
	Group            *string `json:"group" yaml:"group"`
	Alias            *string `json:"alias" yaml:"alias"`
	CheckpointsTopic *string `json:"checkpointsTopic" yaml:"checkpointsTopic"`
}

type wireAnnotations struct {
	Ticket *string `json:"ticket" yaml:"ticket"`
	Note   *string `json:"note" yaml:"note"`
}

type wireGroup struct {
	Group       *string `json:"group" yaml:"group"`
	Type        string  `json:"type" yaml:"type"`
	StateAtPlan string  `json:"stateAtPlan" yaml:"stateAtPlan"`
	// New is derived from StateAtPlan (Plan.IsNew); read only to check
	// that it agrees.
	New        *bool           `json:"new" yaml:"new"`
	Partitions []wirePartition `json:"partitions" yaml:"partitions"`
}

type wirePartition struct {
	Topic     *string `json:"topic" yaml:"topic"`
	Partition *int32  `json:"partition" yaml:"partition"`
	Current   *int64  `json:"current" yaml:"current"`
	Target    *int64  `json:"target" yaml:"target"`
	LogStart  *int64  `json:"logStart" yaml:"logStart"`
	LogEnd    *int64  `json:"logEnd" yaml:"logEnd"`
	Reason    string  `json:"reason" yaml:"reason"`
	// translate-from only.
	UpstreamOffset *int64  `json:"upstreamOffset" yaml:"upstreamOffset"`
	CheckpointTime *string `json:"checkpointTime" yaml:"checkpointTime"`
}

// Decode reads a plan file, YAML or JSON (JSON when the first non-blank
// character is '{'), strictly: unknown fields, duplicate keys, a second
// document and missing required fields are refused; kind must be
// OffsetResetPlan; an apiVersion other than kcg/v1 is refused with
// ErrUnsupportedVersion (a future kcg/v2 may change what fields mean, so
// guessing is unsafe). A Java CSV export is recognised and named
// (ErrLooksLikeCSV). Every error is a *DecodeError (ErrBadInput), or a
// *TooLargeError (also ErrBadInput) for data over MaxPlanBytes.
//
// The plan comes back sorted (groups, then partitions), which is also the
// order of its digest: reordering a file does not change what it is.
//
// data larger than MaxPlanBytes is refused before it is parsed, and data
// larger than MaxOtherPlanBytes unless it is in kcg's own YAML layout (the
// fast path). yaml.v3
// refuses nesting deeper than 10,000 levels and aliases that expand far
// beyond the document ("billion laughs"); encoding/json refuses nesting
// deeper than 10,000 levels.
func Decode(data []byte) (*Plan, error) { return decode(data, true) }

// decode is Decode; fast allows fastWire, which reads the canonical YAML
// layout without yaml.v3 and leaves every other input to the path below
// (decode(data, false) is that path alone, for the tests).
func decode(data []byte, fast bool) (*Plan, error) {
	if len(data) > MaxPlanBytes {
		return nil, tooLarge(MaxPlanBytes, "plan file")
	}
	if fast {
		if w, ok := fastWire(data); ok {
			if err := checkHeader(w.APIVersion, w.Kind); err != nil {
				err.Format = "yaml"
				return nil, err
			}
			return fromWireAs(w, "yaml")
		}
	}
	if len(data) > MaxOtherPlanBytes {
		return nil, tooLarge(MaxOtherPlanBytes, otherLayout)
	}
	trimmed := bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))
	if len(trimmed) == 0 {
		return nil, &DecodeError{Msg: "the file is empty"}
	}
	isJSON := trimmed[0] == '{'
	if !isJSON && !looksLikePlan(data) && looksLikeCSV(data) {
		return nil, &DecodeError{Format: "csv", Err: ErrLooksLikeCSV,
			Msg: "this looks like a kafka-consumer-groups CSV export, not a kcg plan; use --from-file to turn it into a plan (kcg plan GROUP --from-file FILE --out PLAN)"}
	}
	format := "yaml"
	if isJSON {
		format = "json"
	}
	if derr := decodeHead(data, trimmed, isJSON, format); derr != nil {
		return nil, derr
	}
	var w *wirePlan
	var derr *DecodeError
	if isJSON {
		w, derr = decodeJSONPlan(trimmed)
	} else {
		w, derr = decodeYAMLPlan(data)
	}
	if derr != nil {
		return nil, derr
	}
	return fromWireAs(w, format)
}

// decodeHead reads apiVersion and kind first, leniently, and checks them:
// a future version's unknown fields must produce the version error, not
// an unknown-field one.
func decodeHead(data, trimmed []byte, isJSON bool, format string) *DecodeError {
	var head struct {
		APIVersion any `json:"apiVersion" yaml:"apiVersion"`
		Kind       any `json:"kind" yaml:"kind"`
	}
	var err error
	if isJSON {
		// Only the first value: trailing data is reported later, clearly.
		err = json.NewDecoder(bytes.NewReader(trimmed)).Decode(&head)
	} else {
		err = yaml.Unmarshal(data, &head)
	}
	if err != nil {
		msg := cleanErr(err)
		if what := notAMapping(data, isJSON); what != "" {
			msg = "the file holds " + what + ", not a mapping with apiVersion: kcg/v1 and kind: OffsetResetPlan"
		}
		return &DecodeError{Format: format, Line: errLine(err, data), Msg: "not a kcg plan file: " + msg, Err: err}
	}
	apiVersion, _ := head.APIVersion.(string)
	kind, _ := head.Kind.(string)
	if err := checkHeader(apiVersion, kind); err != nil {
		err.Format = format
		return err
	}
	return nil
}

// decodeJSONPlan decodes a JSON plan strictly: no duplicate or unknown
// field, nothing after the plan object.
func decodeJSONPlan(trimmed []byte) (*wirePlan, *DecodeError) {
	const format = "json"
	if err := checkJSONDuplicates(trimmed); err != nil {
		return nil, &DecodeError{Format: format, Msg: err.Error()}
	}
	var w wirePlan
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return nil, &DecodeError{Format: format, Line: errLine(err, trimmed), Msg: cleanErr(err), Err: err}
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, &DecodeError{Format: format, Msg: "unexpected data after the plan object"}
	}
	return &w, nil
}

// decodeYAMLPlan decodes a YAML plan strictly: no unknown field, exactly
// one document.
func decodeYAMLPlan(data []byte) (*wirePlan, *DecodeError) {
	const format = "yaml"
	var w wirePlan
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&w); err != nil {
		return nil, &DecodeError{Format: format, Line: errLine(err, data), Msg: cleanErr(err), Err: err}
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, &DecodeError{Format: format, Msg: "more than one YAML document; a plan file holds exactly one"}
	}
	return &w, nil
}

// fromWireAs is fromWire with its error said to be in format.
func fromWireAs(w *wirePlan, format string) (*Plan, error) {
	p, derr := fromWire(w)
	if derr != nil {
		derr.Format = format
		return nil, derr
	}
	return p, nil
}

var apiVersionRE = regexp.MustCompile(`^kcg/v([0-9]+)$`)

func checkHeader(apiVersion, kind string) *DecodeError {
	if apiVersion == "" && kind == "" {
		return &DecodeError{Msg: "not a kcg plan file: it has no apiVersion and kind (want apiVersion: kcg/v1, kind: OffsetResetPlan)"}
	}
	if kind != Kind {
		return &DecodeError{Msg: fmt.Sprintf("kind is %q; kcg plan files have kind %s", kind, Kind)}
	}
	m := apiVersionRE.FindStringSubmatch(apiVersion)
	if m == nil {
		return &DecodeError{Err: ErrUnsupportedVersion,
			Msg: fmt.Sprintf("apiVersion %q is not a kcg plan version (want %s)", apiVersion, APIVersion)}
	}
	if n, _ := strconv.Atoi(m[1]); n != 1 {
		hint := "re-create the plan with this kcg"
		if n > 1 {
			hint = "it was written by a newer kcg; use that version, or re-create the plan with this one"
		}
		return &DecodeError{Err: ErrUnsupportedVersion,
			Msg: fmt.Sprintf("plan apiVersion %s is not supported: this kcg reads %s; %s", apiVersion, APIVersion, hint)}
	}
	return nil
}

// looksLikePlan reports whether data starts like a plan document (used by
// --from-file to tell a plan from a CSV): JSON, a YAML document marker, or
// an apiVersion/kind key on the first line that is not a comment.
func looksLikePlan(data []byte) bool {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	// Line by line without splitting the whole file: a file of millions
	// of blank lines must not cost a string per line.
	for rest := data; len(rest) > 0; {
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte("\n"))
		l := strings.TrimSpace(string(line))
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		return strings.HasPrefix(l, "{") || strings.HasPrefix(l, "---") || strings.HasPrefix(l, "%YAML") ||
			planKeyRE.MatchString(l)
	}
	return false
}

var planKeyRE = regexp.MustCompile(`^["']?(apiVersion|kind)["']?\s*:`)

// fromWire converts and validates a decoded file.
func fromWire(w *wirePlan) (*Plan, *DecodeError) {
	bad := func(format string, a ...any) (*Plan, *DecodeError) {
		return nil, &DecodeError{Msg: fmt.Sprintf(format, a...)}
	}
	p := &Plan{APIVersion: w.APIVersion, Kind: w.Kind, CreatedBy: w.CreatedBy}
	if w.CreatedAt == nil {
		return bad("createdAt is missing")
	}
	t, err := parseTime("createdAt", *w.CreatedAt)
	if err != nil {
		return nil, err
	}
	p.CreatedAt = t
	if w.Cluster == nil {
		return bad("cluster is missing")
	}
	p.Cluster = Cluster{ID: w.Cluster.ID, Bootstrap: w.Cluster.Bootstrap}
	if w.Strategy == nil {
		return bad("strategy is missing")
	}
	st, derr := strategyFromWire(w.Strategy)
	if derr != nil {
		return nil, derr
	}
	p.Strategy = st
	p.Annotations = annotationsFromWire(w.Annotations)
	if p.Connector, derr = connectorFromWire(w.Connector); derr != nil {
		return nil, derr
	}
	if w.Groups == nil {
		return bad("groups is missing")
	}
	seenGroup := map[string]bool{}
	for gi := range *w.Groups {
		wg := &(*w.Groups)[gi]
		if wg.Group == nil {
			return bad("groups[%d]: group is missing", gi)
		}
		name := *wg.Group
		if seenGroup[name] {
			return bad("group %q appears twice", name)
		}
		seenGroup[name] = true
		g, derr := groupFromWire(p, name, wg)
		if derr != nil {
			return nil, derr
		}
		p.Groups = append(p.Groups, g)
	}
	if p.Groups == nil {
		p.Groups = []Group{}
	}
	p.normalize()
	return p, nil
}

// annotationsFromWire returns the plan's annotations, nil when there are
// none or all are empty.
func annotationsFromWire(a *wireAnnotations) *Annotations {
	if a == nil {
		return nil
	}
	an := &Annotations{}
	if a.Ticket != nil {
		an.Ticket = *a.Ticket
	}
	if a.Note != nil {
		an.Note = *a.Note
	}
	if an.IsZero() {
		return nil
	}
	return an
}

// groupFromWire converts and validates the group entry named name of the
// plan p, whose strategy is already read.
func groupFromWire(p *Plan, name string, wg *wireGroup) (Group, *DecodeError) {
	bad := func(format string, a ...any) (Group, *DecodeError) {
		return Group{}, &DecodeError{Msg: fmt.Sprintf(format, a...)}
	}
	g := Group{Group: name, Type: wg.Type, StateAtPlan: wg.StateAtPlan, Partitions: make([]Partition, 0, len(wg.Partitions))}
	if wg.New != nil && *wg.New != p.IsNew(g) {
		// new is derived; a file that says otherwise was edited by
		// hand and a reviewer may have trusted the wrong one.
		if *wg.New {
			return bad("group %q: new: true, but stateAtPlan is %s: a new group is planned as Dead (and never in a rollback plan)", name, wg.StateAtPlan)
		}
		return bad("group %q: new: false, but stateAtPlan Dead means the group did not exist at plan time", name)
	}
	// Partitions in strictly increasing order (every file kcg writes)
	// cannot repeat one: the set of those seen is built only once the
	// order breaks.
	var seenTP map[TopicPartition]bool
	for pi := range wg.Partitions {
		wp := &wg.Partitions[pi]
		switch {
		case wp.Topic == nil:
			return bad("group %q partitions[%d]: topic is missing", name, pi)
		case wp.Partition == nil:
			return bad("group %q partitions[%d]: partition is missing", name, pi)
		}
		pt := Partition{Topic: *wp.Topic, Partition: *wp.Partition, Current: wp.Current, Target: wp.Target, Reason: Reason(wp.Reason)}
		if seenTP == nil && pi > 0 && comparePartitions(g.Partitions[pi-1], pt) >= 0 {
			seenTP = make(map[TopicPartition]bool, len(wg.Partitions))
			for _, q := range g.Partitions {
				seenTP[q.TP()] = true
			}
		}
		if derr := checkWirePartition(p.Strategy.Type, name, pt, wp, seenTP[pt.TP()]); derr != nil {
			return Group{}, derr
		}
		if seenTP != nil {
			seenTP[pt.TP()] = true
		}
		pt.LogStart, pt.LogEnd = *wp.LogStart, *wp.LogEnd
		if derr := checkpointFromWire(p.Strategy.Type, name, &pt, wp); derr != nil {
			return Group{}, derr
		}
		g.Partitions = append(g.Partitions, pt)
	}
	return g, nil
}

// checkWirePartition validates the partition pt, read from wp, of the group
// named group in a plan of strategy st; seen tells that the group already
// has it.
func checkWirePartition(st StrategyType, group string, pt Partition, wp *wirePartition, seen bool) *DecodeError {
	// The partition is only named for an error: two Sprintfs per partition
	// were a tenth of decoding a large plan.
	bad := func(what string) *DecodeError {
		return &DecodeError{Msg: fmt.Sprintf("group %q partition %s", group, pt.TP().KafkaName()) + what}
	}
	switch {
	case pt.Partition < 0:
		return bad(": partition number is negative")
	case seen:
		return bad(" appears twice")
	case wp.LogStart == nil || wp.LogEnd == nil:
		return bad(": logStart and logEnd are required")
	case wp.Reason == "":
		return bad(": reason is missing")
	case !reasons[pt.Reason]:
		return bad(fmt.Sprintf(": unknown reason %q", wp.Reason))
	case st.IsDelete() && pt.Reason != ReasonDeleteOffset:
		return bad(fmt.Sprintf(": a %s plan only deletes offsets (reason delete-offset, target null), not reason %s", st, pt.Reason))
	case pt.Reason == ReasonDeleteOffset && st != StrategyRollback && !st.IsDelete():
		return bad(fmt.Sprintf(": reason %s is only valid in a rollback or delete plan", pt.Reason))
	case pt.Reason == ReasonRestore && st != StrategyRollback:
		return bad(fmt.Sprintf(": reason %s is only valid in a rollback plan", pt.Reason))
	case pt.Reason == ReasonCopiedFromGroup && st != StrategyToGroup:
		return bad(fmt.Sprintf(": reason %s is only valid in a to-group plan", pt.Reason))
	case pt.Reason == ReasonTranslated && st != StrategyTranslateFrom:
		return bad(fmt.Sprintf(": reason %s is only valid in a translate-from plan", pt.Reason))
	case pt.Reason == ReasonDeleteOffset && pt.Target != nil:
		return bad(": reason delete-offset needs target: null")
	case pt.Target == nil && pt.Reason != ReasonDeleteOffset:
		return bad(": target is missing (null is only valid with reason delete-offset, in a rollback or delete plan)")
	}
	return nil
}

func strategyFromWire(w *wireStrategy) (Strategy, *DecodeError) {
	t := StrategyType(w.Type)
	if derr := checkStrategyParams(t, w); derr != nil {
		return Strategy{}, derr
	}
	s := Strategy{Type: t, Offset: w.Offset, ShiftBy: w.ShiftBy}
	var derr *DecodeError
	if w.Datetime != nil {
		if s.Datetime, derr = parseTime("strategy.datetime", *w.Datetime); derr != nil {
			return s, derr
		}
	}
	if w.ResolvedTime != nil {
		if s.ResolvedTime, derr = parseTime("strategy.resolvedTime", *w.ResolvedTime); derr != nil {
			return s, derr
		}
	}
	if w.Duration != nil {
		if _, err := ParseDuration(*w.Duration); err != nil {
			return s, &DecodeError{Msg: fmt.Sprintf("strategy.duration %q is not an ISO-8601 duration", *w.Duration)}
		}
		s.Duration = *w.Duration
	}
	// An empty file or rollbackOf is refused like a missing one: the
	// encoder omits empty values, so a plan holding one would not read
	// back (found by FuzzDecode: file: "" decoded, its encoding did not).
	if w.File != nil {
		if *w.File == "" {
			return s, &DecodeError{Msg: fmt.Sprintf("strategy %s: file is empty", t)}
		}
		s.File = *w.File
	}
	if w.RollbackOf != nil {
		if *w.RollbackOf == "" {
			return s, &DecodeError{Msg: fmt.Sprintf("strategy %s: rollbackOf is empty", t)}
		}
		s.RollbackOf = *w.RollbackOf
	}
	if w.Group != nil {
		if *w.Group == "" {
			return s, &DecodeError{Msg: "strategy.group is empty"}
		}
		s.Group = *w.Group
	}
	for _, f := range []struct {
		name string
		v    *string
		to   *string
	}{{"alias", w.Alias, &s.Alias}, {"checkpointsTopic", w.CheckpointsTopic, &s.CheckpointsTopic}} {
		if f.v != nil {
			if *f.v == "" {
				return s, &DecodeError{Msg: "strategy." + f.name + " is empty"}
			}
			*f.to = *f.v
		}
	}
	return s, nil
}

// checkStrategyParams checks the strategy's type and that it carries
// exactly the parameters that type takes.
func checkStrategyParams(t StrategyType, w *wireStrategy) *DecodeError {
	if w.Type == "" {
		return &DecodeError{Msg: "strategy.type is missing"}
	}
	if !knownStrategy(t) {
		return &DecodeError{Msg: fmt.Sprintf("strategy.type %q is not a known strategy", w.Type)}
	}
	// Exactly the parameter the type takes: a stray one would show the
	// reviewer something that did not produce the targets.
	want := map[StrategyType]string{
		StrategyToOffset: "offset", StrategyShiftBy: "shiftBy", StrategyToDatetime: "datetime",
		StrategyByDuration: "duration", StrategyFromFile: "file", StrategyRollback: "rollbackOf",
		StrategyToGroup: "group", StrategyTranslateFrom: "alias",
	}[t]
	present := map[string]bool{
		"offset": w.Offset != nil, "shiftBy": w.ShiftBy != nil, "datetime": w.Datetime != nil,
		"duration": w.Duration != nil, "resolvedTime": w.ResolvedTime != nil, "file": w.File != nil,
		"rollbackOf": w.RollbackOf != nil, "group": w.Group != nil,
		"alias": w.Alias != nil, "checkpointsTopic": w.CheckpointsTopic != nil,
	}
	for _, k := range []string{"offset", "shiftBy", "datetime", "duration", "resolvedTime", "file", "rollbackOf", "group", "alias", "checkpointsTopic"} {
		allowed := k == want || (k == "resolvedTime" && t == StrategyByDuration) || (k == "checkpointsTopic" && t == StrategyTranslateFrom)
		if present[k] && !allowed {
			return &DecodeError{Msg: fmt.Sprintf("strategy %s does not take %s", t, k)}
		}
		if !present[k] && allowed {
			return &DecodeError{Msg: fmt.Sprintf("strategy %s needs %s", t, k)}
		}
	}
	return nil
}

func parseTime(field, v string) (time.Time, *DecodeError) {
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return time.Time{}, &DecodeError{Msg: fmt.Sprintf("%s %q is not an RFC 3339 time (e.g. 2026-11-29T07:10:00Z)", field, v)}
	}
	return t.UTC(), nil
}

// checkJSONDuplicates refuses an object with a repeated key: encoding/json
// would silently keep the last, so a reviewer reading the first value
// would approve something else than what runs.
func checkJSONDuplicates(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	type frame struct {
		obj  bool
		keys map[string]bool
		// wantKey is true when the next token in an object is a key.
		wantKey bool
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return nil // syntax errors are reported by the real decode
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{', '[':
				if top != nil && top.obj {
					top.wantKey = true
				}
				stack = append(stack, &frame{obj: d == '{', keys: map[string]bool{}, wantKey: d == '{'})
			case '}', ']':
				stack = stack[:len(stack)-1]
			}
			continue
		}
		if top != nil && top.obj {
			if top.wantKey {
				k := tok.(string)
				if top.keys[k] {
					return fmt.Errorf("key %q appears twice in one object", k)
				}
				top.keys[k] = true
				top.wantKey = false
			} else {
				top.wantKey = true
			}
		}
	}
}

// checkpointFromWire reads a partition's upstreamOffset and
// checkpointTime: both in every partition of a translate-from plan,
// neither in any other.
func checkpointFromWire(st StrategyType, group string, pt *Partition, wp *wirePartition) *DecodeError {
	bad := func(what string) *DecodeError {
		return &DecodeError{Msg: fmt.Sprintf("group %q partition %s", group, pt.TP().KafkaName()) + what}
	}
	if st != StrategyTranslateFrom {
		if wp.UpstreamOffset != nil || wp.CheckpointTime != nil {
			return bad(": upstreamOffset and checkpointTime are only valid in a translate-from plan")
		}
		return nil
	}
	if wp.UpstreamOffset == nil || wp.CheckpointTime == nil {
		return bad(": a translate-from plan needs upstreamOffset and checkpointTime")
	}
	if *wp.UpstreamOffset < 0 {
		return bad(": upstreamOffset is negative")
	}
	t, derr := parseTime("checkpointTime", *wp.CheckpointTime)
	if derr != nil {
		return bad(": " + derr.Msg)
	}
	if t.IsZero() {
		return bad(": checkpointTime is the zero time")
	}
	pt.Upstream, pt.CheckpointTime = wp.UpstreamOffset, t
	return nil
}
