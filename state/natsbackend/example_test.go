package natsbackend_test

import (
	"github.com/hookctl/hookctl/state"
	"github.com/hookctl/hookctl/state/natsbackend"
)

// The state hookctl's commands use: memory, a file or NATS, as the
// configuration's settings.state says.
func Example() {
	s := state.New("my-agent", state.WithNATS(natsbackend.Opener()), state.WithConnectTimeout(state.DefaultConnectTimeout))
	defer s.Close()
	b, err := state.ParseBackend(state.SettingState, "nats://127.0.0.1:4222")
	if err != nil {
		panic(err)
	}
	s.Use(b) // opened on first use: a kv call, the loop guard, an audit record
}
