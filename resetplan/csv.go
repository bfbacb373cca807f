package resetplan

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/kcg-dev/kcg/vocab"
)

// CSVLayout is the column layout of the Java tool's reset CSV.
type CSVLayout int

const (
	// CSVWithGroup is group,topic,partition,offset: what the Java tool
	// exports unless exactly one --group was given (several --group, or
	// --all-groups).
	CSVWithGroup CSVLayout = iota
	// CSVNoGroup is topic,partition,offset: the Java export when exactly
	// one --group was given.
	CSVNoGroup
)

// ExportCSV renders a plan's targets byte for byte as the Java tool's
// `--reset-offsets --export` writes them to stdout: no header, one row per
// partition, "\n" line ends, and one extra "\n" at the end, because Java
// println's the concatenated rows (an empty plan is just "\n"). Values are
// quoted like Jackson's CsvMapper in its default ("loose") mode, which is
// broader than RFC 4180: see csvField. Rows are sorted by group, topic,
// partition, where Java prints HashMap order.
//
// CSVNoGroup with more than one group, and delete-offset entries (which the
// CSV cannot express), are errors.
func ExportCSV(p *Plan, layout CSVLayout) ([]byte, error) {
	if layout == CSVNoGroup && len(p.Groups) > 1 {
		return nil, fmt.Errorf("the topic,partition,offset layout holds one group, the plan has %d", len(p.Groups))
	}
	groups := slices.SortedFunc(slices.Values(p.Groups), compareGroups)
	var b bytes.Buffer
	for _, g := range groups {
		for _, pt := range slices.SortedFunc(slices.Values(g.Partitions), comparePartitions) {
			t, ok := pt.TargetOffset()
			if !ok {
				return nil, fmt.Errorf("group %s partition %s: a delete-offset entry has no CSV form", g.Group, pt.TP().KafkaName())
			}
			if layout == CSVWithGroup {
				b.WriteString(csvField(g.Group))
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "%s,%d,%d\n", csvField(pt.Topic), pt.Partition, t)
		}
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}

// csvField quotes a value the way Jackson's CsvEncoder does by default
// (CsvGenerator.Feature.STRICT_CHECK_FOR_QUOTING off, jackson 2.x): a
// string longer than 24 UTF-16 units is always quoted, and so is one with
// any character below '-' (0x2D: controls, space, !"#$%&'()*+ and ','),
// the "minimum safe char" derived from the separator, quote and line
// separator. Quotes inside are doubled. So a Kafka topic name (only
// [a-zA-Z0-9._-]) is quoted exactly when it is longer than 24 characters.
func csvField(s string) string {
	need := utf16Len(s) > 24
	for i := 0; i < len(s) && !need; i++ {
		need = s[i] < '-'
	}
	if !need {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		// Invalid UTF-8 ranges as U+FFFD, one unit, as Java's decoder
		// would replace it.
		n += max(utf16.RuneLen(r), 1)
	}
	return n
}

// FileTargets are the offsets read from a --from-file: group → partition →
// offset.
type FileTargets map[string]map[TopicPartition]int64

// FileFormat says what ParseResetFile found.
type FileFormat string

// The --from-file formats.
const (
	FormatCSVNoGroup   FileFormat = "csv:topic,partition,offset"
	FormatCSVWithGroup FileFormat = "csv:group,topic,partition,offset"
	FormatPlan         FileFormat = "plan"
)

// ParseResetFile reads a --from-file: a kcg plan (YAML or JSON, recognised
// by its first line; its targets become the file's offsets) or the Java
// tool's CSV (see parseCSV). singleGroup is the group id when exactly one
// --group was given, else "".
//
// data larger than MaxResetFileBytes is refused.
func ParseResetFile(data []byte, singleGroup string) (FileTargets, FileFormat, error) {
	if len(data) > MaxResetFileBytes {
		return nil, "", tooLarge(MaxResetFileBytes, "--from-file")
	}
	if looksLikePlan(data) {
		p, err := Decode(data)
		if err != nil {
			return nil, FormatPlan, err
		}
		ft := FileTargets{}
		for _, g := range p.Groups {
			m := map[TopicPartition]int64{}
			for _, pt := range g.Partitions {
				t, ok := pt.TargetOffset()
				if !ok {
					return nil, FormatPlan, &DecodeError{Format: "plan", Msg: fmt.Sprintf(
						"group %s partition %s deletes its offset; a rollback plan with delete-offset entries cannot be a --from-file, apply it with kcg apply", g.Group, pt.TP().KafkaName())}
				}
				m[pt.TP()] = t
			}
			ft[g.Group] = m
		}
		return ft, FormatPlan, nil
	}
	return parseCSV(data, singleGroup)
}

// parseCSV reads the Java tool's reset CSV with its auto-detection: if
// exactly one --group was given (singleGroup != "") and the first row
// parses as topic,partition(int),offset(long), every row is that group's;
// otherwise every row is group,topic,partition,offset. Rows for other
// groups are kept (Build ignores groups it was not asked for); a repeated
// (group, topic, partition) takes the last row's offset, as in Java.
//
// kcg is more tolerant where it is harmless: CRLF line ends, blank lines
// anywhere, a UTF-8 BOM, a header row (topic,partition,offset or
// group,topic,partition,offset — it can never be a data row, since
// "partition" is not a number), spaces around the numbers, and quoted
// values with embedded newlines (which Java's line-by-line reader breaks
// on although its export writes them). A 3-column file with several groups
// is an error naming the problem, where Java silently finds no plan.
//
// A file larger than MaxResetFileBytes or with more than MaxCSVRows rows
// is refused.
func parseCSV(data []byte, singleGroup string) (FileTargets, FileFormat, error) {
	if len(data) > MaxResetFileBytes {
		return nil, "", tooLarge(MaxResetFileBytes, "--from-file")
	}
	rows, err := readCSVRows(data)
	if err != nil {
		return nil, "", err
	}
	if len(rows) > 0 && isHeader(rows[0].fields) {
		rows = rows[1:]
	}
	ft := FileTargets{}
	if len(rows) == 0 {
		return ft, FormatCSVWithGroup, nil
	}
	// With one group a 3-field first row is the 3-column layout even if
	// a number in it is bad, so the bad field is named (offset "zero" is
	// not a number), not reported as a 4-field row missing a field.
	_, _, _, err = parseCSVRow(rows[0].fields, false)
	threeCol := err == nil || (len(rows[0].fields) == 3 && singleGroup != "")
	if threeCol && singleGroup == "" {
		return nil, FormatCSVNoGroup, &DecodeError{Format: "csv", Line: rows[0].line, Msg: "this is a topic,partition,offset file, which names no group; " +
			"it can only be used with exactly one --group (the Java tool's rule), or add a group column"}
	}
	format := FormatCSVWithGroup
	if threeCol {
		format = FormatCSVNoGroup
	}
	for i, rw := range rows {
		g, tp, off, err := parseCSVRow(rw.fields, !threeCol)
		if err != nil {
			msg := csvRowMessage(err, i, len(rw.fields), rows[0].line, threeCol, singleGroup)
			return nil, format, &DecodeError{Format: "csv", Line: rw.line, Msg: msg}
		}
		if threeCol {
			g = singleGroup
		}
		if ft[g] == nil {
			ft[g] = map[TopicPartition]int64{}
		}
		ft[g][tp] = off
	}
	return ft, format, nil
}

// csvRow is one record of a --from-file CSV and the line it starts on.
type csvRow struct {
	line   int
	fields []string
}

// readCSVRows reads every record of a CSV (after a UTF-8 byte order mark),
// leaving out blank lines; at most MaxCSVRows.
func readCSVRows(data []byte) ([]csvRow, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	var rows []csvRow
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return rows, nil
		}
		if err != nil {
			var pe *csv.ParseError
			line := 0
			msg := err.Error()
			if errors.As(err, &pe) {
				line, msg = pe.Line, pe.Err.Error()
			}
			return nil, &DecodeError{Format: "csv", Line: line, Msg: msg, Err: err}
		}
		line, _ := r.FieldPos(0)
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue
		}
		if len(rows) == MaxCSVRows {
			return nil, &DecodeError{Format: "csv", Line: line,
				Msg: fmt.Sprintf("more than %d rows, kcg's limit for a --from-file", MaxCSVRows)}
		}
		rows = append(rows, csvRow{line, rec})
	}
}

