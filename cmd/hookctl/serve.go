package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/hookctl/hookctl/claude"
	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/stdlib/kv"
)

func newServeCmd(a *app) *cobra.Command {
	var listen string
	var allowRemote, allowUntrustedFlag bool
	var interval, grace time.Duration
	cmd := &cobra.Command{
		Use:   "serve [--config PATH] [--listen ADDR]",
		Short: "Serve hooks over HTTP: Claude Code http hooks and POST /v1/fire/{event}",
		Long: `serve runs one engine for every event, with no process start per event:

  POST /claude              a Claude Code http hook ("type": "http", "url": "http://ADDR/claude")
  POST /v1/fire/{event}     a payload object in, the outcome JSON out (any HTTP client)
  GET  /healthz             status

It listens on loopback unless --allow-remote, reloads the configuration when its
files change (a broken configuration keeps the last good one serving), and on
SIGINT or SIGTERM stops accepting requests, finishes those in flight and drains
background hooks.

It serves only a configuration trusted with "hookctl trust" and unchanged since:
an untrusted one is refused at start (exit 1), and a reload whose files changed
since they were trusted is refused while the last good configuration keeps
serving; running "hookctl trust" then makes it reload. --allow-untrusted or
HOOKCTL_ALLOW_UNTRUSTED=1 serves it anyway.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			path, err := a.discover(true)
			if err != nil {
				return err
			}
			host, _, err := net.SplitHostPort(listen)
			if err != nil {
				return usageError("--listen %q: %v", listen, err)
			}
			if ip := net.ParseIP(host); !allowRemote && (ip == nil && host != "localhost" || ip != nil && !ip.IsLoopback()) {
				return usageError("--listen %s is not a loopback address; pass --allow-remote to serve other hosts", listen)
			}
			store, err := openStore()
			if err != nil {
				return &exitError{code: exitFailure, err: err}
			}
			eng, err := a.newEngine(nil, engineLoopStore(store))
			if err != nil {
				return err
			}
			var mu sync.Mutex
			status := map[string]any{"config": path, "trust": "checked"}
			opts := []hcl.WatchOption{hcl.WithInterval(interval),
				hcl.WithLoadOptions(hcl.WithProjectDir(projectDir()), hcl.WithLogger(a.logger()), hcl.WithStore(store))}
			untrusted := allowUntrusted(allowUntrustedFlag)
			if untrusted {
				status["trust"] = "not checked (--allow-untrusted)"
			} else {
				// Every load, the first included, is of a trusted
				// configuration; trusting it (a change of the trust file)
				// retries a refused reload.
				opts = append(opts, hcl.WithGate(checkTrust), hcl.WatchFiles(trustWatchFiles(path)))
			}
			started := false
			opts = append(opts, hcl.OnReload(func(cfg *hcl.Config, err error) {
				mu.Lock()
				defer mu.Unlock()
				if !started {
					return // the first load: reported below
				}
				status["reloaded_at"] = time.Now().UTC().Format(time.RFC3339)
				if err != nil {
					status["last_error"] = err.Error()
					var ue *untrustedError
					if errors.As(err, &ue) {
						fmt.Fprintf(a.stderr, "hookctl: not reloading: %v; the previous configuration keeps serving\n", err)
						return
					}
					fmt.Fprintf(a.stderr, "hookctl: reload failed; the previous configuration keeps serving:\n%v\n", err)
					return
				}
				delete(status, "last_error")
				status["hooks"] = len(cfg.Engine.Hooks)
			}))
			w, err := hcl.Watch(eng, path, opts...)
			if err != nil {
				eng.Close(context.Background())
				var d *hcl.Diagnostics
				if errors.As(err, &d) {
					d.Render(a.stderr)
					return silent(exitFailure)
				}
				var ue *untrustedError
				if errors.As(err, &ue) {
					return &exitError{code: exitFailure, err: fmt.Errorf("%w; not serving it (to serve it without trust, use --allow-untrusted or set %s=1)", err, allowUntrustedEnv)}
				}
				return &exitError{code: exitFailure, err: err}
			}
			mu.Lock()
			started = true
			status["reloaded_at"] = time.Now().UTC().Format(time.RFC3339)
			status["hooks"] = len(w.Config().Engine.Hooks)
			mu.Unlock()
			srv := &http.Server{
				Handler: claude.NewServer(eng, func() map[string]any {
					mu.Lock()
					defer mu.Unlock()
					out := make(map[string]any, len(status))
					for k, v := range status {
						out[k] = v
					}
					return out
				}),
				ReadHeaderTimeout: 10 * time.Second,
			}
			ln, err := net.Listen("tcp", listen)
			if err != nil {
				w.Close()
				eng.Close(context.Background())
				return &exitError{code: exitFailure, err: err}
			}
			if untrusted {
				fmt.Fprintf(a.stderr, "hookctl: serving %s on http://%s (not checked for trust: --allow-untrusted)\n", path, ln.Addr())
			} else {
				fmt.Fprintf(a.stderr, "hookctl: serving %s on http://%s\n", path, ln.Addr())
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			errc := make(chan error, 1)
			go func() { errc <- srv.Serve(ln) }()
			select {
			case <-ctx.Done():
			case err := <-errc:
				if !errors.Is(err, http.ErrServerClosed) {
					fmt.Fprintf(a.stderr, "hookctl: %v\n", err)
				}
			}
			fmt.Fprintln(a.stderr, "hookctl: shutting down")
			sctx, cancel := context.WithTimeout(context.Background(), grace)
			defer cancel()
			_ = srv.Shutdown(sctx)
			w.Close()
			if err := eng.Close(sctx); err != nil {
				fmt.Fprintf(a.stderr, "hookctl: %v\n", err)
			}
			w.Config().Close()
			st := eng.Stats()
			fmt.Fprintf(a.stderr, "hookctl: stopped after %d fires; background hooks: %d done, %d dropped\n", st.Fires, st.BackgroundDone, st.BackgroundDropped)
			return nil
		},
	}
	cmd.Flags().StringVarP(&listen, "listen", "l", "127.0.0.1:8765", "address to listen on")
	cmd.Flags().BoolVar(&allowRemote, "allow-remote", false, "allow a non-loopback listen address")
	cmd.Flags().BoolVar(&allowUntrustedFlag, "allow-untrusted", false, "serve the configuration even if it is not trusted (see hookctl trust)")
	cmd.Flags().DurationVar(&interval, "reload-interval", time.Second, "how often to check the configuration's files")
	cmd.Flags().DurationVar(&grace, "shutdown-timeout", 30*time.Second, "how long shutdown waits for requests and background hooks")
	return cmd
}

// openStore opens the file-backed kv store of long-running and one-shot
// processes alike.
func openStore() (kv.Store, error) {
	p, err := kv.DefaultPath()
	if err != nil {
		return nil, err
	}
	return kv.OpenFile(p)
}
