package protocol

import (
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
