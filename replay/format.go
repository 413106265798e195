package replay

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/hookctl/hookctl/internal/termsafe"
)

// Cell widths of the tables, in runes.
const (
	inputWidth  = 40
	hookWidth   = 28
	reasonWidth = 64
	verdictCell = 56
)

// TableOptions choose the rows of a table.
type TableOptions struct {
	// All prints a row for every event. By default the table has a row per
	// tool call (PreToolUse) and one for every other event a hook acted on
	// (any action, a hook error, or a post event after a deny).
	All bool
}

// shown reports whether the record gets a row in config i's table.
func (r *Record) shown(i int, opt TableOptions) bool {
	v := r.Verdicts[i]
	return opt.All || r.Event == EventPreToolUse || v.Action != ActionNone || len(v.Errors) > 0 || v.AfterDeny
}

// WriteTable writes configuration i's table: one row per tool call and per
// event a hook acted on (TableOptions), with the transcript line, the turn,
// the event, the tool and a summary of its input, what the recorded
// session did with the call, the action, the hooks behind it and the
// reason, each cut to fit.
func (rep *Report) WriteTable(w io.Writer, i int, opt TableOptions) error {
	t := NewTable(w, i, opt)
	for k := range rep.Records {
		if err := t.Add(&rep.Records[k]); err != nil {
			return err
		}
	}
	return t.Close()
}

// TableBlock is how many rows a Table aligns together: a longer table is
// written in blocks of its own column widths, so that writing it needs no
// more memory for a long transcript than for a short one.
const TableBlock = 4096

// Table writes configuration i's table (see WriteTable) record by record,
// for Stream.
type Table struct {
	w    io.Writer
	i    int
	opt  TableOptions
	t    *table
	rows int
}

// NewTable returns a Table of configuration i writing to w; its header
// is written with the first block.
func NewTable(w io.Writer, i int, opt TableOptions) *Table {
	t := &Table{w: w, i: i, opt: opt, t: newTable(w)}
	fmt.Fprintln(t.t, "LINE\tTURN\tEVENT\tTOOL\tINPUT\tSESSION\tDECISION\tHOOK\tREASON")
	return t
}

// Add writes r's row, if the table shows it.
func (t *Table) Add(r *Record) error {
	if !r.shown(t.i, t.opt) {
		return nil
	}
	v := r.Verdicts[t.i]
	action, hooks, reason := verdictCells(v)
	rec := ""
	if r.Event == EventPreToolUse {
		rec = string(r.Recorded)
	}
	fmt.Fprintf(t.t, "%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Line, r.Turn, cell(r.Event), dash(cell(r.Tool)),
		dash(cut(cell(r.Input), inputWidth)), dash(rec), cell(action), dash(cut(cell(hooks), hookWidth)), cut(cell(reason), reasonWidth))
	t.rows++
	if t.rows%TableBlock == 0 {
		err := t.t.Flush()
		t.t = newTable(t.w)
		return err
	}
	return nil
}

// Close writes the rows not written yet.
func (t *Table) Close() error { return t.t.Flush() }

// table aligns tab-separated cells in columns, without the spaces that
// padding leaves at the end of rows whose last cells are empty.
type table struct {
	w   io.Writer
	buf bytes.Buffer
	tw  *tabwriter.Writer
}

func newTable(w io.Writer) *table {
	t := &table{w: w}
	t.tw = tabwriter.NewWriter(&t.buf, 0, 0, 2, ' ', 0)
	return t
}

func (t *table) Write(p []byte) (int, error) { return t.tw.Write(p) }

// Flush writes the table.
func (t *table) Flush() error {
	if err := t.tw.Flush(); err != nil {
		return err
	}
	var out bytes.Buffer
	for _, line := range strings.SplitAfter(t.buf.String(), "\n") {
		trimmed := strings.TrimRight(line, " \n")
		if trimmed == "" && line == "" {
			continue
		}
		out.WriteString(trimmed)
		if strings.HasSuffix(line, "\n") {
			out.WriteByte('\n')
		}
	}
	_, err := t.w.Write(out.Bytes())
	return err
}

