package natsstate

import "time"

// WithGCGrace sets how long past its expiry a key stays in the bucket, so
// that a test can watch the server remove it.
func WithGCGrace(d time.Duration) Option { return func(o *options) { o.gcGrace = d } }
