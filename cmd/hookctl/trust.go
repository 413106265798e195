package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/hookctl/hookctl/hcl"
)

// Trust: `hookctl claude` and `hookctl serve` run a configuration only if
// the user trusted it with `hookctl trust`, and only as it was then. The
// trust records live in one per-user file; each pins the content of the
// files the configuration loads (see trustset.go for which).

// allowUntrustedEnv lets a configuration run without trust (for
// `hookctl claude`, which Claude Code starts from settings.json).
const allowUntrustedEnv = "HOOKCTL_ALLOW_UNTRUSTED"

// trustFileEnv names the trust file instead of the default.
const trustFileEnv = "HOOKCTL_TRUST_FILE"

// trustVersion is the version of the trust file format.
const trustVersion = 1

// trustStore is the trust file.
type trustStore struct {
	Version int `json:"version"`
	// Configs maps a configuration's canonical absolute path (a file or
	// a directory) to its record.
	Configs map[string]*trustRecord `json:"configs"`
}

// trustRecord is one trusted configuration.
type trustRecord struct {
	// SHA256 is the digest of Files (see digest).
	SHA256    string    `json:"sha256"`
	TrustedAt time.Time `json:"trusted_at"`
	// Walk pins every file under the configuration directory (the
	// configuration names files by computed names).
	Walk bool `json:"walk,omitempty"`
	// Files maps each pinned file (relative to the configuration
	// directory, or absolute outside it) to the hex SHA-256 of its
	// content, or "absent" for a file that must not appear.
	Files map[string]string `json:"files"`
}

// present counts the pinned files that exist.
func (r *trustRecord) present() int {
	n := 0
	for _, h := range r.Files {
		if h != absentHash {
			n++
		}
	}
	return n
}

// allowUntrusted reports whether --allow-untrusted or
// HOOKCTL_ALLOW_UNTRUSTED (1, true, yes) lets an untrusted configuration run.
func allowUntrusted(flag bool) bool {
	if flag {
		return true
	}
	v := strings.TrimSpace(os.Getenv(allowUntrustedEnv))
	if b, err := strconv.ParseBool(v); err == nil {
		return b
	}
	return strings.EqualFold(v, "yes") || strings.EqualFold(v, "on")
}

// trustFile is $HOOKCTL_TRUST_FILE, else hookctl/trusted.json in the
// user's configuration directory.
func trustFile() (string, error) {
	if p := os.Getenv(trustFileEnv); p != "" {
		return filepath.Abs(p)
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("no trust file: set $%s or $HOME: %w", trustFileEnv, err)
	}
	return filepath.Join(dir, "hookctl", "trusted.json"), nil
}

// readTrustStore reads the trust file; a missing one is empty. A trust
// file other users can write is refused: they could trust for you.
func readTrustStore(path string) (*trustStore, error) {
	st := &trustStore{Version: trustVersion, Configs: map[string]*trustRecord{}}
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return nil, fmt.Errorf("trust file: %w", err)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm()&0o022 != 0 {
		return nil, fmt.Errorf("trust file %s is writable by other users (mode %04o); run chmod 600 %s", path, fi.Mode().Perm(), shellQuote(path))
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("trust file: %w", err)
	}
	if err := json.Unmarshal(b, st); err != nil {
		return nil, fmt.Errorf("trust file %s: %w", path, err)
	}
	if st.Version != trustVersion {
		return nil, fmt.Errorf("trust file %s: version %d, this hookctl reads version %d", path, st.Version, trustVersion)
	}
	if st.Configs == nil {
		st.Configs = map[string]*trustRecord{}
	}
	return st, nil
}

// writeTrustStore replaces the trust file atomically (a temporary file in
// the same directory, renamed over it), readable by its owner only.
func writeTrustStore(path string, st *trustStore) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".trusted-*.json")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // after a successful rename there is nothing to remove
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return err
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// untrustedError is a configuration that may not run: never trusted, or
// changed since.
type untrustedError struct {
	path    string
	changed []string // what changed; nil when never trusted
	err     error    // the check itself failed
}

