package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"strings"
)

// Defaults of Options.
const (
	DefaultMaxBytes     = 8 << 20
	DefaultMaxToolCalls = 200
)

// ToolCall is one tool_use of an assistant message and, once its
// tool_result has been seen, the result.
type ToolCall struct {
	ID, Name  string
	Input     map[string]any
	Result    string // text of the tool_result content
	IsError   bool   // the tool_result has is_error: true
	HasResult bool   // a tool_result with this id was seen
}

// Usage is the token usage of the assistant messages, each message counted
// once.
type Usage struct {
	InputTokens, OutputTokens, CacheCreationInputTokens, CacheReadInputTokens int64
}

// Summary is what Read found in a transcript.
type Summary struct {
	Messages          int    // UserMessages + AssistantMessages
	UserMessages      int    // user lines: prompts and tool results
	AssistantMessages int    // assistant messages, by message id
	Model             string // model of the last assistant message of the main conversation
	// LastAssistantText is the text blocks of the last assistant message of
	// the main conversation that has any, joined with "\n".
	LastAssistantText string
	// LastUserText is the text of the last user message of the main
	// conversation that has any: a prompt, not a tool result.
	LastUserText string
	ToolCalls    []ToolCall // in transcript order, the last Options.MaxToolCalls
	Usage        Usage
	Skipped      int // malformed lines
}

// Options bound the work Read does.
type Options struct {
	// MaxBytes is how much of the end of the input Read looks at; when
	// the input is longer, the first (partial) line of that tail is
	// dropped. 0 means DefaultMaxBytes, a negative value no limit.
	MaxBytes int64
	// MaxToolCalls is how many of the last tool calls Summary keeps. 0
	// means DefaultMaxToolCalls, a negative value no limit.
	MaxToolCalls int
}

func (o Options) withDefaults() Options {
	if o.MaxBytes == 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.MaxToolCalls == 0 {
		o.MaxToolCalls = DefaultMaxToolCalls
	}
	return o
}

// Read summarises the transcript r. Malformed lines are counted in
// Summary.Skipped, never returned as errors; the error is r's.
func Read(r io.Reader, opt Options) (*Summary, error) {
	opt = opt.withDefaults()
	data, err := readTail(r, opt.MaxBytes)
	if err != nil {
		return nil, err
	}
	return parse(data, opt), nil
}

// ReadFile summarises the transcript at path.
func ReadFile(path string, opt Options) (*Summary, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, opt)
}

// LastAssistantText returns the text of the last assistant message of the
// transcript at path that has any text, the blocks joined with "\n"; "" if
// there is none.
func LastAssistantText(path string) (string, error) {
	s, err := ReadFile(path, Options{MaxToolCalls: 1})
	if err != nil {
		return "", err
	}
	return s.LastAssistantText, nil
}

// readTail returns the last max bytes of r (all of r when max < 0) with the
// partial first line dropped when it cut r. It seeks when r can.
func readTail(r io.Reader, max int64) ([]byte, error) {
	if max < 0 {
		return io.ReadAll(r)
	}
	if s, ok := r.(io.Seeker); ok {
		if data, ok, err := seekTail(s, r, max); ok || err != nil {
			return data, err
		}
	}
	// Stream, keeping a window of at most 2*max bytes.
	var (
		buf  []byte
		cut  bool // bytes were dropped from the front
		prev byte // the last dropped byte
		tmp  = make([]byte, 32<<10)
	)
	for {
		n, err := r.Read(tmp)
		buf = append(buf, tmp[:n]...)
		if int64(len(buf))-max > max {
			drop := len(buf) - int(max)
			prev, cut = buf[drop-1], true
			buf = buf[:copy(buf, buf[drop:])]
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if int64(len(buf)) > max {
		drop := len(buf) - int(max)
		prev, cut = buf[drop-1], true
		buf = buf[drop:]
	}
	if cut && prev != '\n' {
		buf = dropPartialLine(buf)
	}
	return buf, nil
}

// seekTail reads the tail of a seekable r. ok is false when seeking does
// not work (a pipe), and r is left where it was.
func seekTail(s io.Seeker, r io.Reader, max int64) (data []byte, ok bool, err error) {
	cur, err := s.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil, false, nil
	}
	end, err := s.Seek(0, io.SeekEnd)
	if err != nil {
		_, _ = s.Seek(cur, io.SeekStart)
		return nil, false, nil
	}
	if end-cur <= max {
		if _, err := s.Seek(cur, io.SeekStart); err != nil {
			return nil, true, err
		}
		data, err := io.ReadAll(io.LimitReader(r, max))
		return data, true, err
	}
	// Read one byte before the tail to know whether it starts a line.
	if _, err := s.Seek(end-max-1, io.SeekStart); err != nil {
		return nil, true, err
	}
	data = make([]byte, max+1)
	n, err := io.ReadFull(r, data)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, true, err
	}
	data = data[:n]
	if n == 0 {
		return nil, true, nil
	}
	if data[0] == '\n' {
		return data[1:], true, nil
	}
	return dropPartialLine(data[1:]), true, nil
}

