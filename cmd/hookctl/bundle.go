package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"aead.dev/minisign"

	"github.com/hookctl/hookctl/bundle"
	"github.com/hookctl/hookctl/internal/termsafe"
)

// The bundle command is flags and output; package bundle builds, signs
// and verifies.

func newBundleCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bundle keygen|build|verify",
		Short: "Sign a policy once (minisign), instead of every user trusting every file",
		Long: `bundle signs a hook configuration with an organisation's minisign key, so that
users who trust the key (hookctl trust --pub KEY.pub) run it without a trust
record of its own: hookctl claude --config policy.bundle, or
hookctl serve --bundle URL --bundle-pub KEY.pub. A bundle whose signature or
files do not verify never runs a hook: the events it guards are blocked, with
the reason. See docs/bundles.md.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newBundleKeygenCmd(a), newBundleBuildCmd(a), newBundleVerifyCmd(a))
	return cmd
}

func newBundleKeygenCmd(a *app) *cobra.Command {
	var out string
	var encrypt bool
	cmd := &cobra.Command{
		Use:   "keygen -o NAME [--encrypt]",
		Short: "Write a new key pair: NAME.key (private, mode 0600) and NAME.pub",
		Long: `keygen writes a minisign key pair: NAME.key, the private key (mode 0600), and
NAME.pub, the public key users trust. It never overwrites a file.

The private key is encrypted with a password (minisign's scrypt and
XSalsa20-Poly1305) when $HOOKCTL_BUNDLE_PASSWORD is set, or with --encrypt,
which asks for the password on the terminal; otherwise it is written
unencrypted, for a key kept in a CI secret store that encrypts it already.
build reads either kind (the password from $HOOKCTL_BUNDLE_PASSWORD, else
the terminal).`,
		Example: `  hookctl bundle keygen -o org
  HOOKCTL_BUNDLE_PASSWORD=... hookctl bundle keygen -o org`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return usageError("keygen: -o NAME is required")
			}
			pw := os.Getenv(bundle.PasswordEnv)
			if pw == "" && encrypt {
				var err error
				if pw, err = a.askPassword("password for the new key: ", true); err != nil {
					return &exitError{code: exitFailure, err: err}
				}
			}
			pub, priv, err := bundle.GenerateKey(pw)
			if err != nil {
				return &exitError{code: exitFailure, err: err}
			}
			if err := bundle.WriteKeyPair(out, pub, priv); err != nil {
				return &exitError{code: exitFailure, err: err}
			}
			var pk minisign.PublicKey
			if err := bundle.ParsePublicKey(pub, &pk); err != nil {
				return &exitError{code: exitFailure, err: err}
			}
			how := "unencrypted"
			if pw != "" {
				how = "encrypted"
			}
			fmt.Fprintf(a.stdout, "wrote %s.key (%s, mode 0600) and %s.pub: key %s\n", out, how, out, bundle.KeyID(pk.ID()))
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "the key pair's name: writes NAME.key and NAME.pub")
	cmd.Flags().BoolVar(&encrypt, "encrypt", false, "ask for a password on the terminal and encrypt the private key with it")
	return cmd
}

// askPassword reads a password from the terminal (stdin); twice, to
// confirm, when confirm is set.
func (a *app) askPassword(prompt string, confirm bool) (string, error) {
	f, ok := a.stdin.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return "", fmt.Errorf("no terminal to ask the password on: set $%s", bundle.PasswordEnv)
	}
	fmt.Fprint(a.stderr, prompt)
	pw, err := term.ReadPassword(int(f.Fd()))
	fmt.Fprintln(a.stderr)
	if err != nil {
		return "", err
	}
	if confirm {
		fmt.Fprint(a.stderr, "again: ")
		again, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(a.stderr)
		if err != nil {
			return "", err
		}
		if !bytes.Equal(pw, again) {
			return "", errors.New("the passwords differ")
		}
	}
	if len(pw) == 0 {
		return "", errors.New("an empty password")
	}
	return string(pw), nil
}

func newBundleBuildCmd(a *app) *cobra.Command {
	var key, out string
	var signDir bool
	cmd := &cobra.Command{
		Use:   "build --key NAME.key (-o FILE.bundle DIR | --sign-dir DIR)",
		Short: "Sign a configuration directory into a bundle (or in place)",
		Long: `build writes FILE, a bundle of the configuration directory DIR signed with the
