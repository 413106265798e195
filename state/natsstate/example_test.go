package natsstate_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/hookctl/hookctl/state/kv"
	"github.com/hookctl/hookctl/state/natsstate"
)

// Example starts an in-process NATS server (a deployment points at its
// own cluster instead), opens the shared state and uses its three parts.
func Example() {
	dir, _ := os.MkdirTemp("", "natsstate-example")
	defer os.RemoveAll(dir)
	srv, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: dir, NoLog: true, NoSigs: true})
	if err != nil {
		panic(err)
	}
	go srv.Start()
	if !srv.ReadyForConnections(10 * time.Second) {
		panic("nats-server did not start")
	}
	defer srv.WaitForShutdown()
	defer srv.Shutdown()

	ctx := context.Background()
	st, err := natsstate.Open(ctx, srv.ClientURL())
	if err != nil {
		panic(err)
	}
	defer st.Close()

	// The kv store, scoped as the hookctl/kv module scopes it.
	sess := kv.Scoped(st.KV(), kv.SessionScope("s1"))
	n, _ := sess.Incr(ctx, "bash.calls", 1, time.Hour)
	n, _ = sess.Incr(ctx, "bash.calls", 1, time.Hour)
	keys, _ := sess.Keys(ctx, "")
	fmt.Println(n, keys)

	// The Stop loop guard's count, shared by every replica.
	st.Loops().SetLoopCount(ctx, "Stop/s1", 1)
	c, _ := st.Loops().LoopCount(ctx, "Stop/s1")
	fmt.Println("loop count:", c)

	// One audit record per Write, as the engine writes them.
	st.Audit().Write([]byte(`{"time":"2025-06-01T12:00:00Z","event":"Stop","decision":"block"}` + "\n"))
	fmt.Printf("%+v\n", st.Audit().Stats())
	// Output:
	// 2 [bash.calls]
	// loop count: 1
	// {Published:1 Failed:0}
}
