package hcl_test

import (
	"testing"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/hcl"
)

// TestGivenEnvironment: env() reads the environment WithEnv gives, not
// the process's.
func TestGivenEnvironment(t *testing.T) {
	t.Setenv("HOOKCTL_HCL_ENV", "process")
	src := []byte("hook \"x\" {\n  event = \"Stop\"\n  decision = \"block\"\n  reason = env(\"HOOKCTL_HCL_ENV\", \"unset\")\n}\n")
	for _, tc := range []struct {
		opts []hcl.Option
		want string
	}{
		{nil, "process"},
		{[]hcl.Option{hcl.WithEnv(func(k string) (string, bool) {
			if k == "HOOKCTL_HCL_ENV" {
				return "request", true
			}
			return "", false
		})}, "request"},
		{[]hcl.Option{hcl.WithEnv(func(string) (string, bool) { return "", false })}, "unset"},
	} {
		cfg := hcl.ParseSource("x.hcl", src, t.TempDir(), tc.opts...)
		if d := cfg.Diagnostics(); d.HasErrors() {
			t.Fatal(d)
		}
		r, _ := engine.StaticResult(cfg.Hooks[0].Hook.Handler)
		if r["reason"] != tc.want {
			t.Errorf("reason %v, want %q", r["reason"], tc.want)
		}
	}
}
