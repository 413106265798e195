package natsstate_test

import (
	"testing"
	"time"

	"github.com/hookctl/hookctl/state/natsstate"
)

// TestAuditMaxAgeSetsTheStreamLimit: WithAuditMaxAge is the audit stream's
// MaxAge when Open creates it; without it the stream keeps records for ever.
func TestAuditMaxAgeSetsTheStreamLimit(t *testing.T) {
	ts := sharedServer(t)
	name := bucketName(t)
	open(t, ts.URL(), natsstate.WithBucket(name), natsstate.WithAuditStream("A"+name, "audit."+name),
		natsstate.WithAuditMaxAge(90*time.Minute))
	if got := streamInfo(t, ts.URL(), "A"+name).Config.MaxAge; got != 90*time.Minute {
		t.Fatalf("audit stream MaxAge = %v, want 1h30m", got)
	}
	other := name + "b"
	open(t, ts.URL(), natsstate.WithBucket(other), natsstate.WithAuditStream("A"+other, "audit."+other))
	if got := streamInfo(t, ts.URL(), "A"+other).Config.MaxAge; got != 0 {
		t.Fatalf("audit stream MaxAge without the option = %v, want 0", got)
	}
}
