package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/hookctl/hookctl/internal/jsonlimit"
	"github.com/hookctl/hookctl/internal/jsonx"
)

// DecodeObject reads one hook input, whatever host sent it: a JSON object
// within the default input limits (bytes, nesting, values; see
// internal/jsonlimit), decoded by the one payload decoder of every
// transport (integers exact, other numbers float64). Input that cannot be
// read is an *InputError.
func DecodeObject(r io.Reader) (map[string]any, error) {
	data, _, err := jsonlimit.Read(r, jsonlimit.Limits{}, nil)
	if err != nil {
		return nil, &InputError{Err: err}
	}
	return DecodeBytes(data)
}

// DecodeBytes decodes one JSON object a transport already read within
// its own limits, as DecodeObject does.
func DecodeBytes(data []byte) (map[string]any, error) {
	payload, err := jsonx.DecodeObject(data)
	if err != nil {
		var re *jsonx.RangeError
		var ke *jsonx.KindError
		switch {
		case errors.As(err, &re):
			return nil, &InputError{Err: fmt.Errorf("number out of range: %w", err)}
		case errors.As(err, &ke):
			return nil, &InputError{Err: err}
		}
		return nil, &InputError{Err: fmt.Errorf("not valid JSON: %w", err)}
	}
	return payload, nil
}

// scanLimit bounds the part of an input EventNameIn reads.
const scanLimit = 64 << 10

// EventNameIn returns the string value of the input's top-level field
// named field, read as JSON from its first 64 KiB (no deeper than the
// top level: a nested field of that name is skipped), or "" when it is
// not found there. It names the event of input that cannot be read whole
// (past a limit, cut short, not received), whose block is still the
// event's. Keys are compared decoded, as the decoder reads them.
func EventNameIn(data []byte, field string) string {
	if field == "" {
		return ""
	}
	dec := json.NewDecoder(bytes.NewReader(data[:min(len(data), scanLimit)]))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return ""
	}
	found := ""
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return found
		}
		depth := 0
		if key, _ := k.(string); key == field {
			// The last one, as the decoder keeps it.
			v, err := dec.Token()
			if err != nil {
				return found
			}
			if _, ok := v.(json.Delim); !ok {
				found, _ = v.(string)
				continue
			}
			found, depth = "", 1 // an object or array: skipped
		}
		// Skip the value, however deep.
		for {
			t, err := dec.Token()
			if err != nil {
				return found
			}
			switch t {
			case json.Delim('{'), json.Delim('['):
				depth++
			case json.Delim('}'), json.Delim(']'):
				depth--
			}
			if depth == 0 {
				break
			}
		}
	}
	return found
}