// verdictCells returns the action, hooks and reason cells of a verdict,
// with its notes.
func verdictCells(v Verdict) (action, hooks, reason string) {
	action = string(v.Action)
	hooks = strings.Join(v.Hooks, ",")
	reason = oneLine(v.Reason, summaryMax)
	if v.Action == ActionNone {
		action = "—"
		if len(v.Errors) > 0 {
			action = "error"
		}
	}
	var notes []string
	if len(v.Errors) > 0 {
		var ids []string
		for _, e := range v.Errors {
			ids = append(ids, e.ID)
			if reason == "" {
				reason = oneLine(fmt.Sprintf("%s %s: %s", e.ID, failed(e.Status), e.Error), summaryMax)
			}
		}
		if hooks == "" {
			hooks = strings.Join(ids, ",")
		} else {
			notes = append(notes, fmt.Sprintf("%d hook error(s)", len(v.Errors)))
		}
	}
	if v.StopReleased {
		notes = append(notes, "the loop guard let the agent stop")
	}
	if v.AfterDeny {
		notes = append(notes, "denied at PreToolUse, ran in the session")
	}
	if len(notes) > 0 {
		n := "(" + strings.Join(notes, "; ") + ")"
		if reason == "" {
			reason = n
		} else {
			reason = n + " " + reason
		}
	}
	return action, hooks, reason
}

func failed(status string) string {
	if status == "timeout" {
		return "timed out"
	}
	return "failed"
}

// cell makes text from a transcript or a configuration (a tool name, a
// hook id, a reason, a line type) safe in a terminal and in one cell:
// control characters, newlines and tabs included, bidirectional
// overrides and line separators are escaped (termsafe.Escape), so that
// none can forge a row, draw over a cell or send the terminal a command.
func cell(s string) string { return termsafe.Escape(s) }

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// WriteSummary writes what configuration i did over the replay, and what
// the transcript held: events fired, outcomes, tool calls by what the
// session did with them, skipped and malformed lines.
func (rep *Report) WriteSummary(w io.Writer, i int) error {
	s := rep.Summaries[i]
	st := rep.Stats
	fmt.Fprintf(w, "transcript: %s\n", rep.transcriptLine())
	fmt.Fprintf(w, "events fired: %s\n", counts(s.Fired, eventOrder(s.Fired)))
	fmt.Fprintf(w, "outcomes: %d blocked, %d asked, %d rewritten, %d with context, %d allowed, %d hook error(s)\n",
		s.Blocked, s.Asked, s.Rewritten, s.Context, s.Allowed, s.HookErrors)
	if s.DeniedRan > 0 {
		fmt.Fprintf(w, "denied here, ran in the session: %d call(s)\n", s.DeniedRan)
	}
	if len(st.Skipped) > 0 {
		fmt.Fprintf(w, "skipped: %s\n", counts(st.Skipped, byCount(st.Skipped)))
	}
	if st.Malformed > 0 {
		fmt.Fprintf(w, "malformed: %d line(s) could not be read (first: %s)\n", st.Malformed, cell(st.Problems[0].String()))
	}
	return nil
}

// transcriptLine describes the transcript in one line.
func (rep *Report) transcriptLine() string {
	st := rep.Stats
	var b strings.Builder
	name := "-"
	if rep.Transcript != "" {
		name = cell(filepath.Base(rep.Transcript))
	}
	fmt.Fprintf(&b, "%s, %d line(s), %d session(s), %d prompt(s), %d tool call(s)", name,
		st.Lines, len(st.Sessions), st.Prompts, st.ToolCalls)
	rec := rep.calls
	if len(rec) > 0 {
		var order []string
		for _, k := range []Recorded{RecordedRan, RecordedFailed, RecordedRejected, RecordedDenied, RecordedBlocked, RecordedInvalid, RecordedNone} {
			order = append(order, string(k))
		}
		fmt.Fprintf(&b, " (%s)", countsAfter(rec, order))
	}
	return b.String()
}

// counts writes "name n, name n" in the given order.
func counts(m map[string]int, order []string) string {
	var parts []string
	for _, k := range order {
		parts = append(parts, fmt.Sprintf("%s %d", cell(k), m[k]))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// countsAfter writes "n name, n name" for the non-zero counts, in order.
func countsAfter(m map[string]int, order []string) string {
	var parts []string
	for _, k := range order {
		if m[k] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", m[k], cell(k)))
		}
	}
	return strings.Join(parts, ", ")
}

// byCount orders a map's keys by count, largest first, then by name.
func byCount(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(a, b int) bool {
		if m[keys[a]] != m[keys[b]] {
			return m[keys[a]] > m[keys[b]]
		}
		return keys[a] < keys[b]
	})
	return keys
}

