package natsstate_test

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/hookctl/hookctl/state/natsstate"
	"github.com/hookctl/hookctl/state/natsstate/natstest"
)

// testServer is an in-process nats-server with JetStream (natstest).
type testServer = natstest.Server

// startServer starts a single server.
func startServer(t testing.TB) *testServer { return natstest.Start(t) }

// freePorts reserves n loopback ports for cluster routes, which must be
// known before the servers start.
func freePorts(t testing.TB, n int) []int {
	t.Helper()
	var ports []int
	var lns []net.Listener
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		lns = append(lns, ln)
		ports = append(ports, ln.Addr().(*net.TCPAddr).Port)
	}
	for _, ln := range lns {
		ln.Close()
	}
	return ports
}

// startCluster starts an n-node JetStream cluster, every node routing to
// every other, and waits until JetStream answers.
func startCluster(t testing.TB, n int) []*testServer {
	t.Helper()
	ports := freePorts(t, n)
	var routes []*url.URL
	for _, p := range ports {
		routes = append(routes, &url.URL{Scheme: "nats-route", Host: fmt.Sprintf("127.0.0.1:%d", p)})
	}
	nodes := make([]*testServer, n)
	var wg sync.WaitGroup
	for i := range n {
		opts := natstest.Options(fmt.Sprintf("n%d", i), t.TempDir())
		opts.Cluster = server.ClusterOpts{Name: "hookctl-test", Host: "127.0.0.1", Port: ports[i]}
		opts.Routes = routes
		nodes[i] = natstest.New(t, opts)
		t.Cleanup(nodes[i].Stop)
		wg.Go(nodes[i].Start)
	}
	wg.Wait()
	waitJetStream(t, clusterURL(nodes))
	return nodes
}

func clusterURL(nodes []*testServer) string {
	var urls []string
	for _, n := range nodes {
		if n.Running() != nil {
			urls = append(urls, n.URL())
		}
	}
	return strings.Join(urls, ",")
}

// plainJS connects a plain JetStream client, as another program would,
// to look at or write the streams behind the store's back. Call done
// when finished with it.
func plainJS(t testing.TB, url string) (js jetstream.JetStream, done func()) {
	t.Helper()
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	js, err = jetstream.New(nc)
	if err != nil {
		nc.Close()
		t.Fatal(err)
	}
	return js, nc.Close
}

// waitJetStream waits until JetStream answers account requests: the
// cluster elected its meta leader.
func waitJetStream(t testing.TB, urls string) {
	t.Helper()
	js, done := plainJS(t, urls)
	defer done()
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_, err := js.AccountInfo(ctx)
		cancel()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("JetStream not ready: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// open opens a State for a test and closes it when the test ends.
func open(t testing.TB, url string, opts ...natsstate.Option) *natsstate.State {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, err := natsstate.Open(ctx, url, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// shared is one server for the tests that need no server of their own.
var shared struct {
	once sync.Once
	ts   *testServer
	err  error
	dir  string
}

// sharedServer is started by the first test that asks and stopped by
// TestMain.
func sharedServer(t testing.TB) *testServer {
	t.Helper()
	shared.once.Do(func() {
		ts := natstest.New(t, natstest.Options("shared", shared.dir))
		ts.Start()
		shared.ts = ts
	})
	if shared.ts == nil {
		t.Fatal("shared server did not start")
	}
	return shared.ts
}

var unsafeName = regexp.MustCompile(`[^a-zA-Z0-9_-]+`)

// bucketName turns a test's name into a bucket name of its own.
func bucketName(t testing.TB) string {
	name := unsafeName.ReplaceAllString(t.Name(), "_")
	if len(name) > 60 {
		name = name[len(name)-60:]
	}
	return "t_" + name
}

// openShared opens a State on the shared server with a bucket and an
// audit stream of the test's own.
func openShared(t testing.TB, opts ...natsstate.Option) *natsstate.State {
	t.Helper()
	name := bucketName(t)
	opts = append([]natsstate.Option{
		natsstate.WithBucket(name),
		natsstate.WithAuditStream("A"+name, "audit."+name),
	}, opts...)
	return open(t, sharedServer(t).URL(), opts...)
}