func (e *untrustedError) Error() string {
	how := fmt.Sprintf("review it, then run `hookctl trust --config %s`", shellQuote(e.path))
	switch {
	case e.err != nil:
		return fmt.Sprintf("configuration %s cannot be checked for trust: %v", e.path, e.err)
	case e.changed != nil:
		return fmt.Sprintf("configuration %s changed since it was trusted (%s); %s", e.path, summarize(e.changed, 3), how)
	}
	return fmt.Sprintf("configuration %s is not trusted (%s)", e.path, how)
}

func (e *untrustedError) Unwrap() error { return e.err }

// summarize joins the first n items and counts the rest.
func summarize(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:n], ", "), len(items)-n)
}

// currentPins hashes now what rec pins for the configuration at the
// canonical path key: its pinned files, its *.hcl files as they are now
// (an added one is a change) and, for a walk record, every file under
// its directory.
func currentPins(key string, rec *trustRecord) (map[string]string, error) {
	root := configRoot(key)
	files := make([]string, 0, len(rec.Files)+4)
	for k := range rec.Files {
		files = append(files, pinPath(root, k))
	}
	hcls, err := hclFiles(key)
	if err != nil {
		return nil, err
	}
	files = append(files, hcls...)
	if rec.Walk {
		all, err := walkFiles(root)
		if err != nil {
			return nil, err
		}
		files = append(files, all...)
	}
	return hashSet(root, files)
}

