// Package bench holds hookctl's performance suite: the Go benchmarks of
// SPEC §8 (bench_test.go) and the peers they are compared with — the same
// ten hooks as an in-process Node.js runner in the style of OpenClaw, and as
// bash and python3 command hooks run one process per hook as Claude Code
// runs them (testdata/peers). The comparison program in ./compare runs
// them all in one go and prints medians and ratios.
package bench

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/jsonx"
)

// LoadEngine returns an engine loaded with a configuration, made with
// opts (HostOptions for the engine a host's answer fires).
func LoadEngine(path string, opts ...engine.Option) (*engine.Engine, *assemble.Config, error) {
	e, err := assemble.NewEngine(opts...)
	if err != nil {
		return nil, nil, err
	}
	cfg, err := assemble.Load(path, assemble.WithEngine(e))
	if err != nil {
		e.Close(context.Background())
		return nil, nil, err
	}
	if err := e.Load(cfg.Engine); err != nil {
		e.Close(context.Background())
		cfg.Close()
		return nil, nil, err
	}
	return e, cfg, nil
}

// HostOptions are the engine options that matter to a fire's cost in the
// engine runtime.Answer fires for a host (`hookctl claude`, the daemon):
// the hooks that ran cleanly are counted, not traced, since the reply
// shows only failures (engine.WithQuietRuns).
func HostOptions() []engine.Option { return []engine.Option{engine.WithQuietRuns()} }

// ReadPayload reads a JSON payload object.
func ReadPayload(path string) (map[string]any, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	p, err := jsonx.DecodeObject(b) // as every transport decodes payloads
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// SpawnParallel runs a command line n times at once through sh -c, each
// with stdin, and waits for all: one event of n command hooks, as Claude
// Code runs them. Exit status 2 (a block) is not an error.
func SpawnParallel(ctx context.Context, cmdline string, n int, stdin []byte) error {
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		wg.Go(func() {
			cmd := exec.CommandContext(ctx, "sh", "-c", cmdline)
			cmd.Stdin = bytes.NewReader(stdin)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Run(); err != nil {
				if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 2 {
					return
				}
				errs <- fmt.Errorf("%s: %v: %s", cmdline, err, out.Bytes())
			}
		})
	}
	wg.Wait()
	close(errs)
	return <-errs
}

// ShellForm is a command run as a host runs a hook's shell form (Claude
// Code: sh -c "LINE"), as SpawnParallel runs the bash and python3 peers:
// every process peer pays for the same shell.
func ShellForm(name string, args ...string) *exec.Cmd {
	line := shellQuote(name)
	for _, a := range args {
		line += " " + shellQuote(a)
	}
	return exec.Command("sh", "-c", line)
}

// shellQuote is s as one word of a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Build builds the hookctl command into dir and returns its path.
func Build(dir string) (string, error) {
	bin := filepath.Join(dir, "hookctl")
	for _, pkg := range []string{"cmd/hookctl", "cmd/hookctl-client"} {
		out, err := exec.Command("go", "build", "-o", dir+"/", "github.com/hookctl/hookctl/"+pkg).CombinedOutput()
		if err != nil {
			return "", fmt.Errorf("go build: %v: %s", err, out)
		}
	}
	return bin, nil
}

// ClientEnv is the environment of hookctl-client calls that share one
// daemon: env plus a private runtime directory and state directory in
// dir, and an idle timeout; stop ends the daemon.
func ClientEnv(env []string, dir string) ([]string, func(), error) {
	rt := filepath.Join(dir, "rt")
	if err := os.MkdirAll(rt, 0o700); err != nil {
		return nil, nil, err
	}
	env = append(env, "XDG_RUNTIME_DIR="+rt, "HOOKCTL_STATE_DIR="+filepath.Join(dir, "state"), "HOOKCTL_DAEMON_IDLE=30s")
	stop := func() { exec.Command("pkill", "-f", "--", "--socket "+rt).Run() }
	return env, stop, nil
}

// TrustEnv trusts config with the hookctl at bin, in a trust file in dir
// (hookctl claude and serve refuse an untrusted configuration), and
// returns the environment that finds that trust.
func TrustEnv(bin, config, dir string) ([]string, error) {
	env := append(os.Environ(), "HOOKCTL_TRUST_FILE="+filepath.Join(dir, "trusted.json"), "HOOKCTL_ALLOW_UNTRUSTED=")
	cmd := exec.Command(bin, "trust", "--config", config)
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("hookctl trust: %v: %s", err, out)
	}
	return env, nil
}

// StartServe starts `hookctl serve` on a free loopback port and returns
// the URL of its Claude endpoint and a function that stops it.
func StartServe(bin, config string) (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	addr := ln.Addr().String()
	ln.Close()
	state, err := os.MkdirTemp("", "hookctl-serve-state")
	if err != nil {
		return "", nil, err
	}
	env, err := TrustEnv(bin, config, state)
	if err != nil {
		os.RemoveAll(state)
		return "", nil, err
	}
	cmd := exec.Command(bin, "serve", "--config", config, "--listen", addr)
	cmd.Env = append(env, "HOOKCTL_STATE_DIR="+state)
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop := func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
		os.RemoveAll(state)
	}
	for i := 0; ; i++ {
		resp, err := http.Get("http://" + addr + "/healthz")
		if err == nil {
			resp.Body.Close()
			break
		}
		if i > 400 {
			stop()
			return "", nil, fmt.Errorf("hookctl serve did not come up on %s", addr)
		}
		time.Sleep(10 * time.Millisecond)
	}
	return "http://" + addr + "/claude", stop, nil
}
