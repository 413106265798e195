package natsstate

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/hookctl/hookctl/state/kv"
)

// ErrBadValue is returned when the value stored under a key is not a
// JSON value (another client wrote it to the bucket).
var ErrBadValue = errors.New("natsstate: stored value is not JSON")

// encodeValue returns the JSON form a value is stored as. Whatever
// encoding/json accepts is accepted; NaN, infinities, channels and
// functions are errors, as they are for kv.Memory.
func encodeValue(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("natsstate: value is not JSON-encodable: %w", err)
	}
	return b, nil
}

// decodeValue turns stored JSON back into a value with kv.DecodeValue,
// the way the kv package's stores return values. Data that is not one
// JSON value, or holds a number no float64 can represent, is ErrBadValue.
func decodeValue(b []byte) (any, error) {
	v, err := kv.DecodeValue(b)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadValue, err)
	}
	return v, nil
}