// dropPartialLine drops everything up to and including the first newline.
func dropPartialLine(b []byte) []byte {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[i+1:]
	}
	return nil
}

// Transcript line shapes. Only the fields Read uses are decoded.
type (
	rawLine struct {
		Type        string      `json:"type"`
		IsSidechain bool        `json:"isSidechain"`
		IsMeta      bool        `json:"isMeta"`
		Message     *rawMessage `json:"message"`
	}
	rawMessage struct {
		ID      string     `json:"id"`
		Model   string     `json:"model"`
		Content rawContent `json:"content"`
		Usage   *rawUsage  `json:"usage"`
	}
	rawUsage struct {
		InputTokens              int64 `json:"input_tokens"`
		OutputTokens             int64 `json:"output_tokens"`
		CacheCreationInputTokens int64 `json:"cache_creation_input_tokens"`
		CacheReadInputTokens     int64 `json:"cache_read_input_tokens"`
	}
	rawBlock struct {
		Type      string          `json:"type"`
		Text      string          `json:"text"`
		ID        string          `json:"id"`
		Name      string          `json:"name"`
		Input     json.RawMessage `json:"input"`
		ToolUseID string          `json:"tool_use_id"`
		Content   resultContent   `json:"content"`
		IsError   bool            `json:"is_error"`
	}
)

// rawContent is a message's content: a string or a list of blocks.
type rawContent struct {
	text   string
	blocks []rawBlock
}

func (c *rawContent) UnmarshalJSON(b []byte) error {
	switch firstByte(b) {
	case '"':
		return json.Unmarshal(b, &c.text)
	case '[':
		return json.Unmarshal(b, &c.blocks)
	case 'n': // null
		return nil
	}
	return errors.New("transcript: content is neither a string nor a list")
}

// resultContent is a tool_result's content: a string or a list of blocks
// whose text blocks make the result.
type resultContent string

func (c *resultContent) UnmarshalJSON(b []byte) error {
	switch firstByte(b) {
	case '"':
		return json.Unmarshal(b, (*string)(c))
	case '[':
		var blocks []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		if err := json.Unmarshal(b, &blocks); err != nil {
			return err
		}
		var texts []string
		for _, b := range blocks {
			if b.Type == "text" {
				texts = append(texts, b.Text)
			}
		}
		*c = resultContent(strings.Join(texts, "\n"))
		return nil
	case 'n':
		return nil
	}
	return errors.New("transcript: tool_result content is neither a string nor a list")
}

func firstByte(b []byte) byte {
	b = bytes.TrimLeft(b, " \t\r\n")
	if len(b) == 0 {
		return 0
	}
	return b[0]
}

// parser accumulates a Summary over the lines of a transcript.
type parser struct {
	s        Summary
	maxCalls int
	calls    []ToolCall
	callAt   map[string]int // tool_use id -> index in calls
	// usage per assistant message id, in first-seen order; lines of the same
	// message repeat its usage, the last one wins.
	usage    []rawUsage
	usageAt  map[string]int
	lastText string // message id of LastAssistantText, "" if none
}

func parse(data []byte, opt Options) *Summary {
	p := &parser{maxCalls: opt.MaxToolCalls, callAt: map[string]int{}, usageAt: map[string]int{}}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		p.line(bytes.TrimSpace(line))
	}
	return p.summary()
}

func (p *parser) line(line []byte) {
	if len(line) == 0 {
		return
	}
	if line[0] != '{' {
		p.s.Skipped++
		return
	}
	var l rawLine
	if err := json.Unmarshal(line, &l); err != nil {
		// A line of a type Read skips may have a shape Read does not
		// know; only a malformed user or assistant line, or a line that
		// is not JSON at all, counts.
		var t struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(line, &t) != nil || t.Type == "user" || t.Type == "assistant" {
			p.s.Skipped++
		}
		return
	}
	switch l.Type {
	case "user":
		if l.Message == nil {
			p.s.Skipped++
			return
		}
		p.user(&l)
	case "assistant":
		if l.Message == nil {
			p.s.Skipped++
			return
		}
		p.assistant(&l)
	}
}

