package server_test

import (
	"context"
	"testing"

	"go.uber.org/goleak"

	"github.com/hookctl/hookctl/engine"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreCurrent())
}

func newEngine(t *testing.T) *engine.Engine {
	t.Helper()
	e, err := engine.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close(context.Background()) })
	return e
}