// pinDiff lists what changed from old to cur: "a.js modified", ...
func pinDiff(old, cur map[string]string) []string {
	keys := make([]string, 0, len(cur))
	for k := range cur {
		keys = append(keys, k)
	}
	for k := range old {
		if _, ok := cur[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var out []string
	for _, k := range keys {
		o, inOld := old[k]
		c, inCur := cur[k]
		if !inOld {
			o = absentHash
		}
		if !inCur {
			c = absentHash
		}
		switch {
		case o == c:
		case o == absentHash:
			out = append(out, k+" added")
		case c == absentHash:
			out = append(out, k+" removed")
		default:
			out = append(out, k+" modified")
		}
	}
	return out
}

// checkTrust returns nil when the configuration at path is trusted and
// unchanged, else an *untrustedError saying why.
func checkTrust(path string) error {
	key, err := canonicalPath(path)
	if err != nil {
		return &untrustedError{path: path, err: err}
	}
	tf, err := trustFile()
	if err != nil {
		return &untrustedError{path: key, err: err}
	}
	st, err := readTrustStore(tf)
	if err != nil {
		return &untrustedError{path: key, err: err}
	}
	rec := st.Configs[key]
	if rec == nil {
		return &untrustedError{path: key}
	}
	cur, err := currentPins(key, rec)
	if err != nil {
		return &untrustedError{path: key, err: err}
	}
	if digest(cur) == rec.SHA256 {
		return nil
	}
	changed := pinDiff(rec.Files, cur)
	if len(changed) == 0 {
		changed = []string{"its trust record does not match"}
	}
	return &untrustedError{path: key, changed: changed}
}

// trustWatchFiles lists the files a trust check of path reads: the trust
// file and the files the configuration's record pins, so that hookctl
// serve retries a refused reload once the configuration is trusted.
func trustWatchFiles(path string) func() []string {
	return func() []string {
		tf, err := trustFile()
		if err != nil {
			return nil
		}
		files := []string{tf}
		key, err := canonicalPath(path)
		if err != nil {
			return files
		}
		st, err := readTrustStore(tf)
		if err != nil || st.Configs[key] == nil {
			return files
		}
		root := configRoot(key)
		for k := range st.Configs[key].Files {
			files = append(files, pinPath(root, k))
		}
		return files
	}
}

// shellQuote quotes s for a POSIX shell when it needs quoting.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("@%+=:,./-_~", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func shortHash(h string) string {
	if len(h) > 12 {
		h = h[:12]
	}
	return "sha256:" + h
}

func newTrustCmd(a *app) *cobra.Command {
	var list, revoke, check bool
	cmd := &cobra.Command{
		Use:   "trust [--config PATH] [--list | --revoke | --check]",
		Short: "Trust a configuration, so that claude and serve run it (hash-pinned)",
		Long: `trust records that you reviewed a configuration and want hookctl claude and
hookctl serve to run it. A cloned repository must not run its hooks unasked: those
two commands refuse a configuration that was never trusted or that changed since,
before reading it (fire, validate, list and bench run what you point them at, on
purpose, and need no trust).

Without --config it finds the configuration as hookctl claude does ($HOOKCTL_CONFIG,
./hooks.hcl, ./.hookctl/, then .claude/hooks.hcl of $CLAUDE_PROJECT_DIR or of the
working directory). Trusting reads and hashes files; it runs nothing (run
hookctl validate to check the configuration).

The record pins the SHA-256 of every file the configuration loads: its *.hcl
files, the scripts its hooks name, the modules those scripts and inline js
bodies require() (and the files Node's resolution would try before them), the
files file() reads and the files command handlers name inside the configuration
directory. A configuration that names files by computed names (require(name),
a package from node_modules, file(local.x)) pins every file under its directory
instead. Any change to a pinned file, and any added *.hcl file, needs a new
hookctl trust.

Records are kept per user in $HOOKCTL_TRUST_FILE, else
<user config dir>/hookctl/trusted.json (~/.config/hookctl/trusted.json on Linux),
keyed by the configuration's absolute path.

To run a configuration without trust: hookctl claude --allow-untrusted, hookctl
serve --allow-untrusted, or HOOKCTL_ALLOW_UNTRUSTED=1 in the environment.`,
		Example: `  hookctl trust --config .claude/hooks.hcl
  hookctl trust --check --config .claude/hooks.hcl
  hookctl trust --list
  hookctl trust --revoke --config .claude/hooks.hcl`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			n := 0
			for _, b := range []bool{list, revoke, check} {
				if b {
					n++
				}
			}
			if n > 1 {
				return usageError("--list, --revoke and --check exclude each other")
			}
			tf, err := trustFile()
			if err != nil {
				return &exitError{code: exitFailure, err: err}
			}
			switch {
			case list:
				return a.trustList(tf)
			case revoke:
				return a.trustRevoke(tf)
			case check:
				path, err := a.discoverTrust()
				if err != nil {
					return err
				}
				if err := checkTrust(path); err != nil {
					return &exitError{code: exitFailure, err: err}
				}
				key, _ := canonicalPath(path)
				st, _ := readTrustStore(tf)
				fmt.Fprintf(a.stdout, "%s: trusted (%s)\n", key, shortHash(st.Configs[key].SHA256))
				return nil
			}
			return a.trust(tf)
		},
	}
	cmd.Flags().BoolVar(&list, "list", false, "list the trusted configurations and whether they changed")
	cmd.Flags().BoolVar(&revoke, "revoke", false, "forget the configuration's trust")
	cmd.Flags().BoolVar(&check, "check", false, "exit 0 if the configuration is trusted and unchanged, 1 (saying what changed) if not")
	return cmd
}

// discoverTrust finds the configuration as hookctl claude does; run by
// hand in a project (no $CLAUDE_PROJECT_DIR), it also finds the
// .claude/hooks.hcl that hookctl claude finds there.
func (a *app) discoverTrust() (string, error) {
	p, err := a.discover(true)
	if err == nil || os.Getenv("CLAUDE_PROJECT_DIR") != "" {
		return p, err
	}
	c := filepath.Join(".claude", "hooks.hcl")
	if _, serr := os.Stat(c); serr == nil {
		return c, nil
	}
	return p, err
}

