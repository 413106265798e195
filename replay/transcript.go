package replay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/hookctl/hookctl/internal/jsonx"
	"github.com/hookctl/hookctl/lib/transcript"
)

// The Claude Code events a replay fires, in the order a turn fires them.
const (
	EventSessionStart       = "SessionStart"
	EventUserPromptSubmit   = "UserPromptSubmit"
	EventPreToolUse         = "PreToolUse"
	EventPostToolUse        = "PostToolUse"
	EventPostToolUseFailure = "PostToolUseFailure"
	EventStop               = "Stop"
)

// Events lists the events a replay fires, in the order summaries print them.
var Events = []string{EventSessionStart, EventUserPromptSubmit, EventPreToolUse, EventPostToolUse, EventPostToolUseFailure, EventStop}

// Recorded is what the recorded session did with a tool call, read from its
// tool_result.
type Recorded string

// What a recorded session did with a tool call.
const (
	// RecordedRan: the tool ran and succeeded (PostToolUse fired).
	RecordedRan Recorded = "ran"
	// RecordedFailed: the tool ran and failed (PostToolUseFailure fired).
	RecordedFailed Recorded = "failed"
	// RecordedRejected: the user rejected the call at the permission
	// prompt or interrupted it; the result is Claude Code's canned
	// rejection text. No post event fires.
	RecordedRejected Recorded = "rejected"
	// RecordedDenied: a permission rule denied the call. No post event.
	RecordedDenied Recorded = "denied"
	// RecordedBlocked: a PreToolUse hook blocked the call in the session.
	// No post event.
	RecordedBlocked Recorded = "blocked"
	// RecordedInvalid: Claude Code refused the call before running it
	// (<tool_use_error>: unknown tool, invalid input). No post event.
	RecordedInvalid Recorded = "invalid"
	// RecordedNone: the transcript holds no result for the call (the
	// session ended or was cut before it).
	RecordedNone Recorded = "no result"
)

// Event is one hook event the recorded session fired, with the payload
// Claude Code sent for it.
type Event struct {
	// Name is the event's name (one of Events), or "" for a tool result
	// that fires no event (the call was rejected, denied, blocked or
	// invalid in the session): it only tells the replay what became of
	// the call (Recorded).
	Name string
	// Line is the transcript line that fired the event (1-based).
	Line int
	// Turn is the number of the user prompt the event belongs to
	// (1-based; 0 before the first prompt).
	Turn int
	// Tool and ToolUseID identify the tool call of tool events.
	Tool, ToolUseID string
	// Input is a one-line summary of what the event is about: a tool
	// call's command, file path, pattern or URL, a prompt, the last
	// assistant message of a Stop, the source of a SessionStart.
	Input string
	// Recorded is what the session did with the call, on the events that
	// close one (PostToolUse, PostToolUseFailure and those without Name).
	Recorded Recorded
	// Payload is the hook input, in the shape Claude Code sends it. Each
	// Event has its own; Clone it before giving it to more than one fire.
	Payload map[string]any
}

// Problem is a transcript line that could not be read. It never stops a
// replay.
type Problem struct {
	Line int    `json:"line"`
	Err  string `json:"error"`
}

func (p Problem) String() string { return fmt.Sprintf("line %d: %s", p.Line, p.Err) }

// MaxProblems bounds the problems Stats keeps; Stats.Malformed counts all.
const MaxProblems = 100

// Stats describes what a Reader read.
type Stats struct {
	// Lines counts the lines read, blank ones included.
	Lines int `json:"lines"`
	// Sessions lists the session ids seen, in order.
	Sessions []string `json:"sessions"`
	// Prompts, ToolCalls and Results count the user prompts, tool_use
	// blocks and tool_result blocks replayed.
	Prompts   int `json:"prompts"`
	ToolCalls int `json:"tool_calls"`
	Results   int `json:"results"`
	// Unanswered counts the tool calls without a result in the transcript.
	Unanswered int `json:"unanswered"`
	// Skipped counts the lines, messages and blocks that fire no event,
	// by what they are: a line type ("attachment", "summary", ...) or a
	// reason ("meta message", "sidechain", ...).
	Skipped map[string]int `json:"skipped"`
	// Malformed counts the lines that could not be read; Problems lists
	// the first MaxProblems of them.
	Malformed int       `json:"malformed"`
	Problems  []Problem `json:"problems"`
}

// DefaultMaxLine bounds one transcript line. A longer line (a huge tool
// result) is skipped as malformed; no more of it than the bound is held in
// memory.
const DefaultMaxLine = transcript.DefaultMaxLine

// Option configures a Reader.
type Option func(*Reader)

