package replay_test

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/replay"
)

// transcriptStream generates a transcript of about size bytes on the fly,
// never holding more than one tool call of it: a prompt, then tool_use /
// tool_result pairs, each call answered on the next line.
type transcriptStream struct {
	size, written int
	n             int
	buf           []byte
}

const streamLine = `{"parentUuid":null,"isSidechain":false,"userType":"external","entrypoint":"cli","cwd":"/home/dev/shop","sessionId":"7d3c1f0a-5b2e-4c11-9a8d-2f6e4b1c9d70","version":"2.1.329","gitBranch":"main",`

func (s *transcriptStream) Read(p []byte) (int, error) {
	for len(s.buf) == 0 {
		if s.written >= s.size {
			return 0, io.EOF
		}
		if s.n == 0 {
			s.buf = fmt.Appendf(s.buf, `%s"type":"user","uuid":"u0","timestamp":"2026-11-23T10:00:01Z","promptId":"p","message":{"role":"user","content":"go"}}`+"\n", streamLine)
		} else {
			id := fmt.Sprintf("toolu_%09d", s.n)
			s.buf = fmt.Appendf(s.buf, `%s"type":"assistant","uuid":"a%d","timestamp":"2026-11-23T10:00:03Z","message":{"id":"msg_%d","type":"message","role":"assistant","model":"m","content":[{"type":"tool_use","id":"%s","name":"Bash","input":{"command":"echo %d"}}],"stop_reason":"tool_use","usage":{"input_tokens":1,"output_tokens":1}}}`+"\n",
				streamLine, s.n, s.n, id, s.n)
			s.buf = fmt.Appendf(s.buf, `%s"type":"user","uuid":"r%d","timestamp":"2026-11-23T10:00:04Z","promptId":"p","message":{"role":"user","content":[{"tool_use_id":"%s","type":"tool_result","content":"ok %d","is_error":false}]},"toolUseResult":{"stdout":"ok","stderr":"","interrupted":false}}`+"\n",
				streamLine, s.n, id, s.n)
		}
		s.n++
		s.written += len(s.buf)
	}
	k := copy(p, s.buf)
	s.buf = s.buf[k:]
	if len(s.buf) == 0 {
		s.buf = s.buf[:0:0]
	}
	return k, nil
}