private key: a tar.gz of a manifest (every file's path, size and SHA-256), its
minisign signature and the files. The files are those the configuration loads,
found as hookctl trust finds them (its *.hcl files, the scripts its hooks name,
the modules those require(), the files file() reads, the programs command
handlers name inside DIR); a file outside DIR, or a symbolic link, is an
error. Nothing of the configuration runs.

--sign-dir writes the manifest and signature into DIR instead
(hookctl-manifest.json and hookctl-manifest.json.minisig): a signed directory,
trusted by the key as a bundle is, for a policy deployed as files.`,
		Example: `  hookctl bundle build --key org.key -o policy.bundle ./policy
  hookctl bundle build --key org.key --sign-dir ./policy`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if key == "" {
				return usageError("build: --key NAME.key is required")
			}
			if (out == "") == !signDir {
				return usageError("build: give -o FILE or --sign-dir")
			}
			sk, err := bundle.ReadPrivateKey(key, func() (string, error) {
				if pw := os.Getenv(bundle.PasswordEnv); pw != "" {
					return pw, nil
				}
				return a.askPassword("password for "+key+": ", false)
			})
			if err != nil {
				return &exitError{code: exitFailure, err: err}
			}
			if signDir {
				if err := bundle.SignDir(cmd.Context(), args[0], sk); err != nil {
					return &exitError{code: exitFailure, err: err}
				}
				fmt.Fprintf(a.stdout, "signed %s with key %s\n", args[0], bundle.KeyID(sk.ID()))
				return nil
			}
			var buf bytes.Buffer
			if err := bundle.Build(cmd.Context(), args[0], sk, &buf); err != nil {
				return &exitError{code: exitFailure, err: err}
			}
			// Written beside, then renamed: a reader never sees half a bundle.
			tmp, err := os.CreateTemp(filepath.Dir(out), ".bundle-*")
			if err != nil {
				return &exitError{code: exitFailure, err: err}
			}
			defer os.Remove(tmp.Name())
			_, werr := tmp.Write(buf.Bytes())
			if err := errors.Join(werr, tmp.Chmod(0o644), tmp.Close()); err != nil {
				return &exitError{code: exitFailure, err: err}
			}
			if err := os.Rename(tmp.Name(), out); err != nil {
				return &exitError{code: exitFailure, err: err}
			}
			fmt.Fprintf(a.stdout, "wrote %s (%d bytes), signed with key %s\n", out, buf.Len(), bundle.KeyID(sk.ID()))
			return nil
		},
	}
	cmd.Flags().StringVar(&key, "key", "", "the private key (NAME.key from bundle keygen)")
	cmd.Flags().StringVarP(&out, "output", "o", "", "the bundle to write (FILE.bundle)")
	cmd.Flags().BoolVar(&signDir, "sign-dir", false, "sign DIR in place instead of writing a bundle")
	return cmd
}

func newBundleVerifyCmd(a *app) *cobra.Command {
	var pubs []string
	cmd := &cobra.Command{
		Use:   "verify --pub NAME.pub FILE.bundle|DIR",
		Short: "Verify a bundle (or signed directory) against a public key: exit 0 if it verifies, 1 if not",
		Long: `verify checks FILE's manifest signature against the public key(s) and every
file against the manifest, and lists the files; it writes and runs nothing.
Exit 0 when it verifies, 1 when it does not (saying why) or on a usage error.`,
		Example: `  hookctl bundle verify --pub org.pub policy.bundle`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(pubs) == 0 {
				return usageError("verify: --pub NAME.pub is required")
			}
			var keys []minisign.PublicKey
			for _, p := range pubs {
				k, err := bundle.ReadPublicKey(p)
				if err != nil {
					return &exitError{code: exitFailure, err: err}
				}
				keys = append(keys, k)
			}
			var m *bundle.Manifest
			var err error
			if fi, serr := os.Stat(args[0]); serr == nil && fi.IsDir() {
				var o *bundle.Opened
				if o, err = bundle.OpenDir(args[0], keys); err == nil {
					m = o.Manifest
				}
			} else {
				m, err = bundle.Verify(args[0], keys)
			}
			if err != nil {
				return &exitError{code: exitFailure, err: err}
			}
			created := "no signed creation time"
			if m.Created != "" {
				created = "created " + m.Created
			}
			fmt.Fprintf(a.stdout, "%s: verified (%d file(s), %s)\n", args[0], len(m.Files), created)
			for _, f := range m.Files {
				fmt.Fprintf(a.stdout, "  %s  %s\n", f.SHA256[:12], termsafe.Escape(f.Path))
			}
			return nil
		},
	}
	cmd.Flags().StringArrayVar(&pubs, "pub", nil, "a public key (NAME.pub) to verify with; repeat for several")
	return cmd
}
