package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Line is one line of a Claude Code transcript: the fields hookctl reads
// (Read for its Summary, package replay for the hook events a session
// fired). Fields whose type varies across Claude Code versions decode
// leniently: a string field holding another JSON value reads as "", a
// flag as false, a token count as 0, so that one odd field never loses a
// line.
type Line struct {
	Type, Subtype string
	// IsSidechain marks a subagent's message; IsMeta one Claude Code adds
	// (the caveat before local command output); IsCompactSummary and
	// IsVisibleInTranscriptOnly a compaction's summary; IsAPIErrorMessage
	// the assistant message standing for an API error.
	IsSidechain, IsMeta, IsCompactSummary, IsVisibleInTranscriptOnly, IsAPIErrorMessage bool
	SessionID, Cwd, PermissionMode, PromptID, Effort                                    string
	// Message is the user or assistant message (nil when the line has
	// none).
	Message *Message
	// ToolUseResult is the structured output of the tool whose
	// tool_result the line holds, as written (nil when absent). It is
	// kept only when DecodeLine is given WithToolUseResult: it repeats the
	// tool_result's content, often megabytes.
	ToolUseResult json.RawMessage
}

// Message is a user or assistant message in the Anthropic Messages API
// shape.
type Message struct {
	ID, Model, StopReason string
	// Content is a string or a list of blocks ([]any of map[string]any),
	// nil when absent, any other JSON value as written. Numbers in it are
	// json.Number, exact.
	Content any
	// Usage is the token usage of an assistant message (nil when absent).
	Usage *MessageUsage
}

// MessageUsage is the usage of one assistant message.
type MessageUsage struct {
	InputTokens, OutputTokens, CacheCreationInputTokens, CacheReadInputTokens int64
}

// LineError is a line that is not one JSON object.
type LineError struct {
	// Msg says what is wrong ("not a JSON object", "invalid JSON: column
	// 12: ...").
	Msg string
}

func (e *LineError) Error() string { return e.Msg }

// The JSON shapes of a line, with the lenient field types.
type (
	rawLineFields struct {
		Type           lenientString `json:"type"`
		Subtype        lenientString `json:"subtype"`
		IsSidechain    flag          `json:"isSidechain"`
		IsMeta         flag          `json:"isMeta"`
		IsCompact      flag          `json:"isCompactSummary"`
		TranscriptOnly flag          `json:"isVisibleInTranscriptOnly"`
		IsAPIError     flag          `json:"isApiErrorMessage"`
		SessionID      lenientString `json:"sessionId"`
		Cwd            lenientString `json:"cwd"`
		PermissionMode lenientString `json:"permissionMode"`
		PromptID       lenientString `json:"promptId"`
		Effort         lenientString `json:"effort"`
		Message        *rawMessage   `json:"message"`
	}
	rawLine struct {
		rawLineFields
		ToolUseResult rawOrAbsent `json:"toolUseResult"`
	}
	// rawLineNoResult is rawLine without toolUseResult, which the decoder
	// then skips without copying.
	rawLineNoResult struct {
		rawLineFields
		ToolUseResult skipped `json:"toolUseResult"`
	}
	rawMessage struct {
		ID         lenientString `json:"id"`
		Model      lenientString `json:"model"`
		StopReason lenientString `json:"stop_reason"`
		Content    any           `json:"content"`
		Usage      *rawUsage     `json:"usage"`
	}
	rawUsage struct {
		InputTokens              count `json:"input_tokens"`
		OutputTokens             count `json:"output_tokens"`
		CacheCreationInputTokens count `json:"cache_creation_input_tokens"`
		CacheReadInputTokens     count `json:"cache_read_input_tokens"`
	}
)

// lenientString decodes a JSON string; any other value decodes as "".
type lenientString string