// jsonEvent is one line of WriteJSON.
type jsonEvent struct {
	Type string `json:"type"`
	Record
	Verdict
}

// jsonSummary is the last line of WriteJSON.
type jsonSummary struct {
	Type       string  `json:"type"`
	Transcript string  `json:"transcript"`
	Config     string  `json:"config"`
	Stats      Stats   `json:"stats"`
	Summary    Summary `json:"summary"`
}

// WriteJSON writes configuration i's replay as JSON lines: one object per
// event ("type": "event", the record and the verdict's fields), then one
// summary ("type": "summary", with the transcript's Stats and the
// configuration's Summary).
func (rep *Report) WriteJSON(w io.Writer, i int) error {
	for k := range rep.Records {
		if err := WriteJSONEvent(w, &rep.Records[k], i); err != nil {
			return err
		}
	}
	return rep.WriteJSONSummary(w, i)
}

// WriteJSONEvent writes one line of WriteJSON: r as configuration i saw it.
func WriteJSONEvent(w io.Writer, r *Record, i int) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(jsonEvent{Type: "event", Record: *r, Verdict: r.Verdicts[i]})
}

// WriteJSONSummary writes the last line of WriteJSON.
func (rep *Report) WriteJSONSummary(w io.Writer, i int) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(jsonSummary{Type: "summary", Transcript: rep.Transcript, Config: rep.Configs[i], Stats: rep.statsJSON(), Summary: rep.Summaries[i]})
}

// statsJSON is Stats with empty lists and maps as [] and {}.
func (rep *Report) statsJSON() Stats {
	st := rep.Stats
	if st.Sessions == nil {
		st.Sessions = []string{}
	}
	if st.Problems == nil {
		st.Problems = []Problem{}
	}
	return st
}

// WriteDiffTable writes the records on which configurations i (before)
// and j (after) differ, one row each with both verdicts, then a summary
// of the differences and of each configuration's outcomes.
func (rep *Report) WriteDiffTable(w io.Writer, i, j int) error {
	t := NewDiffTable(w, i, j)
	for k := range rep.Records {
		if err := t.Add(&rep.Records[k]); err != nil {
			return err
		}
	}
	return t.Close(rep)
}

// DiffTable writes WriteDiffTable's table record by record, for Stream,
// aligned in blocks of TableBlock rows, and counts the differences.
type DiffTable struct {
	w    io.Writer
	i, j int
	t    *table
	Diffs
}

// Diffs counts the records on which two configurations differ.
type Diffs struct {
	// N counts them; ByEvent counts them by event.
	N       int
	ByEvent map[string]int
}

func (d *Diffs) add(r *Record) {
	if d.ByEvent == nil {
		d.ByEvent = map[string]int{}
	}
	d.N++
	d.ByEvent[r.Event]++
}

// NewDiffTable returns a DiffTable of configurations i and j writing to w.
func NewDiffTable(w io.Writer, i, j int) *DiffTable {
	return &DiffTable{w: w, i: i, j: j}
}

// Add writes r's row if i and j differ on it.
func (t *DiffTable) Add(r *Record) error {
	if !r.Differs(t.i, t.j) {
		return nil
	}
	t.add(r)
	if t.t == nil {
		t.t = newTable(t.w)
		if t.N == 1 {
			fmt.Fprintln(t.t, "LINE\tTURN\tEVENT\tTOOL\tINPUT\tBEFORE\tAFTER")
		}
	}
	fmt.Fprintf(t.t, "%d\t%d\t%s\t%s\t%s\t%s\t%s\n", r.Line, r.Turn, cell(r.Event), dash(cell(r.Tool)),
		dash(cut(cell(r.Input), inputWidth)), verdictCellDiff(r.Verdicts[t.i]), verdictCellDiff(r.Verdicts[t.j]))
	if t.N%TableBlock == 0 {
		err := t.t.Flush()
		t.t = nil
		return err
	}
	return nil
}

