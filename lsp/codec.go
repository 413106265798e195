package lsp

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/sourcegraph/jsonrpc2"
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

// WriteObject implements jsonrpc2.ObjectCodec.
func (codec) WriteObject(w io.Writer, obj any) error {
	return jsonrpc2.VSCodeObjectCodec{}.WriteObject(w, obj)
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
// of methodMalformed, with the id it had when one can be read.
func malformed(body []byte, cause error) []byte {
	var probe struct {
		ID any `json:"id"`
	}
	msg := map[string]any{"jsonrpc": "2.0", "method": methodMalformed, "params": map[string]string{"error": fmt.Sprint(cause)}}
	if json.Unmarshal(body, &probe) == nil {
		switch id := probe.ID.(type) {
		case string:
			msg["id"] = id
		case float64:
			if id == float64(int64(id)) && id >= 0 {
				msg["id"] = int64(id)
			}
		}
	}
	out, _ := json.Marshal(msg)
	return out
}
