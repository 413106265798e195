package transcript

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"

	"github.com/hookctl/hookctl/internal/safefile"
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
	Messages          int // UserMessages + AssistantMessages
	UserMessages      int // user lines: prompts and tool results
	AssistantMessages int // assistant messages, by message id
	// Model is the model of the last assistant message of the main
	// conversation; Claude Code's "<synthetic>" stand-in does not count.
	Model string
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
// Summary.Skipped, never returned as errors; the error is r's, or ctx's
// when it ends first: Read looks at ctx between reads and between lines.
func Read(ctx context.Context, r io.Reader, opt Options) (*Summary, error) {
	opt = opt.withDefaults()
	var cr io.Reader = ctxReader{ctx, r}
	if s, ok := r.(io.Seeker); ok {
		cr = ctxReadSeeker{ctxReader{ctx, r}, s}
	}
	data, err := readTail(cr, opt.MaxBytes)
	if err != nil {
		return nil, err
	}
	return parse(ctx, data, opt)
}

// ReadFile summarises the transcript at path. Only a regular file is read:
// a FIFO, a socket, a device or a /proc file is refused with an error
// matching safefile.ErrNotRegular, without blocking; and ReadFile returns
// when ctx ends, whatever the file system is doing.
func ReadFile(ctx context.Context, path string, opt Options) (*Summary, error) {
	return safefile.Bounded(ctx, func(ctx context.Context) (*Summary, error) {
		f, err := safefile.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return Read(ctx, f, opt)
	}, nil)
}

// ctxReader fails its reads once ctx has ended.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// ctxReadSeeker is a ctxReader that keeps its reader's Seek.
type ctxReadSeeker struct {
	ctxReader
	s io.Seeker
}

func (c ctxReadSeeker) Seek(off int64, whence int) (int64, error) { return c.s.Seek(off, whence) }

// checkEvery is how many lines parsing goes between two looks at the
// context.
const checkEvery = 256