// Close writes the rows not written yet, then the summary of rep, the
// report Stream returned (or Run).
func (t *DiffTable) Close(rep *Report) error {
	if t.t != nil {
		if err := t.t.Flush(); err != nil {
			return err
		}
		t.t = nil
	}
	w, i, j := t.w, t.i, t.j
	fmt.Fprintf(w, "before: %s\nafter:  %s\n", cell(rep.Configs[i]), cell(rep.Configs[j]))
	fmt.Fprintf(w, "transcript: %s\n", rep.transcriptLine())
	if t.N == 0 {
		fmt.Fprintf(w, "no differences: all %d event(s) had the same effect\n", rep.Events)
	} else {
		fmt.Fprintf(w, "differences: %d of %d event(s) (%s)\n", t.N, rep.Events, counts(t.ByEvent, eventOrder(t.ByEvent)))
	}
	a, b := rep.Summaries[i], rep.Summaries[j]
	fmt.Fprintf(w, "outcomes: blocked %d → %d, asked %d → %d, rewritten %d → %d, with context %d → %d, allowed %d → %d, hook errors %d → %d\n",
		a.Blocked, b.Blocked, a.Asked, b.Asked, a.Rewritten, b.Rewritten, a.Context, b.Context, a.Allowed, b.Allowed, a.HookErrors, b.HookErrors)
	if rep.Stats.Malformed > 0 {
		fmt.Fprintf(w, "malformed: %d line(s) could not be read (first: %s)\n", rep.Stats.Malformed, cell(rep.Stats.Problems[0].String()))
	}
	return nil
}

// verdictCellDiff is a verdict in one cell: action, hooks and reason.
func verdictCellDiff(v Verdict) string {
	action, hooks, reason := verdictCells(v)
	s := action
	if hooks != "" {
		s += " " + hooks
	}
	if reason != "" {
		s += ": " + reason
	}
	return cut(cell(s), verdictCell)
}

// jsonDiff is one line of WriteDiffJSON.
type jsonDiff struct {
	Type string `json:"type"`
	Record
	Before Verdict `json:"before"`
	After  Verdict `json:"after"`
}

// jsonDiffSummary is the last line of WriteDiffJSON.
type jsonDiffSummary struct {
	Type        string         `json:"type"`
	Transcript  string         `json:"transcript"`
	Before      string         `json:"before"`
	After       string         `json:"after"`
	Events      int            `json:"events"`
	Differences int            `json:"differences"`
	ByEvent     map[string]int `json:"by_event"`
	Stats       Stats          `json:"stats"`
	Summaries   struct {
		Before Summary `json:"before"`
		After  Summary `json:"after"`
	} `json:"summaries"`
}

// WriteDiffJSON writes the records on which configurations i and j differ
// as JSON lines ("type": "diff", the record, "before" and "after"
// verdicts), then one summary ("type": "summary").
func (rep *Report) WriteDiffJSON(w io.Writer, i, j int) error {
	var d Diffs
	for k := range rep.Records {
		if err := WriteDiffJSONEvent(w, &rep.Records[k], i, j, &d); err != nil {
			return err
		}
	}
	return rep.WriteDiffJSONSummary(w, i, j, d)
}

// WriteDiffJSONEvent writes r's line of WriteDiffJSON if configurations i
// and j differ on it, counting it in d.
func WriteDiffJSONEvent(w io.Writer, r *Record, i, j int, d *Diffs) error {
	if !r.Differs(i, j) {
		return nil
	}
	d.add(r)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(jsonDiff{Type: "diff", Record: *r, Before: r.Verdicts[i], After: r.Verdicts[j]})
}

// WriteDiffJSONSummary writes the last line of WriteDiffJSON, with the
// differences counted in d.
func (rep *Report) WriteDiffJSONSummary(w io.Writer, i, j int, d Diffs) error {
	s := jsonDiffSummary{Type: "summary", Transcript: rep.Transcript, Before: rep.Configs[i], After: rep.Configs[j],
		Events: rep.Events, Differences: d.N, ByEvent: map[string]int{}, Stats: rep.statsJSON()}
	for k, n := range d.ByEvent {
		s.ByEvent[k] = n
	}
	s.Summaries.Before, s.Summaries.After = rep.Summaries[i], rep.Summaries[j]
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(s)
}
