package hooktest

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/internal/termsafe"
)

// Report is the result of a run.
type Report struct {
	// Config is the configuration path; Files the test files.
	Config string
	Files  []string
	// Tests are the tests run, in file order.
	Tests []Result
	// Coverage is the coverage of the configuration's hooks.
	Coverage *Coverage
	// Warnings are the configuration's and the test files' warnings.
	Warnings *hcl.Diagnostics
	// Duration is how long the tests took (the load not included).
	Duration time.Duration
}

// Result is one test's result.
type Result struct {
	Name string
	// File and Line are where the test is declared.
	File string
	Line int
	// Event is the event fired, canonical name.
	Event  string
	Passed bool
	// Failures are the expectations the outcome did not meet.
	Failures []Failure
	// Error is set when the fire itself failed (then Outcome is nil).
	Error    string
	Duration time.Duration
	Outcome  *engine.Outcome
	// Background are the final traces of the background hooks the fire
	// queued (the Outcome says "queued"), once they finished.
	Background []engine.HookTrace
}

// Passed reports whether every test passed.
func (r *Report) Passed() bool {
	_, failed := r.Counts()
	return failed == 0
}

// Counts returns the numbers of tests that passed and failed.
func (r *Report) Counts() (passed, failed int) {
	for _, t := range r.Tests {
		if t.Passed {
			passed++
		} else {
			failed++
		}
	}
	return
}

// WriteText writes the report as `go test` does: each failing test by
// name with what differed (every test, and its hooks' trace, when
// verbose), the coverage, and a last line that starts with ok or FAIL.
func (r *Report) WriteText(w io.Writer, verbose bool) error {
	ew := &errWriter{w: w}
	for _, t := range r.Tests {
		if verbose {
			ew.printf("=== RUN   %s\n", termsafe.Escape(t.Name))
			if t.Outcome != nil {
				writeTrace(ew, t.Outcome)
			}
		}
		switch {
		case t.Passed && verbose:
			ew.printf("--- PASS: %s (%s)\n", termsafe.Escape(t.Name), dur(t.Duration))
		case !t.Passed:
			ew.printf("--- FAIL: %s (%s)\n", termsafe.Escape(t.Name), dur(t.Duration))
			if t.Error != "" {
				ew.printf("    %s:%d: fire %s: %s\n", termsafe.Escape(t.File), t.Line, termsafe.Escape(t.Event), termsafe.Escape(t.Error))
			}
			for _, f := range t.Failures {
				ew.printf("    %s\n", f)
			}
		}
	}
	if len(r.Tests) == 0 {
		ew.printf("warning: no tests to run\n")
	} else {
		r.writeCoverage(ew)
	}
	passed, failed := r.Counts()
	if failed > 0 {
		ew.printf("FAIL\t%s\t%d of %d %s failed\t%s\n", r.Config, failed, passed+failed, plural(passed+failed, "test"), dur(r.Duration))
	} else {
		ew.printf("ok  \t%s\t%d %s passed\t%s\n", r.Config, passed, plural(passed, "test"), dur(r.Duration))
	}
	return ew.err
}

func (r *Report) writeCoverage(ew *errWriter) {
	c := r.Coverage
	if c == nil {
		return
	}
	reached, all, decided, canDecide := c.counts()
	ew.printf("coverage: %d of %d hooks reached, %d of %d that can decide decided\n", reached, all, decided, canDecide)
	list := func(label string, hs []*HookCoverage) {
		for i, h := range hs {
			if i == 0 {
				ew.printf("  %-15s", label)
			} else {
				ew.printf("  %-15s", "")
			}
			ew.printf("%s", termsafe.Escape(h.ID))
			if h.Source != "" {
				ew.printf(" (%s", termsafe.Escape(h.Source))
				if h.Disabled {
					ew.printf(", disabled")
				}
				ew.printf(")")
			}
			ew.printf("\n")
		}
	}
	list("not reached:", c.NotReached())
	list("never decided:", c.NeverDecided())
}

// writeTrace writes what a test's fire did: the outcome, then each hook.
func writeTrace(ew *errWriter, out *engine.Outcome) {
	verdict := "not blocked"
	if out.Blocked {
		verdict = "blocked"
	}
	ew.printf("    %s: %s", out.Event, verdict)
	if out.Decision != "" {
		ew.printf(", decision %s", out.Decision)
	}
	if out.Reason != "" {
		ew.printf(", reason %s", quote(out.Reason))
	}
	ew.printf("\n")
	width := 0
	for _, h := range out.Hooks {
		width = max(width, len(termsafe.Escape(h.ID)))
	}
	for _, h := range out.Hooks {
		ew.printf("      %-*s  %s\n", width, termsafe.Escape(h.ID), termsafe.Escape(statusText(h)))
	}
}

