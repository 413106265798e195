package state_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hookctl/hookctl/state"
)

// A Shared made before the configuration is known, told where the state
// is, opened on first use. With only memory and file backends the
// program links no NATS client; state.WithNATS(natsbackend.Opener())
// adds NATS.
func Example() {
	dir, _ := os.MkdirTemp("", "state-example")
	defer os.RemoveAll(dir)

	s := state.New("example")
	defer s.Close()
	b, err := state.ParseBackend(state.SettingState, "file://"+filepath.ToSlash(filepath.Join(dir, "kv.json")))
	if err != nil {
		fmt.Println(err)
		return
	}
	s.Use(b)
	ctx := context.Background()
	n, err := s.Incr(ctx, "calls", 1, 0)
	fmt.Println(n, err, s.BackendInUse().Kind())

	_, err = state.ParseBackend(state.SettingState, "redis://cache:6379")
	fmt.Println(err)
	// Output:
	// 1 <nil> file
	// settings.state: "redis://cache:6379": unknown state URL scheme "redis" (want memory:, file:///PATH, or nats:// or tls:// URLs)
}