// WithMaxLine sets the longest line the Reader decodes (DefaultMaxLine
// when n <= 0).
func WithMaxLine(n int) Option {
	return func(r *Reader) {
		if n > 0 {
			r.maxLine = n
		}
	}
}

// WithPath sets the transcript_path the payloads carry: the path of the
// transcript being replayed, as Claude Code gives it to hooks.
func WithPath(path string) Option { return func(r *Reader) { r.path = path } }

// FormatError says that the input is not a transcript at all: not one of
// its lines is a JSON object with a "type". A transcript with some bad
// lines is not a FormatError; its bad lines are Problems.
type FormatError struct {
	// Lines counts the lines read; First is the first bad one, if any.
	Lines int
	First *Problem
}

func (e *FormatError) Error() string {
	if e.Lines == 0 {
		return "empty transcript: no lines"
	}
	msg := fmt.Sprintf("not a Claude Code transcript: none of its %d line(s) is a JSON object with a \"type\"", e.Lines)
	if e.First != nil {
		msg += fmt.Sprintf(" (%s)", e.First)
	}
	return msg
}

// Reader reads a Claude Code session transcript and returns, in order, the
// hook events the session fired. It holds only the calls still waiting for
// their result, so transcripts of any length stream through it. A Reader
// is not safe for concurrent use.
type Reader struct {
	lines   *transcript.LineReader
	path    string
	maxLine int

	line  int
	queue []Event
	stats Stats
	typed int // lines that were JSON objects with a type
	eof   bool

	// The session as of the last line read.
	sessionID, cwd, mode, promptID, effort string
	started                                bool
	turn                                   int

	calls    map[string]*call // tool calls waiting for their result
	order    []string         // ids of calls, oldest first (some may be closed)
	answered recentSet        // the last tool calls whose result was replayed
	dropped  recentSet        // the last tool calls given up past MaxOpen
	stop     *pendingStop
}

// maxAnswered is how many answered tool calls a Reader remembers, to
// skip a tool_use or tool_result line repeated after the call was
// answered (Claude Code writes a message's lines again when a session is
// resumed, close to the first ones). Older ids are forgotten, so that the
// Reader's memory does not grow with the transcript.
const maxAnswered = 1 << 14

// MaxOpen is how many tool calls a Reader keeps waiting for their result.
// A transcript can open calls and never answer them (a cut session, or a
// file made to exhaust memory): past MaxOpen open calls, the oldest is
// given up, closed as RecordedNone (an Event with no Name, as a result
// that fires no post event is), and a result read for it later is
// skipped and counted ("tool_result of a call given up"). Claude Code
// runs a handful of calls at once, so real sessions stay far below it.
const MaxOpen = 1 << 12

// recentSet holds the last n strings added to it.
type recentSet struct {
	set  map[string]struct{}
	ring []string
	next int
}

func newRecentSet(n int) recentSet {
	return recentSet{set: make(map[string]struct{}), ring: make([]string, 0, n)}
}

func (s *recentSet) has(k string) bool { _, ok := s.set[k]; return ok }

// add adds k, forgetting the oldest string when the set is full.
func (s *recentSet) add(k string) {
	if s.has(k) {
		return
	}
	if len(s.ring) < cap(s.ring) {
		s.ring = append(s.ring, k)
	} else {
		delete(s.set, s.ring[s.next])
		s.ring[s.next] = k
		s.next = (s.next + 1) % len(s.ring)
	}
	s.set[k] = struct{}{}
}

// call is a tool call waiting for its result.
type call struct {
	name  string
	input map[string]any
	turn  int
}

// pendingStop is the assistant message that may end a turn: Stop fires for
// it once the message is complete (its last line read).
type pendingStop struct {
	line     int
	turn     int
	msgID    string
	text     []string
	explicit bool // stop_reason says the turn ended; else inferred at the turn's end
}

// NewReader returns a Reader of the transcript r.
func NewReader(r io.Reader, opts ...Option) *Reader {
	rd := &Reader{
		maxLine: DefaultMaxLine,
		calls:   map[string]*call{}, answered: newRecentSet(maxAnswered), dropped: newRecentSet(maxAnswered),
		stats: Stats{Skipped: map[string]int{}},
	}
	for _, o := range opts {
		o(rd)
	}
	rd.lines = transcript.NewLineReader(r, rd.maxLine)
	return rd
}

// Stats reports what was read so far; after Next returned io.EOF, all of
// it.
func (r *Reader) Stats() Stats { return r.stats }

