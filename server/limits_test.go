package server_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/server"
)

// FuzzInputLimits checks the streaming count of values and nesting
// against a decoder's: valid JSON is refused exactly when it nests deeper
// or holds more values than the limits, with the limit named, however the
// reads cut it.
func FuzzInputLimits(f *testing.F) {
	for _, s := range []string{
		`{}`, `[]`, `{"a":1}`, `{"a":[1,2,{"b":null}],"c":"x\"y\\\\"}`, `[[[[]]]]`, `{"a":{"b":{"c":{}}}}`,
		`"str"`, `1e5`, `true`, ` [ 1 , -2.5e+3 , "a,b:{[" , false ] `, `{"k":"\u005c\""}`, `{"":""}`,
		`[{},{},{},{},{},{}]`, `{"a":[],"b":{},"c":""}`,
	} {
		f.Add([]byte(s), uint8(3), uint8(5), uint8(7))
	}
	f.Fuzz(func(t *testing.T, data []byte, maxDepth, maxValues, chunk uint8) {
		if len(data) > 4096 {
			t.Skip()
		}
		lim := server.InputLimits{MaxBytes: 1 << 20, MaxDepth: int(maxDepth%16) + 1, MaxValues: int(maxValues%64) + 1}
		r := &chunked{data: data, n: int(chunk%16) + 1}
		_, _, err := server.DecodeInputLimited(r, lim)
		var le *server.LimitError
		limited := errors.As(err, &le)
		if !json.Valid(data) {
			return // either a limit or the decoder's error
		}
		depth, values := jsonShape(data)
		over := depth > lim.MaxDepth || values > lim.MaxValues
		if over != limited {
			t.Fatalf("%q: depth %d values %d, limits %+v: %v", data, depth, values, lim, err)
		}
		if limited {
			switch le.Limit {
			case server.LimitDepth:
				if depth <= lim.MaxDepth {
					t.Fatalf("%q: depth %d refused as deeper than %d", data, depth, lim.MaxDepth)
				}
			case server.LimitValues:
				if values <= lim.MaxValues {
					t.Fatalf("%q: %d values refused as more than %d", data, values, lim.MaxValues)
				}
			default:
				t.Fatalf("%q: %v", data, err)
			}
			if !strings.Contains(err.Error(), "(the "+le.Limit+" limit)") {
				t.Fatalf("error %q does not name the limit", err)
			}
		}
	})
}

// chunked reads data n bytes at a time.
type chunked struct {
	data []byte
	n    int
}

func (c *chunked) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	k := min(len(p), c.n, len(c.data))
	copy(p, c.data[:k])
	c.data = c.data[k:]
	return k, nil
}

// TestManyTinyValuesAreRefusedUnread: a 20 MB body of empty objects (it
// decodes to about 1 GB: ~140 bytes per value) is refused at the value
// limit, having read only the bytes up to it, and allocating a small
// fraction of what decoding it would.
func TestManyTinyValuesAreRefusedUnread(t *testing.T) {
	const n = 20 << 20 / 3 // values in 20 MB of "{},"
	body := make([]byte, 0, 20<<20)
	body = append(body, `{"hook_event_name":"Stop","a":[`...)
	for i := range n {
		if i > 0 {
			body = append(body, ',')
		}
		body = append(body, '{', '}')
	}
	body = append(body, "]}"...)

	r := bytes.NewReader(body)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	_, _, err := server.DecodeInputLimited(r, server.InputLimits{MaxBytes: 64 << 20, MaxValues: 100_000})
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	var le *server.LimitError
	if !errors.As(err, &le) || le.Limit != server.LimitValues || !strings.Contains(err.Error(), "more than 100000 JSON values (the max-values limit)") {
		t.Fatalf("%v", err)
	}
	read := len(body) - r.Len()
	if read > 1<<20 {
		t.Fatalf("read %d bytes of %d before refusing", read, len(body))
	}
	// Decoding all of it allocates ~140 bytes per value: about 900 MB.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
		t.Fatalf("allocated %d bytes to refuse it", alloc)
	}
	if took > 5*time.Second {
		t.Fatalf("took %s", took)
	}
	t.Logf("refused after reading %d of %d bytes in %s", read, len(body), took)
}

// TestDeepNestingIsRefusedEarly: nesting past the limit is refused at the
// first level too deep.
func TestDeepNestingIsRefusedEarly(t *testing.T) {
	body := `{"hook_event_name":"Stop","a":` + strings.Repeat(`{"a":`, 1<<20)
	r := strings.NewReader(body)
	_, _, err := server.DecodeInputLimited(r, server.InputLimits{MaxDepth: 64})
	if err == nil || !strings.Contains(err.Error(), "nested deeper than 64 levels (the max-depth limit)") {
		t.Fatalf("%v", err)
	}
	if read := len(body) - r.Len(); read > 64<<10 {
		t.Fatalf("read %d bytes", read)
	}
	// At the limit it decodes.
	ok := `{"hook_event_name":"Stop","a":` + strings.Repeat(`[`, 63) + strings.Repeat(`]`, 63) + `}`
	if _, _, err := server.DecodeInputLimited(strings.NewReader(ok), server.InputLimits{MaxDepth: 64}); err != nil {
		t.Fatal(err)
	}
}
