package lsp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// maxMessage bounds one message's body: a larger one is skipped, not
// buffered.
const maxMessage = 64 << 20

// methodMalformed is the method a message that is not JSON-RPC is read
// as: the server answers it with an error (when it had an id) and goes on
// reading, instead of dropping the connection.
const methodMalformed = "$/hookctl/malformed"

// codec reads and writes LSP's base protocol (Content-Length framed JSON
// bodies). Unlike jsonrpc2.VSCodeObjectCodec it survives a malformed
// message: a header block without a length is skipped, and a body that is
// not a JSON-RPC message becomes a methodMalformed request.
type codec struct{}

// nullID is the id a methodMalformed request gets when the message had
// none that can be answered (a batch, an id that is an object, an array or
// a fraction, a body that is not JSON): its error reply goes out with
// "id": null, as JSON-RPC 2.0 asks. jsonrpc2 cannot write a null id, so
// WriteObject puts it in.
const nullID = "$/hookctl/null-id"

// nullIDField is how nullID reads in a marshalled response.
var nullIDField = []byte(`"id":"` + nullID + `"`)

// WriteObject implements jsonrpc2.ObjectCodec.
func (codec) WriteObject(w io.Writer, obj any) error {
	b, err := json.Marshal(obj)
	if err != nil {
		return err
	}
	if bytes.Contains(b, nullIDField) {
		var m map[string]json.RawMessage
		if json.Unmarshal(b, &m) == nil && string(m["id"]) == `"`+nullID+`"` && m["method"] == nil {
			m["id"] = json.RawMessage("null")
			if nb, err := json.Marshal(m); err == nil {
				b = nb
			}
		}
	}
	if _, err := fmt.Fprintf(w, "Content-Length: %d\r\n\r\n", len(b)); err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// ReadObject implements jsonrpc2.ObjectCodec; it fails only when the
// stream does (end of input).
func (codec) ReadObject(r *bufio.Reader, v any) error {
	for {
		body, err := readFrame(r)
		if err != nil {
			return err
		}
		if body == nil {
			continue // a header block without Content-Length
		}
		if err := json.Unmarshal(body, v); err == nil {
			return nil
		} else {
			return json.Unmarshal(malformed(body, err), v)
		}
	}
}

// readFrame reads one header block and its body; a nil body (and no
// error) for a block without a usable Content-Length, or a body too large
// (skipped).
func readFrame(r *bufio.Reader) ([]byte, error) {
	length := -1
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if ok && strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			if n, err := strconv.Atoi(strings.TrimSpace(value)); err == nil && n >= 0 {
				length = n
			}
		}
	}
	if length < 0 {
		return nil, nil
	}
	if length > maxMessage {
		if _, err := io.CopyN(io.Discard, r, int64(length)); err != nil {
			return nil, err
		}
		return []byte(`{`), nil // reported as malformed
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, err
	}
	return body, nil
}

// malformed turns a body that is not a JSON-RPC message into a request
// of methodMalformed, always answered: with the id the message had when
// it can be read, else with nullID. Its params say which JSON-RPC error
// it is: a parse error for a body that is not JSON, an invalid request
// otherwise (a batch: LSP has none).
func malformed(body []byte, cause error) []byte {
	params := map[string]any{"error": fmt.Sprint(cause), "code": codeInvalidRequest}
	msg := map[string]any{"jsonrpc": "2.0", "method": methodMalformed, "params": params, "id": nullID}
	var probe struct {
		ID *json.RawMessage `json:"id"`
	}
	trimmed := bytes.TrimSpace(body)
	switch {
	case !json.Valid(trimmed):
		params["code"] = codeParseError
	case len(trimmed) > 0 && trimmed[0] == '[':
		params["error"] = "batch requests are not supported (LSP sends none)"
	case json.Unmarshal(trimmed, &probe) == nil && probe.ID != nil:
		var id any
		if json.Unmarshal(*probe.ID, &id) == nil {
			switch id := id.(type) {
			case string:
				msg["id"] = id
			case float64:
				if id == float64(int64(id)) && id >= 0 {
					msg["id"] = int64(id)
				}
			}
		}
	}
	out, _ := json.Marshal(msg)
	return out
}
