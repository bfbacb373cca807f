package output

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/olekukonko/tablewriter/pkg/twwidth"
)

// fixtureSample has n groups; group i has lag i*100 and status OK, except
// the ones in bad (index → status).
func fixtureSample(n int, timeLag bool, bad map[int]string) LagSample {
	s := LagSample{APIVersion: APIVersion, Kind: KindLagSample, Time: "2026-12-01T12:00:00.000Z", timeLag: timeLag}
	for i := range n {
		status := "OK"
		if b, ok := bad[i]; ok {
			status = b
		}
		s.Groups = append(s.Groups, WatchedGroup{
			Group: fmt.Sprintf("billing-consumer-%02d", i), State: Ptr("Stable"), Members: 3,
			Lag: Ptr(int64(i * 100)), MaxTimeLagMs: Ptr(int64(252000)),
			ConsumeRate: Ptr(1234.5), ProduceRate: Ptr(1000.25), EtaSeconds: Ptr(42.0),
			Status: status, Trend: []*int64{Ptr(int64(1)), Ptr(int64(5)), Ptr(int64(9))},
		})
	}
	return s
}

var escapes = regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]`)

// frameLines is the frame's text lines without escape sequences.
func frameLines(t *testing.T, f []byte) []string {
	t.Helper()
	text := string(f)
	if !strings.HasPrefix(text, escHome) || !strings.HasSuffix(text, "\n"+escClearBelow) {
		t.Fatalf("frame does not start at home and end clearing below: %q", text)
	}
	return strings.Split(strings.TrimSuffix(escapes.ReplaceAllString(text, ""), "\n"), "\n")
}

func headerOf(lines []string) []string { return strings.Fields(lines[1]) }

// Every line fits the width; columns leave in dropOrder; GROUP is cut
// last, and STATUS leaves only when nothing else is left.
func TestFrameFollowsWidth(t *testing.T) {
	s := fixtureSample(3, true, nil)
	full := strings.Fields(frameLines(t, s.Frame(Screen{Interval: 5 * time.Second}))[1])
	if want := "GROUP STATE MEMBERS LAG TIME-LAG RETENTION CONSUME/S PRODUCE/S ETA STATUS TREND"; strings.Join(full, " ") != want {
		t.Fatalf("header %v, want %s", full, want)
	}
	prev := len(full)
	for width := 140; width >= 1; width-- {
		lines := frameLines(t, s.Frame(Screen{Width: width, Height: 40, Interval: 5 * time.Second}))
		for _, l := range lines {
			if w := twwidth.Width(l); w > width {
				t.Fatalf("width %d: line of %d columns: %q", width, w, l)
			}
		}
		h := headerOf(lines)
		if len(h) > prev {
			t.Fatalf("width %d: %v has more columns than at a wider screen", width, h)
		}
		prev = len(h)
		// The columns left are the first ones of the keep order.
		dropped := len(full) - len(h)
		for i, name := range dropOrder {
			if kept := slices.Contains(h, name); kept == (i < dropped) {
				t.Fatalf("width %d: header %v: %s kept=%v after %d drops", width, h, name, kept, dropped)
			}
		}
		if width >= len("GROUP") && h[0] != "GROUP" {
			t.Fatalf("width %d: GROUP dropped: %v", width, h)
		}
		if width >= minGroupWidth+len(columnGap)+len("STATUS") && !slices.Contains(h, "STATUS") {
			t.Fatalf("width %d: STATUS dropped while it fits with a cut GROUP: %v", width, h)
		}
	}
	// At 48 columns: GROUP, LAG, TIME-LAG, STATUS (and the names whole:
	// 19 + 3 + 3 + 3 + 8 + 3 + 6 = 45; ETA would need 6 more).
	lines := frameLines(t, s.Frame(Screen{Width: 48, Height: 40}))
	if got := strings.Join(headerOf(lines), " "); got != "GROUP LAG TIME-LAG STATUS" {
		t.Errorf("at 48 columns: %s\n%s", got, strings.Join(lines, "\n"))
	}
	if !strings.HasPrefix(lines[2], "billing-consumer-00 ") {
		t.Errorf("group cut although it fits: %q", lines[2])
	}
	// At 20 columns GROUP is cut to what STATUS leaves: 20 - 3 - 6.
	lines = frameLines(t, s.Frame(Screen{Width: 20, Height: 40}))
	if got := strings.Fields(lines[2]); len(got) != 2 || got[0] != "billing-co…" || got[1] != "OK" {
		t.Errorf("at 20 columns: %q", lines[2])
	}
}

// Colour only when asked: each status in its colour, the padding not.
func TestFrameColour(t *testing.T) {
	s := fixtureSample(6, false, map[int]string{1: "WARN", 2: "STALL", 3: "STOP", 4: "REWIND", 5: "UNKNOWN"})
	plain := string(s.Frame(Screen{Width: 200, Height: 40}))
	if strings.Contains(plain, "\033[3") || strings.Contains(plain, escReset) {
		t.Errorf("colour without Color: %q", plain)
	}
	col := string(s.Frame(Screen{Width: 200, Height: 40, Color: true}))
	for status, code := range map[string]string{"OK": "32", "WARN": "33", "STALL": "31", "STOP": "31", "REWIND": "35"} {
		if !strings.Contains(col, "\033["+code+"m"+status+escReset+" ") {
			t.Errorf("%s not in colour %s: %q", status, code, col)
		}
	}
	if strings.Contains(col, "m"+"UNKNOWN") {
		t.Errorf("UNKNOWN coloured: %q", col)
	}
	// The same text once the escapes are gone.
	if escapes.ReplaceAllString(col, "") != escapes.ReplaceAllString(plain, "") {
		t.Errorf("colour changed the layout:\n%s\n%s", escapes.ReplaceAllString(col, ""), escapes.ReplaceAllString(plain, ""))
	}
}

// More groups than rows: the frame keeps its last row free, shows the
// worst groups (status, then lag) in name order and says how many are
// left out.
func TestFrameFollowsHeight(t *testing.T) {
	s := fixtureSample(30, false, map[int]string{3: "STOP", 7: "WARN"})
	lines := frameLines(t, s.Frame(Screen{Width: 200, Height: 10}))
	if len(lines) != 9 {
		t.Fatalf("%d lines on 10 rows, want 9:\n%s", len(lines), strings.Join(lines, "\n"))
	}
	var names []string
	for _, l := range lines[2:8] {
		names = append(names, strings.Fields(l)[0])
	}
	want := "billing-consumer-03 billing-consumer-07 billing-consumer-26 billing-consumer-27 billing-consumer-28 billing-consumer-29"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("shown %s, want %s", got, want)
	}
	if !strings.HasPrefix(lines[8], "… 24 more groups not shown") {
		t.Errorf("footer %q", lines[8])
	}
	if lines[0] != "2026-12-01T12:00:00.000Z  kcg watch: 30 groups every 0s" {
		t.Errorf("title %q", lines[0])
	}
	// Every group fits: all of them, no footer.
	if lines := frameLines(t, s.Frame(Screen{Width: 200, Height: 33})); len(lines) != 32 || strings.HasPrefix(lines[31], "…") {
		t.Errorf("30 groups on 33 rows:\n%s", strings.Join(lines, "\n"))
	}
	// Each line is erased before it is written.
	if f := string(s.Frame(Screen{Width: 200, Height: 10})); strings.Count(f, escClearLine) != 9 {
		t.Errorf("%d line erasures, want 9", strings.Count(f, escClearLine))
	}
}

// A group name is any string: on the screen its control characters are
// shown escaped (vocab.Printable, as in every table) and cannot move the
// cursor or recolour.
func TestFrameSafeNames(t *testing.T) {
	s := fixtureSample(1, false, nil)
	s.Groups[0].Group = "evil\033[2J\033[31mred\x07\xff"
	f := string(s.Frame(Screen{Width: 200, Height: 10}))
	if strings.Contains(f, "\033[2J") || strings.Contains(f, "\033[31m") || strings.Contains(f, "\x07") {
		t.Errorf("escape in a name reached the screen: %q", f)
	}
	if !strings.Contains(f, `evil\x1b[2J\x1b[31mred\x07\xff`) {
		t.Errorf("name not shown escaped: %q", f)
	}
}
