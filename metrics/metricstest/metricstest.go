// Package metricstest reads Prometheus text exposition in tests: scrape
// an endpoint, parse it with the Prometheus text parser, and look up one
// series' value by name and labels.
package metricstest

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// Families are parsed metric families by name. A Families is read-only
// once parsed and safe for concurrent reads.
type Families map[string]*dto.MetricFamily

// Parse reads the Prometheus text format.
func Parse(r io.Reader) (Families, error) {
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(r)
	if err != nil {
		return nil, fmt.Errorf("parsing metrics: %w", err)
	}
	return Families(fams), nil
}

// Scrape GETs url (asking for the text format) and parses the reply.
func Scrape(ctx context.Context, url string) (Families, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "text/plain; version=0.0.4")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		return nil, fmt.Errorf("GET %s: %s: %s", url, resp.Status, b)
	}
	return Parse(resp.Body)
}

// Value returns the value of the series of name whose labels include
// labels (name, value pairs). A histogram's name_count and name_sum are
// its sample count and sum. ok is false when no series matches.
func (f Families) Value(name string, labels ...string) (v float64, ok bool) {
	fam, suffix := f[name], ""
	if fam == nil {
		for _, s := range []string{"_count", "_sum"} {
			if base, found := strings.CutSuffix(name, s); found && f[base] != nil {
				fam, suffix = f[base], s
			}
		}
	}
	if fam == nil {
		return 0, false
	}
	for _, m := range fam.GetMetric() {
		if !hasLabels(m, labels) {
			continue
		}
		switch {
		case m.Counter != nil:
			return m.Counter.GetValue(), true
		case m.Gauge != nil:
			return m.Gauge.GetValue(), true
		case m.Untyped != nil:
			return m.Untyped.GetValue(), true
		case m.Histogram != nil && suffix == "_sum":
			return m.Histogram.GetSampleSum(), true
		case m.Histogram != nil:
			return float64(m.Histogram.GetSampleCount()), true
		}
	}
	return 0, false
}

// Series counts the series of name.
func (f Families) Series(name string) int {
	if fam := f[name]; fam != nil {
		return len(fam.GetMetric())
	}
	return 0
}

// LabelValues lists the values label takes in the series of name.
func (f Families) LabelValues(name, label string) []string {
	var out []string
	if fam := f[name]; fam != nil {
		for _, m := range fam.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == label {
					out = append(out, l.GetValue())
				}
			}
		}
	}
	return out
}

func hasLabels(m *dto.Metric, labels []string) bool {
	for i := 0; i+1 < len(labels); i += 2 {
		found := false
		for _, l := range m.GetLabel() {
			if l.GetName() == labels[i] && l.GetValue() == labels[i+1] {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// Want is the value a series should have: the series of Name whose
// labels include Labels (name, value pairs), as Value looks it up.
type Want struct {
	Value  float64
	Name   string
	Labels []string
}

// Check returns a line for each want whose series is missing or has
// another value (none when all hold).
func (f Families) Check(wants ...Want) []string {
	var out []string
	for _, w := range wants {
		got, ok := f.Value(w.Name, w.Labels...)
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("%s%v: no such series", w.Name, w.Labels))
		case got != w.Value:
			out = append(out, fmt.Sprintf("%s%v = %v, want %v", w.Name, w.Labels, got, w.Value))
		}
	}
	return out
}
