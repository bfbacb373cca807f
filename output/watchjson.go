package output

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
)

// appendLagSample appends s as encoding/json writes it without HTML
// escaping or indentation, and a newline: the bytes of WriteJSONLine's
// encoder (TestLagSampleJSONIdentical compares the two). A watch of
// 128,000 partitions writes a sample every few seconds; encoding/json's
// reflection was about a third of watch's CPU. ok is false when a rate is
// not finite: encoding/json refuses those, and the caller lets it say so.
func appendLagSample(b []byte, s LagSample) (_ []byte, ok bool) {
	w := sampleWriter{ok: true}
	b = append(b, `{"apiVersion":`...)
	b = appendJSONString(b, s.APIVersion)
	b = append(b, `,"kind":`...)
	b = appendJSONString(b, s.Kind)
	b = append(b, `,"time":`...)
	b = appendJSONString(b, s.Time)
	if len(s.Clusters) > 0 {
		b = append(b, `,"clusters":[`...)
		for i := range s.Clusters {
			if i > 0 {
				b = append(b, ',')
			}
			c := &s.Clusters[i]
			b = append(b, `{"profile":`...)
			b = appendJSONString(b, c.Profile)
			b = append(b, `,"id":`...)
			b = appendJSONStringPtr(b, c.ID)
			b = append(b, `,"error":`...)
			b = appendJSONStringPtr(b, c.Error)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"groups":`...)
	if s.Groups == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range s.Groups {
			if i > 0 {
				b = append(b, ',')
			}
			b = w.group(b, &s.Groups[i])
		}
		b = append(b, ']')
	}
	return append(b, "}\n"...), w.ok
}

// sampleWriter writes the groups of a LagSample for appendLagSample; ok
// turns false at the first rate that is not finite.
type sampleWriter struct{ ok bool }

// num writes a rate: null when nil, nothing (and ok false) when not finite.
func (w *sampleWriter) num(b []byte, v *float64) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	if math.IsNaN(*v) || math.IsInf(*v, 0) {
		w.ok = false
		return b
	}
	return appendJSONFloat(b, *v)
}

// group writes one WatchedGroup object.
func (w *sampleWriter) group(b []byte, g *WatchedGroup) []byte {
	b = append(b, '{')
	if c := g.Cluster; c != nil {
		b = append(b, `"cluster":{"profile":`...)
		b = appendJSONString(b, c.Profile)
		b = append(b, `,"id":`...)
		b = appendJSONStringPtr(b, c.ID)
		b = append(b, "},"...)
	}
	b = append(b, `"group":`...)
	b = appendJSONString(b, g.Group)
	b = append(b, `,"state":`...)
	b = appendJSONStringPtr(b, g.State)
	b = append(b, `,"members":`...)
	b = strconv.AppendInt(b, int64(g.Members), 10)
	b = append(b, `,"lag":`...)
	b = appendJSONIntPtr(b, g.Lag)
	b = append(b, `,"maxTimeLagMs":`...)
	b = appendJSONIntPtr(b, g.MaxTimeLagMs)
	b = append(b, `,"minRetentionHeadroomMs":`...)
	b = appendJSONIntPtr(b, g.MinRetentionHeadroomMs)
	b = append(b, `,"consumeRate":`...)
	b = w.num(b, g.ConsumeRate)
	b = append(b, `,"produceRate":`...)
	b = w.num(b, g.ProduceRate)
	b = append(b, `,"etaSeconds":`...)
	b = w.num(b, g.EtaSeconds)
	b = append(b, `,"status":`...)
	b = appendJSONString(b, g.Status)
	b = append(b, `,"trend":`...)
	if g.Trend == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for j, v := range g.Trend {
			if j > 0 {
				b = append(b, ',')
			}
			b = appendJSONIntPtr(b, v)
		}
		b = append(b, ']')
	}
	b = append(b, `,"partitions":`...)
	if g.Partitions == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for j := range g.Partitions {
			if j > 0 {
				b = append(b, ',')
			}
			b = w.partition(b, &g.Partitions[j])
		}
		b = append(b, ']')
	}
	b = append(b, `,"error":`...)
	b = appendJSONStringPtr(b, g.Error)
	return append(b, '}')
}

// partition writes one WatchedPartition object.
func (w *sampleWriter) partition(b []byte, p *WatchedPartition) []byte {
	b = append(b, `{"topic":`...)
	b = appendJSONString(b, p.Topic)
	b = append(b, `,"partition":`...)
	b = strconv.AppendInt(b, int64(p.Partition), 10)
	b = append(b, `,"committedOffset":`...)
	b = appendJSONIntPtr(b, p.CommittedOffset)
	b = append(b, `,"endOffset":`...)
	b = appendJSONIntPtr(b, p.EndOffset)
	b = append(b, `,"lag":`...)
	b = appendJSONIntPtr(b, p.Lag)
	b = append(b, `,"timeLagMs":`...)
	b = appendJSONIntPtr(b, p.TimeLagMs)
	b = append(b, `,"retentionHeadroomMs":`...)
	b = appendJSONIntPtr(b, p.RetentionHeadroomMs)
	b = append(b, `,"consumeRate":`...)
	b = w.num(b, p.ConsumeRate)
	b = append(b, `,"produceRate":`...)
	b = w.num(b, p.ProduceRate)
	b = append(b, `,"etaSeconds":`...)
	b = w.num(b, p.EtaSeconds)
	b = append(b, `,"status":`...)
	b = appendJSONString(b, p.Status)
	return append(b, '}')
}

func appendJSONIntPtr(b []byte, v *int64) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	return strconv.AppendInt(b, *v, 10)
}

func appendJSONStringPtr(b []byte, s *string) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	return appendJSONString(b, *s)
}

// appendJSONString quotes printable ASCII other than '"' and '\\' as it
// is, which is what encoding/json writes for it; anything else goes
// through encoding/json (jsonQuote).
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return append(b, jsonQuote(s)...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendJSONFloat writes a finite f as encoding/json does: the shortest
// decimal that reads back as f, in exponent form below 1e-6 and from 1e21
// on, with a one-digit negative exponent written without its leading zero.
func appendJSONFloat(b []byte, f float64) []byte {
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// 1e-07 → 1e-7
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// jsonQuote is s as encoding/json writes it without HTML escaping.
func jsonQuote(s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}
