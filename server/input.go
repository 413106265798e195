package server

import (
	"bytes"
	"io"

	claudeproto "github.com/hookctl/hookctl/protocol/claude"

	"github.com/hookctl/hookctl/protocol"
)

// InputError is hook input that is not what the host sends; Field names
// the problem.
type InputError = protocol.InputError

// DecodeInput reads Claude Code's hook JSON: one object with a
// hook_event_name, within DefaultInputLimits.
func DecodeInput(r io.Reader) (map[string]any, string, error) {
	return DecodeInputLimited(r, DefaultInputLimits())
}

// DecodeInputLimited is DecodeInput within lim: input past a limit is an
// *InputError wrapping a *LimitError, refused before it is decoded.
func DecodeInputLimited(r io.Reader, lim InputLimits) (map[string]any, string, error) {
	data, _, err := readBounded(r, lim, nil)
	if err != nil {
		return nil, "", &InputError{Err: err}
	}
	return decodeInput(data)
}

// DecodeObject reads one JSON object within the default input limits,
// whatever host sent it: the first half of DecodeInput, for hosts whose
// payload does not name its event in hook_event_name.
func DecodeObject(r io.Reader) (map[string]any, error) {
	data, _, err := readBounded(r, DefaultInputLimits(), nil)
	if err != nil {
		return nil, &InputError{Err: err}
	}
	return decodeObject(data)
}

// CheckLimits checks a document read whole against DefaultInputLimits
// (size, depth, values) before it is decoded: one past a limit is a
// *LimitError. Other errors are the scanner's view of malformed JSON,
// which the decoder reports more precisely.
func CheckLimits(data []byte) error {
	_, _, err := readBounded(bytes.NewReader(data), DefaultInputLimits(), nil)
	return err
}

// decodeInput decodes hook input read within its limits, its event
// named as Claude Code's protocol reads it (protocol/claude).
func decodeInput(data []byte) (map[string]any, string, error) {
	payload, err := decodeObject(data)
	if err != nil {
		return nil, "", err
	}
	ev, err := claudeproto.New().Decode(payload, "")
	if err != nil {
		return nil, "", err
	}
	return ev.Payload, ev.Name, nil
}

// decodeObject decodes one JSON object read within its limits
// (protocol.DecodeBytes).
func decodeObject(data []byte) (map[string]any, error) { return protocol.DecodeBytes(data) }

// Reply is a protocol's answer: the body of a hook route's reply (an
// exit status that blocks becomes a JSON block, see Server).
type Reply = protocol.Reply