// csvRowMessage is the message of parseCSVRow's err for row i (n fields),
// said against the layout that the first row (on firstRowLine) chose.
func csvRowMessage(err error, i, n, firstRowLine int, threeCol bool, singleGroup string) string {
	if i == 0 && (n != 3 && n != 4 || n == 3 && !threeCol) {
		// The first row decides the layout, so a wrong count there names
		// both layouts.
		if singleGroup == "" {
			return vocab.Count(n, "field") + ", want 4 (group,topic,partition,offset), or 3 (topic,partition,offset) with exactly one --group"
		}
		return vocab.Count(n, "field") + ", want 4 (group,topic,partition,offset) or 3 (topic,partition,offset)"
	}
	if i > 0 && errors.Is(err, errFieldCount) {
		return err.Error() + fmt.Sprintf(" as on line %d", firstRowLine)
	}
	return err.Error()
}

func isHeader(f []string) bool {
	h := strings.Join(f, ",")
	return h == "topic,partition,offset" || h == "group,topic,partition,offset"
}

// errFieldCount marks a row with the wrong number of fields.
var errFieldCount = errors.New("want")

// parseCSVRow parses one row in the given layout.
func parseCSVRow(f []string, withGroup bool) (string, TopicPartition, int64, error) {
	want, layout := 3, "topic,partition,offset"
	if withGroup {
		want, layout = 4, "group,topic,partition,offset"
	}
	if len(f) != want {
		return "", TopicPartition{}, 0, fmt.Errorf("%s, %w %d (%s)", vocab.Count(len(f), "field"), errFieldCount, want, layout)
	}
	group := ""
	if withGroup {
		group, f = f[0], f[1:]
	}
	part, err := strconv.ParseInt(strings.TrimSpace(f[1]), 10, 32)
	if err != nil {
		return "", TopicPartition{}, 0, fmt.Errorf("partition %q is not a number", f[1])
	}
	off, err := strconv.ParseInt(strings.TrimSpace(f[2]), 10, 64)
	if err != nil {
		return "", TopicPartition{}, 0, fmt.Errorf("offset %q is not a number", f[2])
	}
	return group, TopicPartition{Topic: f[0], Partition: int32(part)}, off, nil
}

// looksLikeCSV reports whether data's first non-blank line is a Java reset
// CSV row (either layout), so Decode can name the mistake.
func looksLikeCSV(data []byte) bool {
	line := firstLine(data)
	if line == "" {
		return false
	}
	r := csv.NewReader(strings.NewReader(line))
	r.FieldsPerRecord = -1
	rec, err := r.Read()
	if err != nil {
		return false
	}
	if isHeader(rec) {
		return true
	}
	_, _, _, err3 := parseCSVRow(rec, false)
	_, _, _, err4 := parseCSVRow(rec, true)
	return err3 == nil || err4 == nil
}

// firstLine returns the first non-blank line, without BOM and CR.
func firstLine(data []byte) string {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	for rest := data; len(rest) > 0; {
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte("\n"))
		if l := strings.TrimRight(string(line), "\r"); strings.TrimSpace(l) != "" {
			return l
		}
	}
	return ""
}