// trustRecord finds the configuration trust works on and reads the trust
// file: the configuration's real path, the records.
func (a *app) trustRecord(tf string) (string, *trustStore, error) {
	path, err := a.discoverTrust()
	if err != nil {
		return "", nil, err
	}
	key, err := canonicalPath(path)
	if err != nil {
		return "", nil, &exitError{code: exitFailure, err: err}
	}
	st, err := readTrustStore(tf)
	if err != nil {
		return "", nil, &exitError{code: exitFailure, err: err}
	}
	return key, st, nil
}

// trust pins the configuration's files and records them. It parses the
// configuration but runs none of it (hookctl validate loads it).
func (a *app) trust(tf string) error {
	key, st, err := a.trustRecord(tf)
	if err != nil {
		return err
	}
	pins, err := collectPins(key)
	if err != nil {
		var d *hcl.Diagnostics
		if errors.As(err, &d) {
			d.Render(a.stderr)
			fmt.Fprintf(a.stderr, "hookctl: %s is not trusted: fix its syntax errors first\n", key)
			return silent(exitFailure)
		}
		return &exitError{code: exitFailure, err: err}
	}
	files, err := hashSet(pins.root, pins.files)
	if err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	rec := &trustRecord{SHA256: digest(files), TrustedAt: time.Now().UTC().Truncate(time.Second), Walk: pins.walk, Files: files}
	old := st.Configs[key]
	st.Configs[key] = rec
	if err := writeTrustStore(tf, st); err != nil {
		return &exitError{code: exitFailure, err: fmt.Errorf("trust file: %w", err)}
	}
	fmt.Fprintf(a.stdout, "trusted %s (%s, %d file(s))\n", key, shortHash(rec.SHA256), rec.present())
	keys := make([]string, 0, len(files))
	for k, h := range files {
		if h != absentHash {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(a.stdout, "  %s\n", k)
	}
	if pins.walk {
		fmt.Fprintf(a.stdout, "every file under %s is pinned: %s\n", pins.root, summarize(slices.Compact(pins.why), 3))
	}
	if old != nil && old.SHA256 != rec.SHA256 {
		fmt.Fprintf(a.stdout, "changed since it was last trusted: %s\n", summarize(pinDiff(old.Files, files), 10))
	}
	return nil
}

func (a *app) trustList(tf string) error {
	st, err := readTrustStore(tf)
	if err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	if len(st.Configs) == 0 {
		fmt.Fprintf(a.stdout, "no trusted configurations (%s)\n", tf)
		return nil
	}
	keys := make([]string, 0, len(st.Configs))
	for k := range st.Configs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CONFIGURATION\tHASH\tTRUSTED\tFILES\tSTATE")
	for _, k := range keys {
		rec := st.Configs[k]
		state := "trusted"
		if _, err := os.Stat(k); err != nil {
			state = "missing"
		} else if cur, err := currentPins(k, rec); err != nil {
			state = "unreadable: " + err.Error()
		} else if digest(cur) != rec.SHA256 {
			state = "changed: " + summarize(pinDiff(rec.Files, cur), 3)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", k, shortHash(rec.SHA256), rec.TrustedAt.Format(time.RFC3339), rec.present(), state)
	}
	return tw.Flush()
}

func (a *app) trustRevoke(tf string) error {
	key, st, err := a.trustRecord(tf)
	if err != nil {
		return err
	}
	if st.Configs[key] == nil {
		return &exitError{code: exitFailure, err: fmt.Errorf("%s is not trusted", key)}
	}
	delete(st.Configs, key)
	if err := writeTrustStore(tf, st); err != nil {
		return &exitError{code: exitFailure, err: fmt.Errorf("trust file: %w", err)}
	}
	fmt.Fprintf(a.stdout, "revoked %s\n", key)
	return nil
}
