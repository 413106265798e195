package natstest

import (
	"fmt"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// Options are the options of a server named name keeping its store in
// dir: loopback only, a port of its own, JetStream with small limits (the
// servers of a test share the machine), no logs and no signal handlers.
// A cluster node adds its Cluster and Routes.
func Options(name, dir string) server.Options {
	return server.Options{
		ServerName:         name,
		Host:               "127.0.0.1",
		Port:               -1,
		JetStream:          true,
		StoreDir:           dir,
		NoLog:              true,
		NoSigs:             true,
		JetStreamMaxMemory: 64 << 20,
		JetStreamMaxStore:  256 << 20,
	}
}

// Server is an in-process nats-server.
type Server struct {
	t    testing.TB
	opts server.Options
	mu   sync.Mutex
	srv  *server.Server
}

// New returns a server of opts, not started; t reports its failures.
func New(t testing.TB, opts server.Options) *Server { return &Server{t: t, opts: opts} }

// Start starts a single server named "single", stopped when the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	s := New(t, Options("single", t.TempDir()))
	s.Start()
	t.Cleanup(s.Stop)
	return s
}

// Start starts the server and waits until it takes connections; started
// again after Stop, it listens on the port it had.
func (s *Server) Start() {
	s.t.Helper()
	opts := s.opts
	srv, err := server.NewServer(&opts)
	if err != nil {
		s.t.Fatal(err)
	}
	go srv.Start()
	if !srv.ReadyForConnections(20 * time.Second) {
		srv.Shutdown()
		s.t.Fatalf("nats-server %s did not start", s.opts.ServerName)
	}
	s.opts.Port = srv.Addr().(*net.TCPAddr).Port
	s.mu.Lock()
	s.srv = srv
	s.mu.Unlock()
}

// Stop shuts the server down and waits until it has; stopping a stopped
// server does nothing.
func (s *Server) Stop() {
	s.mu.Lock()
	srv := s.srv
	s.srv = nil
	s.mu.Unlock()
	if srv != nil {
		srv.Shutdown()
		srv.WaitForShutdown()
	}
}

// URL is the server's client URL.
func (s *Server) URL() string { return fmt.Sprintf("nats://127.0.0.1:%d", s.opts.Port) }

// Name is the server's name.
func (s *Server) Name() string { return s.opts.ServerName }

// Running returns the running server, nil while stopped.
func (s *Server) Running() *server.Server {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.srv
}
