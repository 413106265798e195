package stdlib_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/ostest"
	"github.com/hookctl/hookctl/stdlib"
)

// mkfifo makes a FIFO that no process ever writes to or reads from.
func mkfifo(t *testing.T, p string) string {
	t.Helper()
	return ostest.Mkfifo(t, p)
}

// runWithin runs a hook and fails the test if it has not returned within
// d: a native call that ignores the deadline would hold it forever.
func (e *env) runWithin(t *testing.T, d time.Duration, body string, payload map[string]any, allow ...string) (engine.Result, error) {
	t.Helper()
	type res struct {
		r   engine.Result
		err error
	}
	ch := make(chan res, 1)
	go func() {
		r, err := e.run(t, body, payload, allow...)
		ch <- res{r, err}
	}()
	select {
	case r := <-ch:
		return r.r, r.err
	case <-time.After(d):
		t.Fatalf("the hook still runs after %v: %s", d, body)
		return nil, nil
	}
}

// TestFSReadRefusesFIFO: fs.read of a FIFO inside the project (no
// capability needed) hung past the hook's timeout; now it fails at once.
func TestFSReadRefusesFIFO(t *testing.T) {
	e := newEnv(t, stdlib.Options{})
	mkfifo(t, filepath.Join(e.project, "pipe"))
	for _, body := range []string{
		`require("hookctl/fs").read("pipe");`,
		`require("hookctl/fs").list("pipe");`,
		`require("hookctl/fs").glob("pipe/*");`,
	} {
		_, err := e.runWithin(t, 10*time.Second, body, nil)
		if body == `require("hookctl/fs").glob("pipe/*");` {
			if err != nil {
				t.Errorf("%s: %v", body, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), "FIFO") {
			t.Errorf("%s: %v, want a FIFO refusal", body, err)
		}
	}
	r := e.must(t, `const s = require("hookctl/fs").stat("pipe"); return { additional_context: s.isFile + "|" + s.isDir };`, nil)
	if r["additional_context"] != "false|false" {
		t.Errorf("stat of a FIFO: %v", r)
	}
}

// TestFSWriteRefusesFIFO: fs.write, fs.append and log.append open for
// writing, which blocks on a FIFO until a reader comes.
func TestFSWriteRefusesFIFO(t *testing.T) {
	e := newEnv(t, stdlib.Options{})
	mkfifo(t, filepath.Join(e.project, "pipe"))
	for _, body := range []string{
		`require("hookctl/fs").write("pipe", "x");`,
		`require("hookctl/fs").append("pipe", "x");`,
		`require("hookctl/log").append("pipe", { a: 1 });`,
	} {
		if _, err := e.runWithin(t, 10*time.Second, body, nil, "write"); err == nil || !strings.Contains(err.Error(), "FIFO") {
			t.Errorf("%s: %v, want a FIFO refusal", body, err)
		}
	}
}

// TestFSRefusesDevicesAndProc: with the read capability a hook may read
// outside the roots, but not endless or blocking files.
func TestFSRefusesDevicesAndProc(t *testing.T) {
	e := newEnv(t, stdlib.Options{})
	for _, p := range []string{"/dev/zero", "/dev/urandom", "/proc/self/status", "/dev/stdin"} {
		if _, err := os.Stat(p); err != nil {
			continue
		}
		_, err := e.runWithin(t, 10*time.Second, `require("hookctl/fs").read(`+jsString(p)+`, { maxBytes: 1000 });`, nil, "read")
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("fs.read(%s): %v", p, err)
		}
	}
	if _, err := e.run(t, `require("hookctl/fs").read("x", { maxBytes: 1e12 });`, nil); err == nil || !strings.Contains(err.Error(), "maxBytes") {
		t.Errorf("an unbounded maxBytes was accepted: %v", err)
	}
}

// TestTranscriptRefusesFIFO: transcript.read() on a FIFO transcript_path
// (the payload's, no capability needed) hung past the hook's timeout.
func TestTranscriptRefusesFIFO(t *testing.T) {
	e := newEnv(t, stdlib.Options{})
	p := mkfifo(t, filepath.Join(t.TempDir(), "transcript.jsonl"))
	for _, body := range []string{
		`require("hookctl/transcript").read();`,
		`require("hookctl/transcript").read({ maxBytes: -1 });`,
		`require("hookctl/transcript").lastAssistantText();`,
	} {
		_, err := e.runWithin(t, 10*time.Second, body, map[string]any{"transcript_path": p})
		if err == nil || !strings.Contains(err.Error(), "FIFO") {
			t.Errorf("%s: %v, want a FIFO refusal", body, err)
		}
	}
}

