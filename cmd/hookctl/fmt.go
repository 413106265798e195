package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/rogpeppe/go-internal/diff"
	"github.com/spf13/cobra"

	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/hcl/hclfmt"
	"github.com/hookctl/hookctl/internal/safefile"
	"github.com/hookctl/hookctl/internal/termsafe"
)

// maxFmtSize bounds the size of a file fmt reads (a configuration file is
// a few kilobytes; this is not one).
const maxFmtSize = 16 << 20

// stdinName names standard input in fmt's diagnostics and listing.
const stdinName = "<stdin>"

func newFmtCmd(a *app) *cobra.Command {
	var check, showDiff bool
	cmd := &cobra.Command{
		Use:   "fmt [--check] [--diff] [FILE | DIR | -]...",
		Short: "Rewrite configuration files in the canonical layout",
		Long: `fmt rewrites hookctl configuration files (*.hcl, test files *_test.hcl
included) in the canonical layout of terraform fmt: two-space indentation by
nesting, one space around operators, the = of neighbouring attributes aligned,
trailing comments aligned, one line break at the end of the file. Comments,
blank lines between blocks and the order of everything are kept, and the body of
a heredoc (<<-JS ... JS) is left byte for byte as written: fmt never re-indents
the JavaScript, TypeScript or shell inside one. Formatting twice changes nothing.

Without arguments fmt formats the configuration every command finds (--config,
$HOOKCTL_CONFIG, ./hooks.hcl, ./.hookctl/, .claude/hooks.hcl): a file, or every
*.hcl file of a directory. A DIR argument is every *.hcl file in it (not its
subdirectories, and not its symbolic links, which are skipped with a note: name
one to format it); - reads standard input and prints the result on standard
output (with --check it lists <stdin> if the input would change, with --diff it
prints the diff, instead of the result).

fmt rewrites each file that changes in place (a new file renamed over the old
one, with the old one's permissions) and lists it on stdout. A file that does
not parse is reported with file:line:column and left untouched, as is a
symbolic link (fmt the file it points to) and a file changed while fmt ran;
any of them is exit status 1.

--check writes nothing: it lists the files that would change and exits 1 if
there is any (for CI). --diff prints a unified diff of each change; with
--check it is a preview that writes nothing.

A trusted configuration that fmt rewrites needs hookctl trust again, as after
any edit.`,
		Example: `  hookctl fmt
  hookctl fmt --check --diff .claude/
  hookctl fmt hooks.hcl hooks_test.hcl
  hookctl fmt - < hooks.hcl`,
		RunE: func(cmd *cobra.Command, args []string) error {
			f := fmtRun{a: a, check: check, diff: showDiff}
			if slices.Contains(args, "-") {
				if len(args) > 1 {
					return usageError("fmt: - (standard input) cannot be named with files")
				}
				// The formatted source on stdout is the file itself,
				// unescaped; a diff is escaped as any output.
				defer a.escapeOutput(check || showDiff)()
				return f.stdin()
			}
			if len(args) > 0 && a.configPath != "" {
				return usageError("fmt: name files or --config, not both")
			}
			defer a.escapeOutput(true)()
			return f.files(args)
		},
	}
	cmd.Flags().BoolVar(&check, "check", false, "write nothing: list the files that would change and exit 1 if any would")
	cmd.Flags().BoolVar(&showDiff, "diff", false, "print a unified diff of each change")
	return cmd
}

// fmtRun is one hookctl fmt.
type fmtRun struct {
	a           *app
	check, diff bool
	// failed and changed make the exit status.
	failed, changed bool
}

// stdin formats standard input onto standard output (with --check:
// <stdin> listed if it would change, as a file is; with --diff: the diff,
// if any; the formatted text only without either).
func (f *fmtRun) stdin() error {
	src, err := io.ReadAll(io.LimitReader(f.a.stdin, maxFmtSize+1))
	if err != nil {
		return &exitError{code: exitFailure, err: fmt.Errorf("fmt: reading standard input: %w", err)}
	}
	if len(src) > maxFmtSize {
		return &exitError{code: exitFailure, err: fmt.Errorf("fmt: standard input is larger than %d bytes", maxFmtSize)}
	}
	out, err := f.format(stdinName, src)
	if err != nil {
		return err
	}
	if f.check && !bytes.Equal(src, out) {
		// Listed as a file that would change is.
		fmt.Fprintln(f.a.stdout, stdinName)
	}
	if f.diff {
		_, _ = f.a.stdout.Write(diff.Diff("a/"+stdinName, src, "b/"+stdinName, out))
	}
	if !f.check && !f.diff {
		// The formatted source itself, unescaped: it is the file.
		_, _ = f.a.stdout.Write(out)
	}
	if f.check && !bytes.Equal(src, out) {
		return silent(exitFailure)
	}
	return nil
}