// Next returns the next event. It returns io.EOF after the last one, a
// *FormatError when the input is not a transcript, and the error of the
// underlying reader or ctx if reading fails. Lines that cannot be read are
// counted in Stats and skipped.
func (r *Reader) Next(ctx context.Context) (Event, error) {
	for len(r.queue) == 0 {
		if r.eof {
			return Event{}, io.EOF
		}
		if err := ctx.Err(); err != nil {
			return Event{}, err
		}
		line, tooLong, err := r.lines.Next()
		if err != nil && !errors.Is(err, io.EOF) {
			return Event{}, err
		}
		if line != nil || tooLong {
			r.line++
			r.stats.Lines++
			if tooLong {
				r.problem("line longer than " + size(r.maxLine))
			} else {
				r.handle(line)
			}
		}
		if errors.Is(err, io.EOF) {
			r.eof = true
			if r.typed == 0 {
				fe := &FormatError{Lines: r.stats.Lines}
				if len(r.stats.Problems) > 0 {
					fe.First = &r.stats.Problems[0]
				}
				return Event{}, fe
			}
			r.endTurn(true)
			r.stats.Unanswered = len(r.calls)
		}
	}
	ev := r.queue[0]
	r.queue = r.queue[1:]
	return ev, nil
}

// size writes a byte count, in MiB when it is a whole number of them.
func size(n int) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

func (r *Reader) problem(msg string) {
	r.stats.Malformed++
	if len(r.stats.Problems) < MaxProblems {
		r.stats.Problems = append(r.stats.Problems, Problem{Line: r.line, Err: msg})
	}
}

func (r *Reader) skip(what string) { r.stats.Skipped[what]++ }

// handle reads one line.
func (r *Reader) handle(line []byte) {
	if len(bytes.TrimSpace(line)) == 0 {
		r.skip("blank line")
		return
	}
	l, err := transcript.DecodeLine(line, transcript.WithExactNumbers(), transcript.WithToolUseResult())
	if err != nil {
		r.problem(err.Error())
		return
	}
	if l.Type == "" {
		r.problem(`no "type"`)
		return
	}
	r.typed++
	if l.SessionID != "" && l.SessionID != r.sessionID {
		r.sessionID = l.SessionID
		r.stats.Sessions = append(r.stats.Sessions, r.sessionID)
	}
	if l.Cwd != "" {
		r.cwd = l.Cwd
	}
	switch l.Type {
	case "user", "assistant":
	default:
		r.skip(l.Type)
		return
	}
	if l.Message == nil {
		r.problem(l.Type + " line without a message")
		return
	}
	switch l.Message.Content.(type) {
	case string, []any:
	default:
		r.problem(l.Type + " message content is neither a string nor a list of blocks")
		return
	}
	if l.IsSidechain {
		r.skip("sidechain (subagent) message")
		return
	}
	if l.Type == "user" {
		r.user(&l)
	} else {
		r.assistant(&l)
	}
}

// Prefixes of user messages that are not prompts: slash commands and their
// output, and shell-mode input, which fire no UserPromptSubmit.
var commandPrefixes = []string{
	"<command-name>", "<command-message>", "<command-args>", "<local-command-", "<bash-input>",
	"<bash-stdout>", "<bash-stderr>", "<user-memory-input>",
}

// Texts Claude Code writes as user messages when the user interrupts.
var interruptTexts = []string{"[Request interrupted by user", "No response requested."}

func (r *Reader) user(l *transcript.Line) {
	if l.PermissionMode != "" {
		r.mode = l.PermissionMode
	}
	if l.PromptID != "" {
		r.promptID = l.PromptID
	}
	blocks, _ := l.Message.Content.([]any)
	var results []map[string]any
	for _, b := range blocks {
		if o, ok := b.(map[string]any); ok && o["type"] == "tool_result" {
			results = append(results, o)
		}
	}
	if len(results) > 0 {
		for _, res := range results {
			r.result(l, res, len(results) == 1)
		}
		return
	}
	text := l.Message.Text()
	switch {
	case l.IsMeta:
		r.skip("meta message")
	case l.IsCompactSummary || l.IsVisibleInTranscriptOnly:
		r.skip("compaction summary")
	case hasPrefix(text, interruptTexts):
		r.skip("interruption")
		r.stop = nil // an interrupted turn fires no Stop
	case hasPrefix(strings.TrimSpace(text), commandPrefixes):
		r.skip("command message")
	case strings.TrimSpace(text) == "":
		r.skip("user message without text")
	default:
		r.prompt(text)
	}
}

func (r *Reader) prompt(text string) {
	r.endTurn(true)
	r.start()
	r.turn++
	r.stats.Prompts++
	p := r.payload(EventUserPromptSubmit, false)
	p["prompt"] = text
	r.emit(Event{Name: EventUserPromptSubmit, Input: oneLine(text, summaryMax), Payload: p})
}