func (p *parser) user(l *rawLine) {
	p.s.UserMessages++
	var texts []string
	if c := l.Message.Content; c.blocks == nil {
		if c.text != "" {
			texts = append(texts, c.text)
		}
	} else {
		for i := range c.blocks {
			b := &c.blocks[i]
			switch b.Type {
			case "text":
				if b.Text != "" {
					texts = append(texts, b.Text)
				}
			case "tool_result":
				if at, ok := p.callAt[b.ToolUseID]; ok && b.ToolUseID != "" {
					call := &p.calls[at]
					call.Result, call.IsError, call.HasResult = string(b.Content), b.IsError, true
				}
			}
		}
	}
	if len(texts) > 0 && !l.IsMeta && !l.IsSidechain {
		p.s.LastUserText = strings.Join(texts, "\n")
	}
}

func (p *parser) assistant(l *rawLine) {
	m := l.Message
	if m.ID == "" {
		p.s.AssistantMessages++
		if m.Usage != nil {
			p.usage = append(p.usage, *m.Usage)
		}
	} else if at, seen := p.usageAt[m.ID]; seen {
		if m.Usage != nil {
			p.usage[at] = *m.Usage
		}
	} else {
		p.s.AssistantMessages++
		p.usageAt[m.ID] = len(p.usage)
		var u rawUsage
		if m.Usage != nil {
			u = *m.Usage
		}
		p.usage = append(p.usage, u)
	}
	if !l.IsSidechain && m.Model != "" && m.Model != "<synthetic>" {
		p.s.Model = m.Model
	}

	var texts []string
	if m.Content.blocks == nil && m.Content.text != "" {
		texts = append(texts, m.Content.text)
	}
	for i := range m.Content.blocks {
		b := &m.Content.blocks[i]
		switch b.Type {
		case "text":
			if b.Text != "" {
				texts = append(texts, b.Text)
			}
		case "tool_use":
			p.toolUse(b)
		}
	}
	if len(texts) > 0 && !l.IsSidechain {
		text := strings.Join(texts, "\n")
		if m.ID != "" && m.ID == p.lastText {
			// Another text block of the same message, on its own line.
			p.s.LastAssistantText += "\n" + text
		} else {
			p.s.LastAssistantText = text
		}
		p.lastText = m.ID
	}
}

func (p *parser) toolUse(b *rawBlock) {
	if b.ID != "" {
		if _, dup := p.callAt[b.ID]; dup {
			return
		}
	}
	var input map[string]any
	if len(b.Input) > 0 {
		_ = json.Unmarshal(b.Input, &input) // not an object: no input
	}
	if b.ID != "" {
		p.callAt[b.ID] = len(p.calls)
	}
	p.calls = append(p.calls, ToolCall{ID: b.ID, Name: b.Name, Input: input})
	if p.maxCalls > 0 && len(p.calls) >= 2*p.maxCalls+64 {
		p.trimCalls()
	}
}

// trimCalls keeps the last maxCalls tool calls. It runs when the slice has
// grown well past the limit, so that huge transcripts stay bounded without
// trimming on every call.
func (p *parser) trimCalls() {
	if p.maxCalls <= 0 || len(p.calls) <= p.maxCalls {
		return
	}
	drop := len(p.calls) - p.maxCalls
	for _, c := range p.calls[:drop] {
		if c.ID != "" {
			delete(p.callAt, c.ID)
		}
	}
	p.calls = append(p.calls[:0:0], p.calls[drop:]...)
	for i, c := range p.calls {
		if c.ID != "" {
			p.callAt[c.ID] = i
		}
	}
}

func (p *parser) summary() *Summary {
	p.trimCalls()
	s := p.s
	s.ToolCalls = p.calls
	for _, u := range p.usage {
		s.Usage.InputTokens += u.InputTokens
		s.Usage.OutputTokens += u.OutputTokens
		s.Usage.CacheCreationInputTokens += u.CacheCreationInputTokens
		s.Usage.CacheReadInputTokens += u.CacheReadInputTokens
	}
	s.Messages = s.UserMessages + s.AssistantMessages
	return &s
}
