package natsstate

import (
	"errors"
	"fmt"
	"strings"
)

// Errors reported by the package. Test for them with errors.Is.
var (
	// ErrUnavailable is matched by every error of an operation that could
	// not be carried out because NATS or JetStream could not be reached:
	// the client is disconnected, the stream has no leader, or no reply
	// came before the context ended. Such an error is an *Error.
	ErrUnavailable = errors.New("NATS unavailable")
	// ErrOutcomeUnknown is matched, besides ErrUnavailable, by the error
	// of a write that was sent but never acknowledged: it may or may not
	// have been applied.
	ErrOutcomeUnknown = errors.New("the write may have been applied")
	// ErrClosed is returned by every operation after Close.
	ErrClosed = errors.New("natsstate: closed")
)

// Error is the error of an operation that NATS did not carry out, or did
// not confirm, because it could not be reached. It matches ErrUnavailable,
// ErrOutcomeUnknown when Unknown is set, and its cause.
type Error struct {
	// Op names the operation: get, set, delete, incr, cas, keys, audit,
	// open, ready, ping.
	Op string
	// Key is the key operated on, if any.
	Key string
	// Unknown is set for a write that was sent without an
	// acknowledgement coming back: it may have been applied.
	Unknown bool
	// Err is the cause: a nats.go error, a JetStream API error or the
	// context's error.
	Err error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("natsstate: ")
	b.WriteString(e.Op)
	if e.Key != "" {
		fmt.Fprintf(&b, " %q", e.Key)
	}
	b.WriteString(": ")
	b.WriteString(ErrUnavailable.Error())
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	if e.Unknown {
		b.WriteString(" (")
		b.WriteString(ErrOutcomeUnknown.Error())
		b.WriteString(")")
	}
	return b.String()
}

// Unwrap returns ErrUnavailable, ErrOutcomeUnknown if Unknown is set, and
// the cause.
func (e *Error) Unwrap() []error {
	errs := []error{ErrUnavailable}
	if e.Unknown {
		errs = append(errs, ErrOutcomeUnknown)
	}
	if e.Err != nil {
		errs = append(errs, e.Err)
	}
	return errs
}

// apiError is the error a JetStream API reply carries.
type apiError struct {
	Code        int    `json:"code"`
	ErrCode     uint16 `json:"err_code"`
	Description string `json:"description"`
}

func (e *apiError) Error() string {
	return fmt.Sprintf("jetstream: %s (status %d, error %d)", e.Description, e.Code, e.ErrCode)
}

// JetStream error codes the store acts on.
const (
	errCodeNoMessage    = 10037 // no message found
	errCodeWrongLastSeq = 10071 // wrong last sequence: a concurrent write won
	// A clustered stream refuses a write expecting a subject's last
	// sequence while another write to that subject is in flight.
	errCodeWrongLastSeqInFlight = 10164
	statusUnavailable           = 503
)

// transient reports whether the API error says the request was not
// carried out for a passing reason (no stream leader yet, JetStream
// busy), so that sending the same request again is safe and may succeed.
func (e *apiError) transient() bool {
	return e.Code == statusUnavailable
}
