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
	"slices"
	"strconv"
	"strings"
	"sync"
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

// BenchmarkThroughputPaired is BenchmarkThroughput as paired rounds: an
// iteration is a round of calls from 8 concurrent clients to the daemon
// and as many to hookctl serve, one right after the other (in turn which
// goes first), so that the machine's changes of pace fall on both alike.
// It reports the median time per call of each (daemon-us, serve-us) and
// the median of the rounds' serve ÷ daemon (the daemon's throughput as a
// fraction of serve's; ≥ 0.8 is the target), with its lowest and highest
// round. Run with -benchtime Nx for N rounds.
func BenchmarkThroughputPaired(b *testing.B) {
	const clients, calls = 8, 2000
	data, err := os.ReadFile(filepath.Join("testdata", "peers", "payload.json"))
	if err != nil {
		b.Fatal(err)
	}
	bin := buildHookctl(b)
	cfg := abs(b, "testdata/peers/hooks.hcl")
	daemonCall, sock, stop := startDaemon(b, bin, cfg, data)
	defer stop()
	url, stopServe, err := StartServe(bin, cfg)
	if err != nil {
		b.Fatal(err)
	}
	defer stopServe()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients}}
	serveCall := func() error {
		resp, err := client.Post(url, "application/json", bytes.NewReader(data))
		if err != nil {
			return err
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			return fmt.Errorf("status %d", resp.StatusCode)
		}
		return nil
	}
	daemonPid, servePid := pidOf(b, "daemon --socket "+sock), pidOf(b, "serve --config "+cfg)
	// burst makes calls calls from clients goroutines and returns the
	// time per call and the CPU time the server process (pid) spent per call.
	burst := func(call func() error, pid int) (time.Duration, time.Duration) {
		var wg sync.WaitGroup
		errs := make(chan error, clients)
		cpu0 := cpuOf(pid)
		start := time.Now()
		for range clients {
			wg.Go(func() {
				for range calls / clients {
					if err := call(); err != nil {
						errs <- err
						return
					}
				}
			})
		}
		wg.Wait()
		elapsed := time.Since(start)
		cpu := cpuOf(pid) - cpu0
		close(errs)
		for err := range errs {
			b.Fatal(err)
		}
		return elapsed / calls, cpu / calls
	}
	burst(daemonCall, daemonPid) // warm both
	burst(serveCall, servePid)
	var d, s, dcpu, scpu []time.Duration
	var ratios []float64
	round := 0
	for b.Loop() {
		var dt, st, dc, sc time.Duration
		if round%2 == 0 {
			dt, dc = burst(daemonCall, daemonPid)
			st, sc = burst(serveCall, servePid)
		} else {
			st, sc = burst(serveCall, servePid)
			dt, dc = burst(daemonCall, daemonPid)
		}
		round++
		d, s, ratios = append(d, dt), append(s, st), append(ratios, float64(st)/float64(dt))
		dcpu, scpu = append(dcpu, dc), append(scpu, sc)
	}
	median := func(v []time.Duration) float64 {
		slices.Sort(v)
		return float64(v[len(v)/2].Nanoseconds()) / 1e3
	}
	slices.Sort(ratios)
	b.ReportMetric(median(d), "daemon-us")
	b.ReportMetric(median(s), "serve-us")
	if daemonPid > 0 && servePid > 0 {
		b.ReportMetric(median(dcpu), "daemon-cpu-us")
		b.ReportMetric(median(scpu), "serve-cpu-us")
	}
	b.ReportMetric(ratios[len(ratios)/2], "serve/daemon")
	b.ReportMetric(ratios[0], "serve/daemon-min")
	b.ReportMetric(ratios[len(ratios)-1], "serve/daemon-max")
}

// startDaemon starts a daemon for cfg as hookctl-client does (with a
// settled trust file) and returns a call of it over its socket with
// input data, without the client's process.
func startDaemon(b *testing.B, bin, cfg string, data []byte) (call func() error, sock string, stop func()) {
	dir := b.TempDir()
	env, err := TrustEnv(bin, cfg, dir)
	if err != nil {
		b.Fatal(err)
	}
	env, stop, err = ClientEnv(env, dir)
	if err != nil {
		b.Fatal(err)
	}
	env = dedupEnv(env)
	cmd := exec.Command(filepath.Join(filepath.Dir(bin), "hookctl-client"), "claude", "--config", cfg)
	cmd.Stdin, cmd.Env = bytes.NewReader(data), env
	if out, err := cmd.CombinedOutput(); err != nil { // starts the daemon
		stop()
		b.Fatalf("%v: %s", err, out)
	}
	// A trust file written within the file system clock's tick is read
	// on every call until it settles (trust.Index), as the daemon's calls
	// in use come long after hookctl trust.
	time.Sleep(3500 * time.Millisecond)
	id, err := daemon.Identity(bin)
	if err != nil {
		stop()
		b.Fatal(err)
	}
	cwd, _ := os.Getwd()
	attrs := daemon.ProcessAttrs()
	sock = daemon.Socket(filepath.Join(dir, "rt", "hookctl"), id, cwd, attrs, daemon.EnvKey(env))
	req := &daemon.Request{Protocol: daemon.Protocol, Identity: id, Hook: daemon.Hook{Command: "claude", Config: cfg},
		Stdin: data, Cwd: cwd, Env: env, Attrs: attrs}
	return func() error {
		resp, err := daemon.Call(sock, req)
		if err != nil {
			return err
		}
		if resp.Refused != "" || resp.Code != 0 {
			return fmt.Errorf("refused %q, exit %d: %s", resp.Refused, resp.Code, resp.Stderr)
		}
		return nil
	}, sock, stop
}

// pidOf is the process whose command line holds args (0 when there is
// no /proc to look in, or no such process).
func pidOf(b *testing.B, args string) int {
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline"))
		if err == nil && strings.Contains(string(bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '})), args) {
			return pid
		}
	}
	b.Logf("no process %q: no CPU time reported", args)
	return 0
}

// cpuOf is the CPU time (user and system) process pid has used, from
// /proc (0 when unknown).
func cpuOf(pid int) time.Duration {
	if pid <= 0 {
		return 0
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// Past the command's name, in parentheses: fields 14 and 15 are
	// utime and stime, in clock ticks (100 a second).
	_, rest, _ := bytes.Cut(stat, []byte(") "))
	f := strings.Fields(string(rest))
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * 10 * time.Millisecond
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
