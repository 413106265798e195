package hosttime_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/hookctl/hookctl/internal/hosttime"
)

func TestDeadlines(t *testing.T) {
	for _, c := range []struct{ ht, margin, deadline, backstop time.Duration }{
		{2 * time.Second, 200 * time.Millisecond, 1800 * time.Millisecond, 1950 * time.Millisecond},
		{60 * time.Second, 5 * time.Second, 55 * time.Second, 58750 * time.Millisecond},
		{600 * time.Second, 5 * time.Second, 595 * time.Second, 598750 * time.Millisecond},
	} {
		if m, d, b := hosttime.Margin(c.ht), hosttime.Deadline(c.ht), hosttime.Backstop(c.ht); m != c.margin || d != c.deadline || b != c.backstop {
			t.Errorf("%s: margin %s deadline %s backstop %s", c.ht, m, d, b)
		}
		// The relaying caller gives up after the answering process's
		// latest answer (the deadline, then half the margin for the
		// hooks to be killed) and before the host does.
		if b := hosttime.Backstop(c.ht); b <= hosttime.Deadline(c.ht)+hosttime.Margin(c.ht)/2 || b >= c.ht {
			t.Errorf("%s: backstop %s not between the answer and the host's timeout", c.ht, b)
		}
	}
	for _, bad := range []string{"", "0", "-1s", "soon"} {
		if _, err := hosttime.Parse(bad); err != hosttime.ErrInvalid {
			t.Errorf("Parse(%q): %v", bad, err)
		}
	}
}

func ExampleDeadline() {
	ht, _ := hosttime.Parse("2s")
	fmt.Println(hosttime.Deadline(ht), hosttime.Backstop(ht))
	// Output: 1.8s 1.95s
}