// readTail returns the last limit bytes of r (all of r when limit < 0),
// without the partial first line when it cut r. It seeks when r can.
func readTail(r io.Reader, limit int64) ([]byte, error) {
	if limit < 0 {
		return io.ReadAll(r)
	}
	if s, ok := r.(io.Seeker); ok {
		if data, ok, err := seekTail(s, r, limit); ok || err != nil {
			return data, err
		}
	}
	// Stream, keeping a window of at most 2*limit bytes.
	var (
		buf  []byte
		cut  bool // bytes were dropped from the front
		prev byte // the last dropped byte
		tmp  = make([]byte, 32<<10)
	)
	for {
		n, err := r.Read(tmp)
		buf = append(buf, tmp[:n]...)
		if int64(len(buf))-limit > limit {
			drop := len(buf) - int(limit)
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
	if int64(len(buf)) > limit {
		drop := len(buf) - int(limit)
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
func seekTail(s io.Seeker, r io.Reader, limit int64) (data []byte, ok bool, err error) {
	cur, err := s.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil, false, nil
	}
	end, err := s.Seek(0, io.SeekEnd)
	if err != nil {
		_, _ = s.Seek(cur, io.SeekStart)
		return nil, false, nil
	}
	if end-cur <= limit {
		if _, err := s.Seek(cur, io.SeekStart); err != nil {
			return nil, true, err
		}
		data, err := io.ReadAll(io.LimitReader(r, limit))
		return data, true, err
	}
	// Read one byte before the tail to know whether it starts a line.
	if _, err := s.Seek(end-limit-1, io.SeekStart); err != nil {
		return nil, true, err
	}
	data = make([]byte, limit+1)
	n, err := io.ReadFull(r, data)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, true, err // EOF: the file shrank meanwhile
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

// lineKind is what decodeLine made of a line.
type lineKind int

const (
	lineOther     lineKind = iota // blank, or a line type Read skips
	lineMalformed                 // not a JSON object, or a user or assistant line without a well-formed message
	lineUser
	lineAssistant
)

// decodeLine decodes one line of a transcript (DecodeLine) and says what
// Read makes of it.
func decodeLine(line []byte) (Line, lineKind) {
	l, err := DecodeLine(line)
	if t := bytes.TrimSpace(line); len(t) > 0 && t[0] != '{' {
		return l, lineMalformed
	}
	if err != nil {
		// A line of a type Read skips may have a shape Read does not
		// know; only a malformed user or assistant line, or a line that
		// is not JSON at all, counts.
		var t struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(bytes.TrimSpace(line), &t) != nil || t.Type == "user" || t.Type == "assistant" {
			return l, lineMalformed
		}
		return l, lineOther
	}
	var kind lineKind
	switch l.Type {
	case "user":
		kind = lineUser
	case "assistant":
		kind = lineAssistant
	default:
		return l, lineOther
	}
	if l.Message == nil {
		return l, lineMalformed
	}
	switch l.Message.Content.(type) {
	case nil, string, []any:
		return l, kind
	}
	return l, lineMalformed
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// mainText is the text a main-conversation assistant line contributes to
// LastAssistantText, "" if none.
func mainText(l *Line, kind lineKind) string {
	if kind != lineAssistant || l.IsSidechain {
		return ""
	}
	return l.Message.Text()
}

// parser accumulates a Summary over the lines of a transcript.
type parser struct {
	s        Summary
	maxCalls int
	calls    []ToolCall
	callAt   map[string]int // tool_use id -> index in calls
	// usage per assistant message id, in first-seen order; lines of the same
	// message repeat its usage, the last one wins.
	usage    []MessageUsage
	usageAt  map[string]int
	lastText string // message id of LastAssistantText, "" if none
}

func parse(ctx context.Context, data []byte, opt Options) (*Summary, error) {
	p := &parser{maxCalls: opt.MaxToolCalls, callAt: map[string]int{}, usageAt: map[string]int{}}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	for n := 0; len(data) > 0; n++ {
		if n%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		l, kind := decodeLine(line)
		switch kind {
		case lineMalformed:
			p.s.Skipped++
		case lineUser:
			p.user(&l)
		case lineAssistant:
			p.assistant(&l)
		}
	}
	return p.summary(), nil
}

func (p *parser) user(l *Line) {
	p.s.UserMessages++
	for _, b := range l.Message.Blocks() {
		if str(b["type"]) != "tool_result" {
			continue
		}
		id := str(b["tool_use_id"])
		if at, ok := p.callAt[id]; ok && id != "" {
			isErr, _ := b["is_error"].(bool)
			call := &p.calls[at]
			call.Result, call.IsError, call.HasResult = ContentText(b["content"]), isErr, true
		}
	}
	if text := l.Message.Text(); text != "" && !l.IsMeta && !l.IsSidechain {
		p.s.LastUserText = text
	}
}

func (p *parser) assistant(l *Line) {
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
		var u MessageUsage
		if m.Usage != nil {
			u = *m.Usage
		}
		p.usage = append(p.usage, u)
	}
	if !l.IsSidechain && m.Model != "" && m.Model != "<synthetic>" {
		p.s.Model = m.Model
	}
	for _, b := range m.Blocks() {
		if str(b["type"]) == "tool_use" {
			p.toolUse(b)
		}
	}
	if text := mainText(l, lineAssistant); text != "" {
		if m.ID != "" && m.ID == p.lastText {
			// Another text block of the same message, on its own line.
			p.s.LastAssistantText += "\n" + text
		} else {
			p.s.LastAssistantText = text
		}
		p.lastText = m.ID
	}
}

func (p *parser) toolUse(b map[string]any) {
	id := str(b["id"])
	if id != "" {
		if _, dup := p.callAt[id]; dup {
			return
		}
		p.callAt[id] = len(p.calls)
	}
	input, _ := b["input"].(map[string]any)
	p.calls = append(p.calls, ToolCall{ID: id, Name: str(b["name"]), Input: input})
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