// dur formats a duration to the microsecond (hooks take microseconds, so
// go test's 0.00s would say nothing), to the millisecond past a second.
func dur(d time.Duration) string {
	if d >= time.Second {
		return d.Round(time.Millisecond).String()
	}
	return d.Round(time.Microsecond).String()
}

type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}

// jsonReport is the shape of WriteJSON.
type jsonReport struct {
	Config     string       `json:"config"`
	Files      []string     `json:"files"`
	Passed     int          `json:"passed"`
	Failed     int          `json:"failed"`
	DurationMS float64      `json:"duration_ms"`
	Tests      []jsonResult `json:"tests"`
	Coverage   jsonCoverage `json:"coverage"`
}

type jsonResult struct {
	Name       string          `json:"name"`
	File       string          `json:"file"`
	Line       int             `json:"line"`
	Event      string          `json:"event"`
	Passed     bool            `json:"passed"`
	DurationUS int64           `json:"duration_us"`
	Failures   []Failure       `json:"failures"`
	Error      string          `json:"error,omitempty"`
	Outcome    *engine.Outcome `json:"outcome,omitempty"`
}

type jsonCoverage struct {
	Hooks        []*HookCoverage `json:"hooks"`
	NotReached   []string        `json:"not_reached"`
	NeverDecided []string        `json:"never_decided"`
}

func ids(hs []*HookCoverage) []string {
	out := []string{}
	for _, h := range hs {
		out = append(out, h.ID)
	}
	return out
}

// WriteJSON writes the report as one indented JSON object: the counts,
// each test with its failures and outcome, and the coverage.
func (r *Report) WriteJSON(w io.Writer) error {
	passed, failed := r.Counts()
	jr := jsonReport{Config: r.Config, Files: r.Files, Passed: passed, Failed: failed,
		DurationMS: float64(r.Duration.Microseconds()) / 1000, Tests: []jsonResult{}}
	if jr.Files == nil {
		jr.Files = []string{}
	}
	for _, t := range r.Tests {
		fs := t.Failures
		if fs == nil {
			fs = []Failure{}
		}
		jr.Tests = append(jr.Tests, jsonResult{Name: t.Name, File: t.File, Line: t.Line, Event: t.Event, Passed: t.Passed,
			DurationUS: t.Duration.Microseconds(), Failures: fs, Error: t.Error, Outcome: t.Outcome})
	}
	if c := r.Coverage; c != nil {
		jr.Coverage = jsonCoverage{Hooks: c.Hooks, NotReached: ids(c.NotReached()), NeverDecided: ids(c.NeverDecided())}
	}
	if jr.Coverage.Hooks == nil {
		jr.Coverage.Hooks = []*HookCoverage{}
		jr.Coverage.NotReached, jr.Coverage.NeverDecided = []string{}, []string{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(jr)
}

// JUnit XML, as CI systems read it: a testsuite per test file.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Line      int           `xml:"line,attr,omitempty"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.6f", d.Seconds()) }

// WriteJUnit writes the report as JUnit XML: a testsuite per test file, a
// testcase per test, a failure listing what differed, an error when the
// fire itself failed.
func (r *Report) WriteJUnit(w io.Writer) error {
	out := junitSuites{Name: r.Config, Time: seconds(r.Duration)}
	index := map[string]int{}
	for _, t := range r.Tests {
		i, ok := index[t.File]
		if !ok {
			i = len(out.Suites)
			index[t.File] = i
			out.Suites = append(out.Suites, junitSuite{Name: t.File})
		}
		s := &out.Suites[i]
		c := junitCase{Name: t.Name, Classname: t.File, Time: seconds(t.Duration), File: t.File, Line: t.Line}
		switch {
		case t.Error != "":
			c.Error = &junitProblem{Message: "fire " + t.Event + ": " + t.Error, Type: "error", Text: t.Error}
			s.Errors++
			out.Errors++
		case !t.Passed:
			lines := make([]string, len(t.Failures))
			for j, f := range t.Failures {
				lines[j] = f.String()
			}
			msg := fmt.Sprintf("%d expectation(s) not met", len(t.Failures))
			if len(t.Failures) == 1 {
				msg = t.Failures[0].Field + ": want " + t.Failures[0].Want + ", got " + t.Failures[0].Got
			}
			c.Failure = &junitProblem{Message: msg, Type: "expectation", Text: strings.Join(lines, "\n")}
			s.Failures++
			out.Failures++
		}
		s.Tests++
		out.Tests++
		s.Cases = append(s.Cases, c)
	}
	for i := range out.Suites {
		var d time.Duration
		for _, t := range r.Tests {
			if t.File == out.Suites[i].Name {
				d += t.Duration
			}
		}
		out.Suites[i].Time = seconds(d)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
