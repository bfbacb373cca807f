package output

import (
	"bytes"
	"encoding/json"
	"testing"
)

// appendIndented indents as encoding/json.Indent does, on any compact
// JSON (go test -fuzz FuzzAppendIndented ./output explores further).
func FuzzAppendIndented(f *testing.F) {
	for _, s := range []string{
		`{}`, `[]`, `{"a":[]}`, `[{},[],{"":""}]`, `"\\"`, `"a\"b"`, `"\\\"{[,:"`,
		`{"x":null,"y":true,"z":false,"n":-1.5e+10,"s":"é\u2028"}`,
		`{"groups":[{"group":"g","offsets":[{"topic":"t","partition":0,"lag":null}],"members":[]}]}`,
		`12`, `null`, `[1,[2,[3,{"k":{"k":[]}}]]]`,
	} {
		f.Add([]byte(s), "    ", "  ")
	}
	f.Add([]byte(`{"a":{"b":1}}`), "", "\t")
	f.Fuzz(func(t *testing.T, in []byte, prefix, indent string) {
		var compact bytes.Buffer
		if json.Compact(&compact, in) != nil {
			return
		}
		var want bytes.Buffer
		if err := json.Indent(&want, compact.Bytes(), prefix, indent); err != nil {
			t.Fatalf("json.Indent of %q: %v", compact.Bytes(), err)
		}
		if got := appendIndented(nil, compact.Bytes(), prefix, indent); !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("%q indented\n got %q\nwant %q", compact.Bytes(), got, want.Bytes())
		}
	})
}