// TestFSGlobStaysInsideRoots: fs.glob("link/*") followed a symbolic link
// out of the roots and listed what it pointed to. Every directory a glob
// reads and every match must be inside the roots after the links are
// resolved; with the read capability the walk may leave them.
func TestFSGlobStaysInsideRoots(t *testing.T) {
	e := newEnv(t, stdlib.Options{})
	outside := t.TempDir()
	for _, f := range []string{"secret.txt", "sub/deep.txt"} {
		p := filepath.Join(outside, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(e.project, "mine.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(e.project, "link")); err != nil {
		t.Skip(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(e.project, "filelink.txt")); err != nil {
		t.Fatal(err)
	}
	glob := func(pattern string, allow ...string) string {
		r := e.must(t, `return { additional_context: require("hookctl/fs").glob(`+jsString(pattern)+`).join(",") };`, nil, allow...)
		s, _ := r["additional_context"].(string)
		return s
	}
	for pattern, want := range map[string]string{
		"link/*":       "",
		"link/**":      "",
		"link/sub/*":   "",
		"*/secret.txt": "",
		"**/*.txt":     "mine.txt",
		"*":            "mine.txt",
		"*.txt":        "mine.txt",
	} {
		if got := glob(pattern); got != want {
			t.Errorf("glob(%q) = %q, want %q", pattern, got, want)
		}
	}
	if got := glob("link/*", "read"); got != "link/secret.txt,link/sub" {
		t.Errorf("glob with the read capability = %q", got)
	}
	if _, err := e.run(t, `require("hookctl/fs").list("link");`, nil); err == nil || !strings.Contains(err.Error(), "outside") {
		t.Errorf("fs.list of a link out of the roots: %v", err)
	}
	if _, err := e.run(t, `require("hookctl/fs").glob("*", { cwd: "link" });`, nil); err == nil || !strings.Contains(err.Error(), "outside") {
		t.Errorf("fs.glob with cwd through a link out of the roots: %v", err)
	}
}

// TestHTTPModuleAllowlistIsParsed: http_allow was a string prefix, so
// user info and a longer port got through; a path prefix matched inside a
// segment; redirects are checked hop by hop.
func TestHTTPModuleAllowlistIsParsed(t *testing.T) {
	hits := make(chan string, 16)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits <- r.URL.Path
		if r.URL.Path == "/api/redirect" {
			http.Redirect(w, r, "/apix/landed", http.StatusFound)
			return
		}
		io.WriteString(w, `{}`)
	}))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	_, port, _ := strings.Cut(host, ":")
	// An entry whose port is a prefix of the server's port.
	short := "http://127.0.0.1:" + port[:len(port)-1]
	e := newEnv(t, stdlib.Options{HTTPAllow: []string{short, srv.URL + "/api"}})
	get := func(u string) error {
		_, err := e.run(t, `require("hookctl/http").get(`+jsString(u)+`);`, nil, "net")
		return err
	}
	for _, u := range []string{
		short + "@" + host + "/", // user info that starts like the entry
		srv.URL + "/apix",
		srv.URL + "/",
		srv.URL + "/api/../secret",
		"http://user@" + host + "/api/x",
	} {
		if err := get(u); err == nil || !strings.Contains(err.Error(), "http.get") {
			t.Errorf("%s was allowed (%v)", u, err)
		}
	}
	select {
	case p := <-hits:
		t.Fatalf("the server was reached at %s", p)
	default:
	}
	if err := get(srv.URL + "/api/x"); err != nil {
		t.Fatal(err)
	}
	<-hits
	// The module follows no redirect, so the 302 comes back as it is.
	r := e.must(t, `return { additional_context: String(require("hookctl/http").get(`+jsString(srv.URL+"/api/redirect")+`).status) };`, nil, "net")
	if r["additional_context"] != "302" {
		t.Fatalf("%v", r)
	}
	<-hits
	// A client that follows redirects still has every hop checked.
	e = newEnv(t, stdlib.Options{HTTPAllow: []string{srv.URL + "/api"}, HTTPClient: &http.Client{}})
	if _, err := e.run(t, `require("hookctl/http").get(`+jsString(srv.URL+"/api/redirect")+`);`, nil, "net"); err == nil || !strings.Contains(err.Error(), "redirect") {
		t.Fatalf("redirect out of the list: %v", err)
	}
	<-hits
	select {
	case p := <-hits:
		t.Fatalf("the redirect was followed to %s", p)
	default:
	}
	if _, err := stdlib.Modules(stdlib.Options{HTTPAllow: []string{"127.0.0.1:1899"}}); err == nil {
		t.Fatal("an entry that is not a URL was accepted")
	}
}
