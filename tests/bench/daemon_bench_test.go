package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/internal/daemon"
)

// bigWrite is a Claude Code PreToolUse payload of a Write of n bytes.
func bigWrite(b *testing.B, n int) []byte {
	line := "the quick brown fox jumps over the lazy dog; const x = 42; // padding\n"
	content := strings.Repeat(line, n/len(line)+1)[:n]
	p, err := json.Marshal(map[string]any{
		"session_id": "5571db9b-f86b-4717-a6e4-58d884fbb40d", "transcript_path": "/home/dev/t.jsonl", "cwd": "/home/dev/shop",
		"permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Write",
		"tool_input": map[string]any{"file_path": "/home/dev/shop/big.txt", "content": content}, "tool_use_id": "toolu_1",
	})
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkBigPayload is one hook call of the 10-hook configuration with a
// 10 MB Write payload: hookctl claude (a process that loads the
// configuration) against hookctl-client answered by a warm daemon. Run
// with -count: the rounds interleave.
func BenchmarkBigPayload(b *testing.B) {
	data := bigWrite(b, 10<<20)
	bin := buildHookctl(b)
	cfg := abs(b, "testdata/peers/hooks.hcl")
	run := func(b *testing.B, prog string, env []string) {
		cmd := exec.Command(prog, "claude", "--config", cfg)
		cmd.Stdin = bytes.NewReader(data)
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v: %s", err, out)
		}
	}
	b.Run("hookctl-claude", func(b *testing.B) {
		env, err := TrustEnv(bin, cfg, b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		env = append(env, "HOOKCTL_STATE_DIR="+b.TempDir())
		for b.Loop() {
			run(b, bin, env)
		}
	})
	b.Run("hookctl-client", func(b *testing.B) {
		dir := b.TempDir()
		env, err := TrustEnv(bin, cfg, dir)
		if err != nil {
			b.Fatal(err)
		}
		env, stop, err := ClientEnv(env, dir)
		if err != nil {
			b.Fatal(err)
		}
		defer stop()
		client := filepath.Join(filepath.Dir(bin), "hookctl-client")
		run(b, client, env) // starts the daemon
		for b.Loop() {
			run(b, client, env)
		}
	})
}

// BenchmarkThroughput is calls per second from 8 and 64 concurrent
// clients of one warm engine: the daemon over its socket (as
// hookctl-client calls it, without the client's process) against hookctl
// serve over HTTP. Compare the ns/op of the two at each client count.
func BenchmarkThroughput(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("testdata", "peers", "payload.json"))
	if err != nil {
		b.Fatal(err)
	}
	bin := buildHookctl(b)
	cfg := abs(b, "testdata/peers/hooks.hcl")
	for _, clients := range []int{8, 64} {
		b.Run(fmt.Sprintf("daemon/clients=%d", clients), func(b *testing.B) {
			dir := b.TempDir()
			env, err := TrustEnv(bin, cfg, dir)
			if err != nil {
				b.Fatal(err)
			}
			env, stop, err := ClientEnv(env, dir)
			if err != nil {
				b.Fatal(err)
			}
			defer stop()
			env = dedupEnv(env)
			cmd := exec.Command(filepath.Join(filepath.Dir(bin), "hookctl-client"), "claude", "--config", cfg)
			cmd.Stdin, cmd.Env = bytes.NewReader(data), env
			if out, err := cmd.CombinedOutput(); err != nil { // starts the daemon
				b.Fatalf("%v: %s", err, out)
			}
			// A trust file written within the file system clock's tick
			// is read on every call until it settles (trust.Index), as
			// the daemon's calls in use come long after hookctl trust.
			time.Sleep(3500 * time.Millisecond)
			id, err := daemon.Identity(bin)
			if err != nil {
				b.Fatal(err)
			}
			cwd, _ := os.Getwd()
			attrs := daemon.ProcessAttrs()
			sock := daemon.Socket(filepath.Join(dir, "rt", "hookctl"), id, cwd, attrs, daemon.EnvKey(env))
			req := &daemon.Request{Protocol: daemon.Protocol, Identity: id, Hook: daemon.Hook{Command: "claude", Config: cfg},
				Stdin: data, Cwd: cwd, Env: env, Attrs: attrs}
			b.SetParallelism(max(1, clients/runtime.GOMAXPROCS(0)))
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					resp, err := daemon.Call(sock, req)
					if err != nil {
						b.Error(err)
						return
					}
					if resp.Refused != "" || resp.Code != 0 {
						b.Errorf("refused %q, exit %d: %s", resp.Refused, resp.Code, resp.Stderr)
						return
					}
				}
			})
		})
		b.Run(fmt.Sprintf("serve/clients=%d", clients), func(b *testing.B) {
			url, stop, err := StartServe(bin, cfg)
			if err != nil {
				b.Fatal(err)
			}
			defer stop()
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients}}
			b.SetParallelism(max(1, clients/runtime.GOMAXPROCS(0)))
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					resp, err := client.Post(url, "application/json", bytes.NewReader(data))
					if err != nil {
						b.Error(err)
						return
					}
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode != 200 {
						b.Errorf("status %d", resp.StatusCode)
						return
					}
				}
			})
		})
	}
}

// dedupEnv keeps the last value of each variable, as exec.Cmd passes it.
func dedupEnv(env []string) []string {
	seen := map[string]bool{}
	var out []string
	for i := len(env) - 1; i >= 0; i-- {
		k, _, _ := strings.Cut(env[i], "=")
		if !seen[k] {
			seen[k] = true
			out = append(out, env[i])
		}
	}
	return out
}
