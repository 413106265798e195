package state_test

import (
	"context"
	"fmt"

	"github.com/hookctl/hookctl/state"
)

// A Shared is made before the configuration is known (it is the store
// given to assemble.WithStore, and EngineOptions the engine's loop
// store), told where the state is (Configure, or Use), and opened on
// first use. With only the memory and file backends the program links no
// NATS client; state.WithNATS(natsbackend.Opener()) adds NATS.
func Example() {
	s := state.New("example")
	defer s.Close()
	b, err := state.ParseBackend(state.SettingState, "memory:")
	if err != nil {
		fmt.Println(err)
		return
	}
	s.Use(b)
	ctx := context.Background()
	s.Incr(ctx, "calls", 1, 0)
	n, err := s.Incr(ctx, "calls", 1, 0)
	fmt.Println(n, err, s.BackendInUse())

	_, err = state.ParseBackend(state.SettingState, "redis://cache:6379")
	fmt.Println(err)
	// Output:
	// 2 <nil> memory (settings.state)
	// settings.state: "redis://cache:6379": unknown state URL scheme "redis" (want memory:, file:///PATH, or nats:// or tls:// URLs)
}
