package server

import (
	"io"

	"github.com/hookctl/hookctl/internal/jsonlimit"
)

// Default bounds of one hook input (see InputLimits).
const (
	// MaxInput bounds the bytes of the hook JSON Claude Code sends.
	MaxInput = jsonlimit.DefaultMaxBytes
	// MaxInputDepth bounds how deeply its objects and arrays nest.
	MaxInputDepth = jsonlimit.DefaultMaxDepth
	// MaxInputValues bounds how many JSON values it holds (objects,
	// arrays, strings, numbers, booleans and nulls; object keys are not
	// counted).
	MaxInputValues = jsonlimit.DefaultMaxValues
)

// InputLimits bound one hook input before it is decoded: the bytes, the
// nesting and the number of values are counted as the input is read, and
// input past any of them is refused before it is turned into Go values, so
// that what a decoded input holds in memory is bounded by about
// 2*MaxBytes + 128*MaxValues bytes. A zero field takes the default.
type InputLimits struct {
	MaxBytes  int64
	MaxDepth  int
	MaxValues int
}

// DefaultInputLimits returns the limits of `hookctl claude`: MaxInput
// bytes, MaxInputDepth levels and MaxInputValues values.
func DefaultInputLimits() InputLimits {
	return InputLimits{MaxBytes: MaxInput, MaxDepth: MaxInputDepth, MaxValues: MaxInputValues}
}

func (l InputLimits) withDefaults() InputLimits {
	d := DefaultInputLimits()
	if l.MaxBytes <= 0 {
		l.MaxBytes = d.MaxBytes
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = d.MaxDepth
	}
	if l.MaxValues <= 0 {
		l.MaxValues = d.MaxValues
	}
	return l
}

// Names of the input limits, as LimitError.Limit gives them.
const (
	LimitBytes  = jsonlimit.LimitBytes
	LimitDepth  = jsonlimit.LimitDepth
	LimitValues = jsonlimit.LimitValues
)

// LimitError is hook input refused because it is past one of its limits:
// Limit names it (LimitBytes, LimitDepth or LimitValues) and Max is its
// value. It is wrapped in an *InputError.
type LimitError = jsonlimit.LimitError

// valueCost estimates the memory one decoded JSON value takes beyond its
// bytes (jsonlimit.ValueCost).
const valueCost = jsonlimit.ValueCost

// budget is what a reader of hook input reserves memory from (the
// server's bound on all the requests it holds at once); reserve reports
// false when n more bytes do not fit.
type budget interface {
	reserve(n int64) bool
}

// errBudget is input that did not fit in the memory left: it may fit
// later.
var errBudget = jsonlimit.ErrBudget

// readBounded reads r to its end within lim (jsonlimit.Read) and returns
// its bytes. When b is not nil, the estimated decoded size of the input
// is reserved from it as it is read, and errBudget returned if it does
// not fit; the caller releases what was reserved (the reserved result),
// also on error.
func readBounded(r io.Reader, lim InputLimits, b budget) (data []byte, reserved int64, err error) {
	lim = lim.withDefaults()
	var reserve func(int64) bool
	if b != nil {
		reserve = b.reserve
	}
	return jsonlimit.Read(r, jsonlimit.Limits{MaxBytes: lim.MaxBytes, MaxDepth: lim.MaxDepth, MaxValues: lim.MaxValues}, reserve)
}
