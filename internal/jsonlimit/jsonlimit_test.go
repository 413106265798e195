package jsonlimit

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// TestCheckAsRead: Check, which scans a document where it is, refuses
// what Read refuses, with the same error, and allocates nothing for a
// large document.
func TestCheckAsRead(t *testing.T) {
	docs := map[string]string{
		"object":     `{"a": [1, 2, {"b": "c\"}"}], "d": null}`,
		"deep":       strings.Repeat("[", DefaultMaxDepth+1) + strings.Repeat("]", DefaultMaxDepth+1),
		"just deep":  strings.Repeat("[", DefaultMaxDepth) + strings.Repeat("]", DefaultMaxDepth),
		"many":       "[" + strings.Repeat("1,", DefaultMaxValues) + "1]",
		"not json":   `{"a": nope`,
		"big string": `{"s": "` + strings.Repeat("x", 3<<20) + `"}`,
	}
	for name, doc := range docs {
		_, _, rerr := Read(strings.NewReader(doc), Limits{}, nil)
		cerr := Check([]byte(doc))
		var rl, cl *LimitError
		if errors.As(rerr, &rl) != errors.As(cerr, &cl) || (rl != nil && *rl != *cl) || (rerr == nil) != (cerr == nil) {
			t.Errorf("%s: Read %v, Check %v", name, rerr, cerr)
		}
	}
	big := []byte(docs["big string"])
	if n := testing.AllocsPerRun(3, func() { Check(big) }); n > 2 {
		t.Errorf("Check of a 3 MB document: %v allocations", n)
	}
	var over bytes.Buffer
	over.Grow(DefaultMaxBytes + 1)
	over.WriteString(`"`)
	over.Write(bytes.Repeat([]byte("x"), DefaultMaxBytes))
	var le *LimitError
	if err := Check(over.Bytes()); !errors.As(err, &le) || le.Limit != LimitBytes {
		t.Errorf("a document past max-body: %v", err)
	}
}