// format formats src, named name; a file that does not parse has its
// diagnostics printed and is a silent exit status 1.
func (f *fmtRun) format(name string, src []byte) ([]byte, error) {
	out, err := hclfmt.Format(name, src)
	if err != nil {
		var d *hcl.Diagnostics
		if errors.As(err, &d) {
			d.Render(f.a.stderr)
			return nil, silent(exitFailure)
		}
		return nil, &exitError{code: exitFailure, err: err}
	}
	return out, nil
}

// files formats the files named by args (the discovered configuration
// when there is none), reporting each problem and going on.
func (f *fmtRun) files(args []string) error {
	if len(args) == 0 {
		path, err := f.a.discover()
		if err != nil {
			return err
		}
		args = []string{path}
	}
	for _, arg := range args {
		files, links, err := fmtFiles(arg)
		if err != nil {
			f.fail(err)
			continue
		}
		for _, l := range links {
			fmt.Fprintf(f.a.stderr, "hookctl: fmt: %s is a symbolic link: skipped (name it, or the file it points to, to format it)\n", termsafe.Escape(l))
		}
		for _, name := range files {
			f.file(name)
		}
	}
	if f.failed || f.check && f.changed {
		return silent(exitFailure)
	}
	return nil
}

// fail reports a problem with one file and goes on.
func (f *fmtRun) fail(err error) {
	f.failed = true
	fmt.Fprintf(f.a.stderr, "hookctl: fmt: %s\n", termsafe.Escape(err.Error()))
}

// file formats one file: rewritten (without --check) and listed when it
// changes, its diff printed with --diff.
func (f *fmtRun) file(name string) {
	src, err := readSource(name)
	if err != nil {
		f.fail(err)
		return
	}
	out, err := f.format(name, src)
	if err != nil {
		var ee *exitError
		if errors.As(err, &ee) && ee.err != nil {
			f.fail(ee.err)
		}
		f.failed = true
		return
	}
	if bytes.Equal(src, out) {
		return
	}
	f.changed = true
	if !f.check {
		if err := replaceFile(name, src, out); err != nil {
			f.fail(err)
			return
		}
	}
	fmt.Fprintln(f.a.stdout, termsafe.Escape(name))
	if f.diff {
		_, _ = f.a.stdout.Write(diff.Diff("a/"+name, src, "b/"+name, out))
	}
}

// fmtFiles is what an argument names: a file, or the *.hcl files (test
// files included) of a directory, sorted. The symbolic links of a
// directory are returned apart, as links, and not formatted: one may
// point anywhere (a secret a syntax error's snippet or --diff would print
// in a CI log); a file named by the user is read through its link.
func fmtFiles(arg string) (files, links []string, err error) {
	fi, err := os.Stat(arg)
	if err != nil {
		return nil, nil, err
	}
	if !fi.IsDir() {
		return []string{arg}, nil, nil
	}
	// The directory's own name is never read as a pattern.
	names, err := fs.Glob(os.DirFS(arg), "*.hcl")
	if err != nil {
		return nil, nil, err
	}
	matches := make([]string, len(names))
	for i, n := range names {
		matches[i] = filepath.Join(arg, n)
	}
	slices.Sort(matches)
	for _, m := range matches {
		fi, err := os.Lstat(m)
		switch {
		case err != nil:
			files = append(files, m) // reported when read
		case fi.Mode()&fs.ModeSymlink != 0:
			links = append(links, m)
		case !fi.IsDir():
			files = append(files, m)
		}
	}
	return files, links, nil
}

// readSource reads a file to format: a regular file (never a FIFO or a
// device, which could block or never end) of at most maxFmtSize bytes.
func readSource(name string) ([]byte, error) {
	fd, err := safefile.Open(name)
	if err != nil {
		return nil, err
	}
	defer fd.Close()
	src, err := io.ReadAll(io.LimitReader(fd, maxFmtSize+1))
	if err != nil {
		return nil, err
	}
	if len(src) > maxFmtSize {
		return nil, fmt.Errorf("%s is larger than %d bytes", name, maxFmtSize)
	}
	return src, nil
}

// replaceFile replaces the content of the file name, which held old when
// it was read, with data: written to a new file in the same directory with
// name's permissions, then renamed over it, so that name holds the old
// content or the new one, never a part of either, whatever fails. A
// symbolic link, anything but a regular file, and a file whose content is
// no longer old (edited meanwhile) are refused and left alone.
func replaceFile(name string, old, data []byte) error {
	fi, err := os.Lstat(name)
	if err != nil {
		return err
	}
	switch m := fi.Mode(); {
	case m&fs.ModeSymlink != 0:
		return fmt.Errorf("%s is a symbolic link: not rewritten (run hookctl fmt on the file it points to)", name)
	case !m.IsRegular():
		return fmt.Errorf("%s is not a regular file: not rewritten", name)
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".fmt-*")
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := tmp.Chmod(fi.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)); err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if cur, err := os.ReadFile(name); err != nil {
		return err
	} else if !bytes.Equal(cur, old) {
		return fmt.Errorf("%s changed while it was formatted: not rewritten", name)
	}
	if err := os.Rename(tmp.Name(), name); err != nil {
		return err
	}
	done = true
	return nil
}