// start fires SessionStart once, before the session's first event.
func (r *Reader) start() {
	if r.started {
		return
	}
	r.started = true
	// The transcript does not say how the session started.
	p := r.payload(EventSessionStart, false)
	delete(p, "prompt_id")
	delete(p, "permission_mode")
	p["source"] = "startup"
	r.emit(Event{Name: EventSessionStart, Input: "startup", Payload: p})
}

func (r *Reader) assistant(l *transcript.Line) {
	if l.Effort != "" {
		r.effort = l.Effort
	}
	if l.IsAPIErrorMessage {
		// An API error ends the turn with StopFailure, not Stop.
		r.skip("API error message")
		r.stop = nil
		return
	}
	id := l.Message.ID
	blocks, _ := l.Message.Content.([]any)
	var uses []map[string]any
	for _, b := range blocks {
		if o, ok := b.(map[string]any); ok && o["type"] == "tool_use" {
			uses = append(uses, o)
		}
	}
	if len(uses) > 0 {
		r.endTurn(false)
		for _, u := range uses {
			r.toolUse(u)
		}
		return
	}
	text := l.Message.Text()
	if r.stop != nil && id != "" && r.stop.msgID == id {
		// Another line of the same message.
		if text != "" {
			r.stop.text = append(r.stop.text, text)
		}
		r.stop.explicit = r.stop.explicit || endsTurn(l.Message.StopReason)
		r.stop.line = r.line
		return
	}
	r.endTurn(false)
	switch sr := l.Message.StopReason; {
	case sr == "" || endsTurn(sr):
		ps := &pendingStop{line: r.line, turn: r.turn, msgID: id, explicit: endsTurn(sr)}
		if text != "" {
			ps.text = []string{text}
		}
		r.stop = ps
	default:
		// tool_use without a tool_use block (cut transcript), max_tokens,
		// refusal, pause_turn: the turn goes on or ends otherwise.
	}
}

// endsTurn reports whether a stop_reason ends the assistant's turn.
func endsTurn(sr string) bool { return sr == "end_turn" || sr == "stop_sequence" }

// endTurn fires the pending Stop when its message ended the turn: always
// when its stop_reason said so, and, for a message recorded without a
// stop_reason, only when the turn ends (turnEnds: a new prompt or the end
// of the transcript) with it as the last thing the assistant did.
func (r *Reader) endTurn(turnEnds bool) {
	ps := r.stop
	r.stop = nil
	if ps == nil || (!ps.explicit && !turnEnds) {
		return
	}
	r.start()
	msg := strings.Join(ps.text, "\n")
	p := r.payload(EventStop, true)
	p["stop_hook_active"] = false
	p["last_assistant_message"] = msg
	p["background_tasks"] = []any{}
	p["session_crons"] = []any{}
	r.emitAt(Event{Name: EventStop, Input: oneLine(msg, summaryMax), Payload: p}, ps.line, ps.turn)
}

func (r *Reader) toolUse(u map[string]any) {
	id, _ := u["id"].(string)
	name, _ := u["name"].(string)
	if id == "" || name == "" {
		r.problem("tool_use block without an id or a name")
		return
	}
	if r.calls[id] != nil || r.answered.has(id) || r.dropped.has(id) {
		r.skip("repeated tool_use")
		return
	}
	input, ok := u["input"].(map[string]any)
	if !ok {
		input = map[string]any{}
	}
	if _, err := jsonx.Convert(input); err != nil {
		r.problem("tool_use input: " + err.Error())
		return
	}
	r.start()
	r.stats.ToolCalls++
	r.giveUp()
	r.calls[id] = &call{name: name, input: input, turn: r.turn}
	r.order = append(r.order, id)
	p := r.payload(EventPreToolUse, true)
	p["tool_name"] = name
	p["tool_input"] = Clone(input)
	p["tool_use_id"] = id
	r.emit(Event{Name: EventPreToolUse, Tool: name, ToolUseID: id, Input: Summarize(name, input), Payload: p})
}

