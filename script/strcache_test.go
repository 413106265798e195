package script

import (
	"strconv"
	"strings"
	"testing"
)

// TestStringCacheIsBounded: the cache keeps short strings only, and at
// most maxCachedStrings of them, whatever a hook returns; what it returns
// is the string, cached or not.
func TestStringCacheIsBounded(t *testing.T) {
	var c stringCache
	for i := range 3 * maxCachedStrings {
		s := "reason " + strconv.Itoa(i)
		if got := c.box(s); got != s {
			t.Fatalf("box(%q) = %v", s, got)
		}
	}
	if len(c.m) != maxCachedStrings {
		t.Fatalf("%d strings cached, bound %d", len(c.m), maxCachedStrings)
	}
	long := strings.Repeat("x", maxCachedString+1)
	var fresh stringCache
	if got := fresh.box(long); got != long || len(fresh.m) != 0 {
		t.Fatalf("a long string was cached (%d entries)", len(fresh.m))
	}
	// The first strings seen stay: a hook's constant results.
	if _, ok := c.m["reason 0"]; !ok {
		t.Fatal("the first string seen was not kept")
	}
	var none *stringCache
	if got := none.box("deny"); got != "deny" {
		t.Fatalf("nil cache: %v", got)
	}
}