// liveHeap is the heap in use after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestStreamMemoryDoesNotGrowWithTheTranscript replays a generated
// transcript (about 200 MB; 24 MB with -short or -race), streamed through
// an io.Reader, never on disk, and samples the live heap as the records
// come out: between 40% of the transcript (the Reader's memory of
// answered calls is full by then) and its end the live heap must not grow
// by more than a few MB, whereas keeping every record (as Run does, and as
// replay did before it streamed) grows it by about 0.5 KB per event.
func TestStreamMemoryDoesNotGrowWithTheTranscript(t *testing.T) {
	size := 200 << 20
	if testing.Short() || raceEnabled {
		size = 24 << 20
	}
	cfg := goEngine(t, denyRm())
	src := &transcriptStream{size: size}
	var (
		events         int
		base, peak     uint64
		baseAt, sample = size * 4 / 10, 0
	)
	rep, err := replay.Stream(context.Background(), replay.NewReader(src), func(r *replay.Record) error {
		events++
		if events%2048 != 0 {
			return nil
		}
		h := liveHeap()
		switch {
		case base == 0 && src.written >= baseAt:
			base, peak = h, h
		case base != 0:
			peak = max(peak, h)
			sample++
		}
		return nil
	}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Events != events || rep.Summaries[0].Fired["PreToolUse"] != src.n-1 {
		t.Fatalf("%d events streamed, report says %d; %d PreToolUse for %d calls", events, rep.Events, rep.Summaries[0].Fired["PreToolUse"], src.n-1)
	}
	if sample < 4 {
		t.Fatalf("only %d samples after the baseline", sample)
	}
	growth := int64(peak) - int64(base)
	t.Logf("%d MB transcript, %d events: live heap %.1f MB at 40%%, peak %.1f MB after (growth %.2f MB)",
		size>>20, events, float64(base)/(1<<20), float64(peak)/(1<<20), float64(growth)/(1<<20))
	if limit := int64(4 << 20); growth > limit {
		t.Errorf("the live heap grew by %.1f MB over the last 60%% of a %d MB transcript (limit %d MB): replay keeps what it streamed",
			float64(growth)/(1<<20), size>>20, limit>>20)
	}
}

// denyRm is a hook like the ones a replay runs: a deny on Bash.
func denyRm() engine.Hook {
	return engine.Hook{ID: "no-rm", Event: "PreToolUse", Matcher: "Bash", Handler: engine.Static(engine.Deny("rm"))}
}

// TestStreamHoldsBoundedBehindAnOpenCall: a tool call never answered does
// not make Stream hold the rest of the transcript: past MaxHeld records
// it is given to the sink as RecordedNone, the records stay in
// transcript order, and every one reaches the sink.
func TestStreamHoldsBoundedBehindAnOpenCall(t *testing.T) {
	var b strings.Builder
	src := &transcriptStream{size: 1}
	src.Read(make([]byte, 0)) // the prompt line
	b.Write(src.buf)
	b.WriteString(streamLine + `"type":"assistant","uuid":"open","timestamp":"2026-11-23T10:00:03Z","message":{"id":"m0","type":"message","role":"assistant","model":"m","content":[{"type":"tool_use","id":"toolu_open","name":"Bash","input":{"command":"sleep 1"}}],"stop_reason":"tool_use","usage":{"input_tokens":1,"output_tokens":1}}}` + "\n")
	more := &transcriptStream{size: 1 << 30, n: 1}
	for more.n <= replay.MaxHeld { // MaxHeld more calls, each answered
		more.Read(make([]byte, 0))
		b.Write(more.buf)
		more.buf = more.buf[:0]
	}
	var (
		lines    []int
		forced   bool
		received int
	)
	rep, err := replay.Stream(context.Background(), replay.NewReader(strings.NewReader(b.String())), func(r *replay.Record) error {
		received++
		lines = append(lines, r.Line)
		if r.ToolUseID == "toolu_open" {
			forced = r.Recorded == replay.RecordedNone
		}
		return nil
	}, goEngine(t))
	if err != nil {
		t.Fatal(err)
	}
	if !forced {
		t.Errorf("the open call was held to the end, not given to the sink past MaxHeld records")
	}
	if !slices.IsSorted(lines) || received != rep.Events {
		t.Errorf("records out of order or lost: %d received, %d events", received, rep.Events)
	}
}

// openCallStream generates a transcript of about size bytes made only of
// tool calls never answered: a prompt, then one tool_use line after
// another, as a cut session or a file made to exhaust memory would be.
type openCallStream struct {
	size, written int
	n             int
	buf           []byte
}

func (s *openCallStream) Read(p []byte) (int, error) {
	for len(s.buf) == 0 {
		if s.written >= s.size {
			return 0, io.EOF
		}
		if s.n == 0 {
			s.buf = fmt.Appendf(s.buf, `%s"type":"user","uuid":"u0","timestamp":"2026-11-23T10:00:01Z","promptId":"p","message":{"role":"user","content":"go"}}`+"\n", streamLine)
		} else {
			s.buf = fmt.Appendf(s.buf, `%s"type":"assistant","uuid":"a%d","timestamp":"2026-11-23T10:00:03Z","message":{"id":"msg_%d","type":"message","role":"assistant","model":"m","content":[{"type":"tool_use","id":"toolu_%09d","name":"Bash","input":{"command":"echo %d"}}],"stop_reason":"tool_use","usage":{"input_tokens":1,"output_tokens":1}}}`+"\n",
				streamLine, s.n, s.n, s.n, s.n)
		}
		s.n++
		s.written += len(s.buf)
	}
	k := copy(p, s.buf)
	s.buf = s.buf[k:]
	if len(s.buf) == 0 {
		s.buf = s.buf[:0:0]
	}
	return k, nil
}

// TestStreamMemoryDoesNotGrowWithOpenCalls replays a generated transcript
// made only of tool calls never answered (about 100 MB; 12 MB with -short
// or -race): the Reader gives up the oldest call past MaxOpen, so between
// 40% of the transcript and its end the live heap must not grow by more
// than a few MB, whereas keeping every open call grows it by several
// times the transcript.
func TestStreamMemoryDoesNotGrowWithOpenCalls(t *testing.T) {
	size := 100 << 20
	if testing.Short() || raceEnabled {
		size = 12 << 20
	}
	src := &openCallStream{size: size}
	var (
		events         int
		base, peak     uint64
		baseAt, sample = size * 4 / 10, 0
	)
	rep, err := replay.Stream(context.Background(), replay.NewReader(src), func(r *replay.Record) error {
		events++
		if events%2048 != 0 {
			return nil
		}
		h := liveHeap()
		switch {
		case base == 0 && src.written >= baseAt:
			base, peak = h, h
		case base != 0:
			peak = max(peak, h)
			sample++
		}
		return nil
	}, goEngine(t, denyRm()))
	if err != nil {
		t.Fatal(err)
	}
	if sample < 4 {
		t.Fatalf("only %d samples after the baseline", sample)
	}
	growth := int64(peak) - int64(base)
	t.Logf("%d MB of open calls, %d events: live heap %.1f MB at 40%%, peak %.1f MB after (growth %.2f MB)",
		size>>20, events, float64(base)/(1<<20), float64(peak)/(1<<20), float64(growth)/(1<<20))
	if limit := int64(4 << 20); growth > limit {
		t.Errorf("the live heap grew by %.1f MB over the last 60%% of a %d MB transcript of open calls (limit %d MB)",
			float64(growth)/(1<<20), size>>20, limit>>20)
	}
	if rep.Events != events {
		t.Errorf("%d events streamed, report says %d", events, rep.Events)
	}
}

// TestOpenCallsCountedAsNoResult: in a transcript of calls never
// answered, more than MaxOpen and MaxHeld of them, every call reaches the
// sink as RecordedNone (none with an empty Recorded, which the table
// showed as SESSION "-"), and the summary counts every one as "no
// result"; a result read after its call was given up is skipped and
// counted, not replayed.
func TestOpenCallsCountedAsNoResult(t *testing.T) {
	var b strings.Builder
	src := &openCallStream{size: 1 << 30}
	const calls = replay.MaxOpen*3 + 17
	for src.n <= calls {
		src.Read(make([]byte, 0))
		b.Write(src.buf)
		src.buf = src.buf[:0]
	}
	// The result of the first call, long given up.
	b.WriteString(streamLine + `"type":"user","uuid":"late","timestamp":"2026-11-23T10:00:04Z","promptId":"p","message":{"role":"user","content":[{"tool_use_id":"toolu_000000001","type":"tool_result","content":"ok","is_error":false}]}}` + "\n")
	var pre, none int
	var lines []int
	rep, err := replay.Stream(context.Background(), replay.NewReader(strings.NewReader(b.String())), func(r *replay.Record) error {
		lines = append(lines, r.Line)
		if r.Event == replay.EventPreToolUse {
			pre++
			if r.Recorded == replay.RecordedNone {
				none++
			}
		}
		return nil
	}, goEngine(t))
	if err != nil {
		t.Fatal(err)
	}
	if pre != calls || none != calls {
		t.Errorf("%d PreToolUse records for %d calls, %d of them RecordedNone", pre, calls, none)
	}
	if !slices.IsSorted(lines) {
		t.Errorf("records out of order")
	}
	var out strings.Builder
	rep.WriteSummary(&out, 0)
	if want := fmt.Sprintf("(%d no result)", calls); !strings.Contains(out.String(), want) {
		t.Errorf("summary does not say %q:\n%s", want, out.String())
	}
	if got := rep.Stats.Skipped["tool_result of a call given up"]; got != 1 {
		t.Errorf("late result skipped %d times, want 1 (skipped: %v)", got, rep.Stats.Skipped)
	}
}