// result replays one tool_result block. single says it is the only one of
// its line, whose toolUseResult is then its structured output.
func (r *Reader) result(l *transcript.Line, res map[string]any, single bool) {
	id, _ := res["tool_use_id"].(string)
	c := r.calls[id]
	if c == nil {
		switch {
		case r.answered.has(id):
			r.skip("repeated tool_result")
		case r.dropped.has(id):
			r.skip("tool_result of a call given up")
		default:
			r.skip("tool_result without its tool_use")
		}
		return
	}
	r.endTurn(false)
	delete(r.calls, id)
	r.answered.add(id)
	r.stats.Results++
	isError, _ := res["is_error"].(bool)
	text := transcript.ContentText(res["content"])
	rec := RecordedRan
	if isError {
		rec = classifyError(text)
	}
	ev := Event{Tool: c.name, ToolUseID: id, Input: Summarize(c.name, c.input), Recorded: rec}
	switch rec {
	case RecordedRan:
		ev.Name = EventPostToolUse
		p := r.payload(EventPostToolUse, true)
		var resp any = text
		if single && l.ToolUseResult != nil {
			// A number past float64 leaves the text as the response.
			if v, err := toolUseResult(l.ToolUseResult); err == nil {
				resp = v
			} else {
				r.problem("toolUseResult: " + err.Error())
			}
		}
		p["tool_response"] = resp
		ev.Payload = p
	case RecordedFailed:
		ev.Name = EventPostToolUseFailure
		p := r.payload(EventPostToolUseFailure, true)
		p["error"] = strings.TrimPrefix(text, "Error: ")
		p["is_interrupt"] = false
		ev.Payload = p
	}
	if ev.Payload != nil {
		ev.Payload["tool_name"] = c.name
		ev.Payload["tool_input"] = Clone(c.input)
		ev.Payload["tool_use_id"] = id
	}
	r.emitAt(ev, r.line, c.turn)
}

// giveUp makes room for one more open call: while MaxOpen calls are
// open, the oldest is closed as RecordedNone. It also drops the ids of
// closed calls from the head of r.order, and compacts r.order when closed
// ids make up most of it, so that its size stays within 2×MaxOpen.
func (r *Reader) giveUp() {
	for len(r.order) > 0 && (r.calls[r.order[0]] == nil || len(r.calls) >= MaxOpen) {
		id := r.order[0]
		r.order[0] = ""
		r.order = r.order[1:]
		c := r.calls[id]
		if c == nil {
			continue
		}
		delete(r.calls, id)
		r.dropped.add(id)
		r.emitAt(Event{Tool: c.name, ToolUseID: id, Recorded: RecordedNone}, r.line, c.turn)
	}
	if len(r.order) >= 2*MaxOpen {
		r.order = slices.DeleteFunc(slices.Clone(r.order), func(id string) bool { return r.calls[id] == nil })
	}
}

// classifyError tells a failed tool from a call that never ran, by the
// text Claude Code writes in the tool_result of each.
func classifyError(text string) Recorded {
	t := strings.TrimSpace(text)
	first, _, _ := strings.Cut(t, "\n")
	switch {
	case strings.HasPrefix(t, "The user doesn't want to proceed with this tool use"),
		strings.HasPrefix(t, "The user doesn't want to take this action right now"),
		strings.HasPrefix(t, "[Request interrupted by user"):
		return RecordedRejected
	case strings.HasPrefix(t, "Permission to use ") && strings.Contains(first, "has been denied"):
		return RecordedDenied
	case strings.HasPrefix(t, "PreToolUse:") && strings.Contains(first, "hook"):
		return RecordedBlocked
	case strings.HasPrefix(t, "<tool_use_error>"):
		return RecordedInvalid
	}
	return RecordedFailed
}

// payload returns the fields every event of the session carries; tool
// adds the fields of tool-context events (effort).
func (r *Reader) payload(event string, tool bool) map[string]any {
	p := map[string]any{
		"session_id":      r.sessionID,
		"transcript_path": r.path,
		"cwd":             r.cwd,
		"hook_event_name": event,
	}
	if r.promptID != "" {
		p["prompt_id"] = r.promptID
	}
	if r.mode != "" {
		p["permission_mode"] = r.mode
	}
	if tool && r.effort != "" {
		p["effort"] = map[string]any{"level": r.effort}
	}
	return p
}

func (r *Reader) emit(ev Event) { r.emitAt(ev, r.line, r.turn) }

func (r *Reader) emitAt(ev Event, line, turn int) {
	ev.Line, ev.Turn = line, turn
	r.queue = append(r.queue, ev)
}

func hasPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// toolUseResult decodes a line's toolUseResult: integers exact, other
// numbers float64 (jsonx.Convert).
func toolUseResult(raw json.RawMessage) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return jsonx.Convert(v)
}

// Clone returns a deep copy of a payload: its maps and lists are new,
// its scalars shared.
func Clone(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	return cloneAny(m).(map[string]any)
}

func cloneAny(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = cloneAny(e)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = cloneAny(e)
		}
		return l
	}
	return v
}
