package syncbuf_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/hookctl/hookctl/internal/syncbuf"
)

// Writers and a reader at once lose nothing (and, under -race, race on
// nothing).
func TestConcurrentWritesAndReads(t *testing.T) {
	var b syncbuf.Buffer
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for range 100 {
				fmt.Fprintf(&b, "%d\n", i)
				_ = b.String()
			}
		})
	}
	wg.Wait()
	if n := strings.Count(b.String(), "\n"); n != 800 {
		t.Fatalf("%d lines, want 800", n)
	}
}

func ExampleBuffer() {
	var b syncbuf.Buffer
	fmt.Fprint(&b, "written")
	fmt.Println(b.String())
	// Output: written
}