func (s *lenientString) UnmarshalJSON(b []byte) error {
	if len(b) >= 2 && b[0] == '"' && bytes.IndexByte(b, '\\') < 0 {
		*s = lenientString(b[1 : len(b)-1]) // the decoder checked it: no escape to undo
		return nil
	}
	if len(b) > 0 && b[0] == '"' {
		var v string
		if json.Unmarshal(b, &v) == nil {
			*s = lenientString(v)
		}
	}
	return nil
}

// flag decodes JSON true; any other value decodes as false.
type flag bool

func (f *flag) UnmarshalJSON(b []byte) error {
	*f = string(b) == "true"
	return nil
}

// count decodes a whole JSON number that fits an int64; any other value
// decodes as 0.
type count int64

func (c *count) UnmarshalJSON(b []byte) error {
	if n, err := strconv.ParseInt(string(b), 10, 64); err == nil {
		*c = count(n)
	}
	return nil
}

// skipped ignores a value.
type skipped struct{}

func (skipped) UnmarshalJSON([]byte) error { return nil }

// rawOrAbsent keeps a value as written; JSON null is absent.
type rawOrAbsent json.RawMessage

func (r *rawOrAbsent) UnmarshalJSON(b []byte) error {
	if string(b) != "null" {
		*r = append((*r)[:0], b...)
	}
	return nil
}

// DecodeOption configures DecodeLine.
type DecodeOption func(*decodeOptions)

type decodeOptions struct{ toolUseResult, exact bool }

// WithToolUseResult keeps Line.ToolUseResult.
func WithToolUseResult() DecodeOption { return func(o *decodeOptions) { o.toolUseResult = true } }

// WithExactNumbers decodes the numbers of Message.Content as json.Number,
// exact, instead of float64. It costs a copy of the line (encoding/json's
// Decoder reads it into its own buffer), which Read, that needs no exact
// number, does without.
func WithExactNumbers() DecodeOption { return func(o *decodeOptions) { o.exact = true } }

// DecodeLine decodes one line of a transcript (without its newline;
// surrounding white space is ignored). The error, a *LineError, is for a
// line that is not exactly one JSON object, or whose message is not an
// object. A blank line decodes as a Line with no Type and no error.
func DecodeLine(line []byte, opts ...DecodeOption) (Line, error) {
	var o decodeOptions
	for _, opt := range opts {
		opt(&o)
	}
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return Line{}, nil
	}
	if line[0] != '{' {
		return Line{}, &LineError{Msg: "not a JSON object"}
	}
	var (
		l      rawLineFields
		result rawOrAbsent
		err    error
		more   bool
	)
	var v any = &rawLineNoResult{}
	if o.toolUseResult {
		v = &rawLine{}
	}
	if o.exact {
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.UseNumber()
		err = dec.Decode(v)
		more = err == nil && dec.More()
	} else if err = json.Unmarshal(line, v); err != nil && !json.Valid(line) {
		// Unmarshal refuses trailing data as invalid JSON; say what it is,
		// as the Decoder does.
		var one json.RawMessage
		if dec := json.NewDecoder(bytes.NewReader(line)); dec.Decode(&one) == nil && dec.More() {
			err, more = nil, true
		}
	}
	if err != nil {
		return Line{}, &LineError{Msg: "invalid JSON: " + jsonError(line, err)}
	}
	if more {
		return Line{}, &LineError{Msg: "more than one JSON value on the line"}
	}
	switch v := v.(type) {
	case *rawLine:
		l, result = v.rawLineFields, v.ToolUseResult
	case *rawLineNoResult:
		l = v.rawLineFields
	}
	out := Line{
		Type: string(l.Type), Subtype: string(l.Subtype),
		IsSidechain: bool(l.IsSidechain), IsMeta: bool(l.IsMeta), IsCompactSummary: bool(l.IsCompact),
		IsVisibleInTranscriptOnly: bool(l.TranscriptOnly), IsAPIErrorMessage: bool(l.IsAPIError),
		SessionID: string(l.SessionID), Cwd: string(l.Cwd), PermissionMode: string(l.PermissionMode),
		PromptID: string(l.PromptID), Effort: string(l.Effort),
		ToolUseResult: json.RawMessage(result),
	}
	if m := l.Message; m != nil {
		out.Message = &Message{ID: string(m.ID), Model: string(m.Model), StopReason: string(m.StopReason), Content: m.Content}
		if u := m.Usage; u != nil {
			out.Message.Usage = &MessageUsage{
				InputTokens: int64(u.InputTokens), OutputTokens: int64(u.OutputTokens),
				CacheCreationInputTokens: int64(u.CacheCreationInputTokens), CacheReadInputTokens: int64(u.CacheReadInputTokens),
			}
		}
	}
	return out, nil
}

