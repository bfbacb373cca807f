package output

import "strconv"

// The offsets of a describe document are almost all of its bytes (32,000
// partitions are 19 MB of JSON), and encoding/json spends most of its time
// there reflecting over the same nineteen fields. appendOffsetsJSON writes a
// group's offsets directly, as encoding/json and appendIndented write them
// at that place: a group at depth two of the document (writeGroupsJSON),
// its members at depth three, an offset's at depth four. The rest of the
// group is still encoding/json's. TestStreamIdentical compares the
// documents with encoding/json's on generated groups (every field, nulls,
// odd strings); TestOffsetsJSONFields fails when PartitionOffset gains a
// field this writer does not know.

// The line breaks and indents before an offset, a field of it, and an
// element of its timeLagFlags.
const (
	offsetLine = "\n        "
	fieldLine  = "\n          "
	flagLine   = "\n            "
)

// appendOffsetsJSON appends the value of a group's "offsets" member.
func appendOffsetsJSON(dst []byte, offs []PartitionOffset) []byte {
	if len(offs) == 0 {
		return append(dst, "[]"...)
	}
	dst = append(dst, '[')
	for i := range offs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendOffsetJSON(dst, &offs[i])
	}
	return append(dst, "\n      ]"...)
}

// offsetFields is the number of fields appendOffsetJSON writes, in
// PartitionOffset's order.
const offsetFields = 19

func appendOffsetJSON(dst []byte, o *PartitionOffset) []byte {
	dst = append(dst, offsetLine+"{"+fieldLine+`"topic": `...)
	dst = appendJSONString(dst, o.Topic)
	dst = append(dst, ","+fieldLine+`"partition": `...)
	dst = strconv.AppendInt(dst, int64(o.Partition), 10)
	if o.StreamsTopic != nil {
		dst = appendStringField(dst, `"streamsTopic": `, o.StreamsTopic)
	}
	dst = appendIntField(dst, `"committedOffset": `, o.CommittedOffset)
	if o.StartOffset != nil {
		dst = appendIntField(dst, `"startOffset": `, o.StartOffset)
	}
	if e := o.CommittedLeaderEpoch; e != nil {
		dst = append(dst, ","+fieldLine+`"committedLeaderEpoch": `...)
		dst = strconv.AppendInt(dst, int64(*e), 10)
	} else {
		dst = append(dst, ","+fieldLine+`"committedLeaderEpoch": null`...)
	}
	dst = appendIntField(dst, `"logStartOffset": `, o.LogStartOffset)
	dst = appendIntField(dst, `"logEndOffset": `, o.LogEndOffset)
	dst = appendIntField(dst, `"lastStableOffset": `, o.LastStableOffset)
	dst = appendIntField(dst, `"lag": `, o.Lag)
	dst = appendStringField(dst, `"committedTimestamp": `, o.CommittedTimestamp)
	dst = appendIntField(dst, `"timeLagMs": `, o.TimeLagMs)
	dst = append(dst, ","+fieldLine+`"timeLagFlags": `...)
	if len(o.TimeLagFlags) == 0 {
		dst = append(dst, "[]"...)
	} else {
		dst = append(dst, '[')
		for i, f := range o.TimeLagFlags {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, flagLine...)
			dst = appendJSONString(dst, f)
		}
		dst = append(dst, fieldLine+"]"...)
	}
	dst = appendIntField(dst, `"retentionHeadroomMs": `, o.RetentionHeadroomMs)
	dst = appendIntField(dst, `"retentionHeadroomBytes": `, o.RetentionHeadroomBytes)
	dst = appendStringField(dst, `"memberId": `, o.MemberID)
	dst = appendStringField(dst, `"clientId": `, o.ClientID)
	dst = appendStringField(dst, `"host": `, o.Host)
	dst = appendStringField(dst, `"metadata": `, o.Metadata)
	return append(dst, offsetLine+"}"...)
}

// appendIntField appends a field after another: its name (with ": ") and
// the number, or null.
func appendIntField(dst []byte, name string, v *int64) []byte {
	dst = append(dst, ","+fieldLine...)
	return appendJSONIntPtr(append(dst, name...), v)
}

func appendStringField(dst []byte, name string, v *string) []byte {
	dst = append(dst, ","+fieldLine...)
	return appendJSONStringPtr(append(dst, name...), v)
}
