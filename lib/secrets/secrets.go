package secrets

import (
	"cmp"
	"context"
	"slices"
	"strings"
)

// Finding is one credential found by Scan. Start and End are byte offsets
// into the scanned text and Match is text[Start:End]: the secret itself, not
// the label in front of it. Kind is the id of the detector that found it, one
// of Kinds().
type Finding struct {
	Kind       string
	Start, End int
	Match      string
}

// Scan returns every credential in text, sorted by Start and
// non-overlapping. Where matches of different detectors overlap, the
// longest wins, and on equal length the most specific detector wins.
func Scan(text string) []Finding {
	f, _ := scan(context.Background(), text, false)
	return f
}

// ScanContext is Scan that gives up with ctx's error when ctx ends: it
// looks at ctx between the passes of its detectors over text, so a huge
// text cannot hold a hook long past its deadline.
func ScanContext(ctx context.Context, text string) ([]Finding, error) {
	return scan(ctx, text, false)
}

// Contains reports whether text holds at least one credential Scan would
// report. It stops at the first one.
func Contains(text string) bool {
	f, _ := scan(context.Background(), text, true)
	return len(f) > 0
}

// ContainsContext is Contains that gives up when ctx ends, like
// ScanContext.
func ContainsContext(ctx context.Context, text string) (bool, error) {
	f, err := scan(ctx, text, true)
	return len(f) > 0, err
}

// RedactContext is Redact that gives up when ctx ends, like ScanContext.
func RedactContext(ctx context.Context, text string) (string, error) {
	found, err := scan(ctx, text, false)
	if err != nil {
		return "", err
	}
	return replace(text, found, func(f Finding) string { return "[REDACTED:" + f.Kind + "]" }), nil
}

// Redact returns text with every finding replaced by
// "[REDACTED:<kind>]".
func Redact(text string) string {
	return RedactWith(text, func(f Finding) string {
		return "[REDACTED:" + f.Kind + "]"
	})
}

// RedactWith returns text with every finding replaced by repl(finding).
// Text without findings is returned unchanged.
func RedactWith(text string, repl func(Finding) string) string {
	found, _ := scan(context.Background(), text, false)
	return replace(text, found, repl)
}

// replace returns text with each of found (sorted, non-overlapping)
// replaced by repl of it.
func replace(text string, found []Finding, repl func(Finding) string) string {
	if len(found) == 0 {
		return text
	}
	var b strings.Builder
	b.Grow(len(text))
	last := 0
	for _, f := range found {
		b.WriteString(text[last:f.Start])
		b.WriteString(repl(f))
		last = f.End
	}
	b.WriteString(text[last:])
	return b.String()
}

// Kinds returns the ids of the detectors, most specific first. The slice
// is the caller's to keep.
func Kinds() []string {
	kinds := make([]string, 0, len(detectors))
	for i := range detectors {
		if !slices.Contains(kinds, detectors[i].kind) {
			kinds = append(kinds, detectors[i].kind)
		}
	}
	return kinds
}

// candidate is a finding before overlap resolution; rank is the index of its
// detector in the table, lower is more specific.
type candidate struct {
	Finding
	rank int
}

func scan(ctx context.Context, text string, first bool) ([]Finding, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var (
		cands []candidate
		sites []site
		found bool
	)
	sitesDone := false
	may := candidates(text)
	for i := range detectors {
		d := &detectors[i]
		if may&(1<<i) == 0 {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		add := func(s, e int, m *match) bool {
			f, ok := d.check(text, s, e, m)
			if ok {
				found = true
				cands = append(cands, candidate{Finding: f, rank: i})
			}
			return !(ok && first)
		}
		switch {
		case d.re != nil:
			for _, m := range d.re().FindAllStringIndex(text, -1) {
				if !add(m[0], m[1], &match{}) {
					break
				}
			}
		case d.find != nil:
			d.find(text, func(s, e int) bool { return add(s, e, &match{}) })
		case d.keyword != nil:
			if !sitesDone {
				sites, sitesDone = findSites(text), true
			}
			for _, st := range sites {
				label := text[st.labelStart:st.labelEnd]
				kw := d.keyword(label)
				if kw == "" {
					continue
				}
				s, e, quoted, ok := d.value(text, st.valueAt)
				if !ok {
					continue
				}
				m := &match{
					label: lowerASCII(label), keyword: kw,
					quoted: quoted, spaced: st.spaced, compare: st.compare,
				}
				if !add(s, e, m) {
					break
				}
			}
		}
		if found && first {
			return []Finding{cands[len(cands)-1].Finding}, nil
		}
	}
	return resolve(cands), nil
}

// check applies the detector's checks to the candidate text[s:e]; m carries
// what the finder knows about the label, and gets the value filled in.
func (d *detector) check(text string, s, e int, m *match) (Finding, bool) {
	for e > s && isSpace(text[e-1]) {
		e--
	}
	if e <= s || e-s < d.minLen {
		return Finding{}, false
	}
	if d.bounded && (s > 0 && isAlnum(text[s-1]) || e < len(text) && isAlnum(text[e])) {
		return Finding{}, false
	}
	m.value = text[s:e]
	if d.valid != nil && !d.valid(m) {
		return Finding{}, false
	}
	return Finding{Kind: d.kind, Start: s, End: e, Match: text[s:e]}, true
}

// resolve keeps the longest, then most specific, of overlapping candidates
// and returns the survivors sorted by Start.
func resolve(cands []candidate) []Finding {
	if len(cands) == 0 {
		return nil
	}
	slices.SortFunc(cands, func(a, b candidate) int {
		if c := cmp.Compare(b.End-b.Start, a.End-a.Start); c != 0 {
			return c
		}
		if c := cmp.Compare(a.rank, b.rank); c != 0 {
			return c
		}
		return cmp.Compare(a.Start, b.Start)
	})
	// kept is sorted by Start and non-overlapping, so its Ends are sorted
	// too and one binary search finds the only possible overlap.
	kept := make([]Finding, 0, len(cands))
	for _, c := range cands {
		i, _ := slices.BinarySearchFunc(kept, c.Start, func(f Finding, start int) int {
			if f.End <= start {
				return -1
			}
			return 1
		})
		if i < len(kept) && kept[i].Start < c.End {
			continue
		}
		kept = slices.Insert(kept, i, c.Finding)
	}
	return kept
}

// lowerASCII lowercases ASCII letters only, so byte offsets into the result
// are byte offsets into s.
func lowerASCII(s string) string {
	i := 0
	for i < len(s) && (s[i] < 'A' || s[i] > 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for ; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return b.String()
}