// jsonError says where a line's JSON is wrong.
func jsonError(data []byte, err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("column %d: %v", se.Offset, err)
	case errors.As(err, &te):
		return fmt.Sprintf("column %d: %v", te.Offset, err)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Sprintf("column %d: unexpected end of line", len(data)+1)
	}
	return err.Error()
}

// Blocks returns the content blocks of the message that are JSON objects;
// none when the content is a string.
func (m *Message) Blocks() []map[string]any {
	list, _ := m.Content.([]any)
	out := make([]map[string]any, 0, len(list))
	for _, b := range list {
		if o, ok := b.(map[string]any); ok {
			out = append(out, o)
		}
	}
	return out
}

// Text is the text of the message: its string content, or its non-empty
// text blocks joined with "\n".
func (m *Message) Text() string { return ContentText(m.Content) }

// ContentText is the text of a message's or a tool_result's content: a
// string, or the non-empty text blocks of a list joined with "\n".
func ContentText(c any) string {
	switch c := c.(type) {
	case string:
		return c
	case []any:
		var texts []string
		for _, b := range c {
			if o, ok := b.(map[string]any); ok && o["type"] == "text" {
				if t, _ := o["text"].(string); t != "" {
					texts = append(texts, t)
				}
			}
		}
		return strings.Join(texts, "\n")
	}
	return ""
}

// DefaultMaxLine bounds one line a LineReader returns.
const DefaultMaxLine = 32 << 20

// LineReader splits a transcript into lines, streaming: a line longer
// than its bound is consumed without being held in memory. A LineReader is
// not safe for concurrent use.
type LineReader struct {
	br      *bufio.Reader
	maxLine int
	buf     []byte
}

// NewLineReader returns a LineReader of r whose lines are at most maxLine
// bytes (DefaultMaxLine when maxLine <= 0).
func NewLineReader(r io.Reader, maxLine int) *LineReader {
	if maxLine <= 0 {
		maxLine = DefaultMaxLine
	}
	return &LineReader{br: bufio.NewReaderSize(r, 64<<10), maxLine: maxLine}
}

// MaxLine is the longest line the reader returns.
func (r *LineReader) MaxLine() int { return r.maxLine }

// Next returns the next line without its newline, valid until the next
// call; io.EOF after the last line (with the last line when the input does
// not end in a newline). A line longer than MaxLine is consumed and
// reported as tooLong, without its bytes.
func (r *LineReader) Next() (line []byte, tooLong bool, err error) {
	if cap(r.buf) > 1<<20 {
		r.buf = nil // a long line's buffer is not kept for the short ones after it
	}
	r.buf = r.buf[:0]
	for {
		frag, e := r.br.ReadSlice('\n')
		if !tooLong {
			if len(r.buf)+len(frag) > r.maxLine+1 { // +1: the newline
				tooLong = true
				r.buf = r.buf[:0]
			} else {
				r.buf = append(r.buf, frag...)
			}
		}
		switch {
		case e == nil:
			return bytes.TrimSuffix(r.buf, []byte("\n")), tooLong, nil
		case errors.Is(e, bufio.ErrBufferFull):
			continue
		case errors.Is(e, io.EOF):
			if len(r.buf) == 0 && !tooLong {
				return nil, false, io.EOF
			}
			return bytes.TrimSuffix(r.buf, []byte("\n")), tooLong, io.EOF
		default:
			return nil, false, e
		}
	}
}
