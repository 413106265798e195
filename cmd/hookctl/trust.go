package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/hookctl/hookctl/bundle"
	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/internal/termsafe"
	"github.com/hookctl/hookctl/trust"
)

// The trust command is flags and output; package trust keeps the records,
// pins the files and checks them.

func newTrustCmd(a *app) *cobra.Command {
	var list, revoke, check, asJSON bool
	var pub string
	cmd := &cobra.Command{
		Use:   "trust [--config PATH | --pub KEY.pub] [--list [--json] | --revoke | --check]",
		Short: "Trust a configuration, so that claude and serve run it (hash-pinned)",
		Long: `trust records that you reviewed a configuration and want hookctl claude and
hookctl serve to run it. A cloned repository must not run its hooks unasked: those
two commands refuse a configuration that was never trusted or that changed since,
before reading it (fire, validate, list and bench run what you point them at, on
purpose, and need no trust).

Without --config it finds the configuration as every command does ($HOOKCTL_CONFIG,
./hooks.hcl, ./.hookctl/, then .claude/hooks.hcl of $CLAUDE_PROJECT_DIR or of the
working directory). Trusting reads and hashes files; it runs nothing (run
hookctl validate to check the configuration).

The record pins the SHA-256 of every file the configuration loads: its *.hcl
files, the scripts its hooks name, the modules those scripts and inline js
bodies require() (and the files Node's resolution would try before them), the
files file() reads and the files command handlers name inside the configuration
directory, as the decoded configuration resolves them (locals and env()
evaluated). A configuration whose scripts require() computed names or packages
from node_modules, or that does not decode, pins every file under its directory
instead. Any change to a pinned file, and any added *.hcl file, needs a new
hookctl trust.

Records are kept per user in $HOOKCTL_TRUST_FILE, else trusted.json in
$XDG_CONFIG_HOME/hookctl where set, else ~/.config/hookctl on Linux and
~/Library/Application Support/hookctl on macOS, keyed by the configuration's
absolute path.

--list --json prints the records as one JSON object on stdout:
{"trust_file", "configurations": [{"path", "sha256", "trusted_at", "walk",
"file_count", "files", "status", "matches", "detail"}]} (docs/formatting.md).

--pub KEY.pub trusts a public key instead (--revoke --pub forgets it): a
signed bundle or signed directory (hookctl bundle) whose manifest the key
verifies runs without a record of its own, as signed; one that does not verify
never runs (docs/bundles.md). --list shows the trusted keys after the
configurations; --list --json adds "keys": [{"id", "public_key", "source",
"trusted_at"}].

To run a configuration without trust: hookctl claude --allow-untrusted, hookctl
serve --allow-untrusted, or HOOKCTL_ALLOW_UNTRUSTED=1 in the environment (a
bundle runs only as signed, even then).`,
		Example: `  hookctl trust --config .claude/hooks.hcl
  hookctl trust --check --config .claude/hooks.hcl
  hookctl trust --list
  hookctl trust --list --json
  hookctl trust --revoke --config .claude/hooks.hcl
  hookctl trust --pub org.pub`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			// JSON is written unescaped (termsafe.JSON makes it safe).
			defer a.escapeOutput(!asJSON)()
			n := 0
			for _, b := range []bool{list, revoke, check} {
				if b {
					n++
				}
			}
			if n > 1 {
				return usageError("--list, --revoke and --check exclude each other")
			}
			if asJSON && !list {
				return usageError("--json goes with --list")
			}
			tf, err := trust.File()
			if err != nil {
				return &exitError{code: exitFailure, err: err}
			}
			if pub != "" {
				if list || check || a.configPath != "" {
					return usageError("--pub goes alone, or with --revoke")
				}
				return a.trustPub(tf, pub, revoke)
			}
			switch {
			case list && asJSON:
				return a.trustListJSON(tf)
			case list:
				return a.trustList(tf)
			case revoke:
				return a.trustRevoke(tf)
			case check:
				path, err := a.discover()
				if err != nil {
					return err
				}
				if err := trust.Check(path); err != nil {
					return &exitError{code: exitFailure, err: err}
				}
				key, _ := trust.Canonical(path)
				st, _ := trust.ReadStore(tf)
				fmt.Fprintf(a.stdout, "%s: trusted (%s)\n", key, trust.ShortHash(st.Configs[key].SHA256))
				return nil
			}
			return a.trust(tf)
		},
	}
	cmd.Flags().BoolVar(&list, "list", false, "list the trusted configurations and whether they changed")
	cmd.Flags().BoolVar(&revoke, "revoke", false, "forget the configuration's trust")
	cmd.Flags().BoolVar(&asJSON, "json", false, "with --list: print the records as JSON")
	cmd.Flags().StringVar(&pub, "pub", "", "trust a minisign public key (KEY.pub from hookctl bundle keygen): bundles and directories it signs run")
	cmd.Flags().BoolVar(&check, "check", false, "exit 0 if the configuration is trusted and unchanged, 1 (saying what changed) if not")
	return cmd
}

