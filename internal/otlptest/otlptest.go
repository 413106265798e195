// Package otlptest is an OTLP trace receiver for tests: it listens on
// 127.0.0.1 over OTLP/HTTP (protobuf) or OTLP/gRPC and keeps the spans it
// is sent, decoded with go.opentelemetry.io/proto/otlp.
package otlptest

import (
	"context"
	"encoding/hex"
	"io"
	"net"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
)

// Span is one received span with the resource it came with.
type Span struct {
	*tracepb.Span
	// Service is the resource's service.name.
	Service string
}

// TraceID is the span's trace id in hex.
func (s Span) TraceID() string { return hex.EncodeToString(s.Span.TraceId) }

// SpanID is the span's id in hex.
func (s Span) SpanID() string { return hex.EncodeToString(s.Span.SpanId) }

// ParentID is the parent span's id in hex ("" for a root span).
func (s Span) ParentID() string { return hex.EncodeToString(s.Span.ParentSpanId) }

// Attr returns an attribute's value as a string, an int or a bool (nil
// when the span has none).
func (s Span) Attr(key string) any {
	return attr(s.Span.Attributes, key)
}

func attr(kvs []*commonpb.KeyValue, key string) any {
	for _, kv := range kvs {
		if kv.Key != key {
			continue
		}
		switch v := kv.Value.Value.(type) {
		case *commonpb.AnyValue_StringValue:
			return v.StringValue
		case *commonpb.AnyValue_IntValue:
			return v.IntValue
		case *commonpb.AnyValue_BoolValue:
			return v.BoolValue
		case *commonpb.AnyValue_DoubleValue:
			return v.DoubleValue
		}
		return kv.Value.String()
	}
	return nil
}

// Receiver keeps the spans sent to it. It is safe for concurrent use.
type Receiver struct {
	// Endpoint is the URL to set OTEL_EXPORTER_OTLP_ENDPOINT to.
	Endpoint string

	mu      sync.Mutex
	spans   []Span
	arrived chan struct{}
}

func newReceiver() *Receiver { return &Receiver{arrived: make(chan struct{}, 1)} }

func (r *Receiver) add(req *coltracepb.ExportTraceServiceRequest) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, rs := range req.ResourceSpans {
		svc, _ := attr(rs.GetResource().GetAttributes(), "service.name").(string)
		for _, ss := range rs.ScopeSpans {
			for _, sp := range ss.Spans {
				r.spans = append(r.spans, Span{Span: sp, Service: svc})
			}
		}
	}
	select {
	case r.arrived <- struct{}{}:
	default:
	}
}

// Spans returns the spans received so far.
func (r *Receiver) Spans() []Span {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.spans)
}

// Wait waits up to d for a span named name and returns it.
func (r *Receiver) Wait(d time.Duration, name string) (Span, bool) {
	deadline := time.NewTimer(d)
	defer deadline.Stop()
	for {
		for _, s := range r.Spans() {
			if s.Name == name {
				return s, true
			}
		}
		select {
		case <-r.arrived:
		case <-deadline.C:
			return Span{}, false
		}
	}
}

// NewHTTP starts an OTLP/HTTP receiver on 127.0.0.1, stopped at the end
// of the test.
func NewHTTP(t testing.TB) *Receiver {
	t.Helper()
	r := newReceiver()
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/traces", func(w http.ResponseWriter, req *http.Request) {
		body, err := io.ReadAll(req.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var msg coltracepb.ExportTraceServiceRequest
		if err := proto.Unmarshal(body, &msg); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.add(&msg)
		out, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
		w.Header().Set("Content-Type", "application/x-protobuf")
		_, _ = w.Write(out)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	})
	r.Endpoint = "http://" + ln.Addr().String()
	return r
}

// NewGRPC starts an OTLP/gRPC receiver on 127.0.0.1, stopped at the end
// of the test.
func NewGRPC(t testing.TB) *Receiver {
	t.Helper()
	r := newReceiver()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	coltracepb.RegisterTraceServiceServer(srv, grpcService{r: r})
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(srv.Stop)
	r.Endpoint = "http://" + ln.Addr().String()
	return r
}

type grpcService struct {
	coltracepb.UnimplementedTraceServiceServer
	r *Receiver
}

func (g grpcService) Export(_ context.Context, req *coltracepb.ExportTraceServiceRequest) (*coltracepb.ExportTraceServiceResponse, error) {
	g.r.add(req)
	return &coltracepb.ExportTraceServiceResponse{}, nil
}