// trust pins the configuration's files and records them. It decodes the
// configuration but runs none of it (hookctl validate loads it).
func (a *app) trust(tf string) error {
	path, err := a.discover()
	if err != nil {
		return err
	}
	res, err := trust.Trust(tf, path)
	if err != nil {
		var d *hcl.Diagnostics
		if errors.As(err, &d) {
			d.Render(a.stderr)
			key, _ := trust.Canonical(path)
			fmt.Fprintf(a.stderr, "hookctl: %s is not trusted: fix its syntax errors first\n", key)
			return silent(exitFailure)
		}
		return &exitError{code: exitFailure, err: err}
	}
	rec := res.Record
	fmt.Fprintf(a.stdout, "trusted %s (%s, %d file(s))\n", res.Key, trust.ShortHash(rec.SHA256), rec.Present())
	keys := make([]string, 0, len(rec.Files))
	for k, h := range rec.Files {
		if h != trust.Absent {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(a.stdout, "  %s\n", termsafe.Escape(k))
	}
	if res.Pins.Walk {
		fmt.Fprintf(a.stdout, "every file under %s is pinned: %s\n", res.Pins.Root, trust.Summarize(slices.Compact(res.Pins.Why), 3))
	}
	if old := res.Previous; old != nil && old.SHA256 != rec.SHA256 {
		fmt.Fprintf(a.stdout, "changed since it was last trusted: %s\n", trust.Summarize(trust.Diff(old.Files, rec.Files), 10))
	}
	return nil
}

func (a *app) trustList(tf string) error {
	list, err := trust.List(tf)
	if err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	keys, err := trust.ListKeys(tf)
	if err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	if len(list) == 0 {
		fmt.Fprintf(a.stdout, "no trusted configurations (%s)\n", tf)
	} else {
		tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "CONFIGURATION\tHASH\tTRUSTED\tFILES\tSTATE")
		for _, l := range list {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", l.Key, trust.ShortHash(l.Record.SHA256), l.Record.TrustedAt.Format(time.RFC3339), l.Record.Present(), l.State)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if len(keys) > 0 {
		tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "KEY\tTRUSTED\tSOURCE")
		for _, k := range keys {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", k.ID, k.TrustedAt.Format(time.RFC3339), k.Source)
		}
		return tw.Flush()
	}
	return nil
}

// trustPub trusts (or with revoke forgets) the public key in the file pub.
func (a *app) trustPub(tf, pub string, revoke bool) error {
	k, err := bundle.ReadPublicKey(pub)
	if err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	if revoke {
		if err := trust.RevokeKey(tf, k); err != nil {
			return &exitError{code: exitFailure, err: err}
		}
		fmt.Fprintf(a.stdout, "revoked key %s\n", bundle.KeyID(k.ID()))
		return nil
	}
	abs, _ := filepath.Abs(pub)
	rec, again, err := trust.TrustKey(tf, k, abs)
	if err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	if again {
		fmt.Fprintf(a.stdout, "key %s is trusted already\n", rec.ID)
		return nil
	}
	fmt.Fprintf(a.stdout, "trusted key %s: bundles and directories it signs run as signed\n", rec.ID)
	return nil
}

// trustListJSON is the JSON form of the trust records (docs/formatting.md).
type trustListJSON struct {
	// TrustFile is the file the records are kept in.
	TrustFile string `json:"trust_file"`
	// Configurations are the records, by path; never null.
	Configurations []trustedJSON `json:"configurations"`
	// Keys are the trusted public keys, by ID; never null.
	Keys []*trust.KeyRecord `json:"keys"`
}

// trustedJSON is one trust record and its state now.
type trustedJSON struct {
	// Path is the configuration's canonical absolute path (a file or a
	// directory), the record's key.
	Path string `json:"path"`
	// SHA256 is the digest of the pinned files, TrustedAt when trust was
	// given (RFC 3339, UTC).
	SHA256    string    `json:"sha256"`
	TrustedAt time.Time `json:"trusted_at"`
	// Walk: every file under the configuration's directory is pinned.
	Walk bool `json:"walk"`
	// FileCount counts the pinned files that exist; Files maps each
	// pinned file (relative to the configuration's directory, or
	// absolute) to the hex SHA-256 of its content, or "absent" for a file
	// that must not appear.
	FileCount int               `json:"file_count"`
	Files     map[string]string `json:"files"`
	// Status is "trusted" (the files still match), "changed", "missing"
	// (the configuration is gone) or "unreadable"; Matches is Status ==
	// "trusted", and Detail says what changed or why it is unreadable.
	Status  string `json:"status"`
	Matches bool   `json:"matches"`
	Detail  string `json:"detail"`
}

// trustListJSON prints the trust records as JSON on stdout.
func (a *app) trustListJSON(tf string) error {
	list, err := trust.List(tf)
	if err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	keys, err := trust.ListKeys(tf)
	if err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	out := trustListJSON{TrustFile: tf, Configurations: make([]trustedJSON, 0, len(list)), Keys: keys}
	if out.Keys == nil {
		out.Keys = []*trust.KeyRecord{}
	}
	for _, l := range list {
		status, detail, _ := strings.Cut(l.State, ": ")
		files := l.Record.Files
		if files == nil {
			files = map[string]string{}
		}
		out.Configurations = append(out.Configurations, trustedJSON{
			Path: l.Key, SHA256: l.Record.SHA256, TrustedAt: l.Record.TrustedAt, Walk: l.Record.Walk,
			FileCount: l.Record.Present(), Files: files,
			Status: status, Matches: status == "trusted", Detail: detail,
		})
	}
	b, err := termsafe.JSON(out)
	if err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	if _, err := a.stdout.Write(b); err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	return nil
}

func (a *app) trustRevoke(tf string) error {
	path, err := a.discover()
	if err != nil {
		return err
	}
	key, err := trust.Revoke(tf, path)
	if err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	fmt.Fprintf(a.stdout, "revoked %s\n", key)
	return nil
}
