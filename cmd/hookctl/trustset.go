package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"

	hcl2 "github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/hookctl/hookctl/hcl"
)

// What `hookctl trust` pins.
//
// A trust record pins the content of every file a configuration loads or
// names, found when the configuration is trusted:
//
//   - its *.hcl files (the file given, or every *.hcl of the directory
//     given; at every check the *.hcl files present now are pinned, so an
//     added file is a change);
//   - the script files its hooks name (script = "...");
//   - every module those scripts and the inline js bodies require() by a
//     literal name, transitively, with every file Node's resolution would
//     try before the one it found (./lib pins lib, lib.js, lib.json,
//     lib/package.json, lib/index.js and lib/index.json, as content or as
//     "absent"), so a file added later cannot shadow the one reviewed;
//   - the files file() and fileexists() read by a literal name;
//   - the words of command handlers that name files inside the
//     configuration directory (command = ["./lint.sh"], "bash hooks/x.sh").
//
// A configuration that names files by computed names (require(name),
// require("pkg") from node_modules, file(local.x)) cannot be followed
// that way: then every regular file under its directory is pinned (.git,
// .hg, .svn and .jj skipped), which is why hooks that do that belong in
// a directory of their own.
//
// Pinning what is named rather than everything under the directory keeps
// a trust valid when unrelated files change: a hooks.hcl at the top of a
// project does not pin the project's code, and .claude/hooks.hcl does not
// pin the settings.local.json Claude Code rewrites.

// absentHash is the pinned value of a file that does not exist (or is not
// a regular file).
const absentHash = "absent"

// maxWalkFiles bounds the files a pin by directory walk hashes.
const maxWalkFiles = 20000

// vcsDirs are skipped by a directory walk.
var vcsDirs = map[string]bool{".git": true, ".hg": true, ".svn": true, ".jj": true}

// canonicalPath is the absolute path of p with symbolic links resolved
// (when it exists): the key of p's trust record.
func canonicalPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real, nil
	}
	// A path that is gone (trust --revoke of a deleted configuration):
	// resolve its directory.
	if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		return filepath.Join(dir, filepath.Base(abs)), nil
	}
	return abs, nil
}

// configRoot is the configuration directory of a canonical config path: the
// directory itself, or the directory of the file.
func configRoot(path string) string {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return path
	}
	return filepath.Dir(path)
}

// hclFiles lists the configuration's *.hcl files as Load reads them.
func hclFiles(path string) ([]string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return []string{path}, nil
	}
	m, err := filepath.Glob(filepath.Join(path, "*.hcl"))
	if err != nil {
		return nil, err
	}
	slices.Sort(m)
	return m, nil
}

// pinKey is how a file is named in a trust record: relative to the
// configuration directory (slash-separated) when inside it, else absolute.
func pinKey(root, abs string) string {
	if rel, err := filepath.Rel(root, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel) {
		return filepath.ToSlash(rel)
	}
	return abs
}

// pinPath is the inverse of pinKey.
func pinPath(root, key string) string {
	if filepath.IsAbs(key) {
		return key
	}
	return filepath.Join(root, filepath.FromSlash(key))
}

// hashFile returns the hex SHA-256 of a regular file's content, or
// absentHash when there is no regular file at p.
func hashFile(p string) (string, error) {
	fi, err := os.Stat(p)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) || err == nil && !fi.Mode().IsRegular() {
		return absentHash, nil
	}
	if err != nil {
		return "", err
	}
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// digest is the hash of a pinned set: SHA-256 over "len(key):key NUL hash
// LF" for every file in key order, so paths are part of it (a rename is a
// change), unambiguously (a path may hold any byte but NUL, a hash is hex
// or "absent"), and the order files were found in is not.
func digest(files map[string]string) string {
	keys := make([]string, 0, len(files))
	for k := range files {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	h := sha256.New()
	for _, k := range keys {
		fmt.Fprintf(h, "%d:", len(k))
		io.WriteString(h, k)
		h.Write([]byte{0})
		io.WriteString(h, files[k])
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// walkFiles lists every regular file under root (VCS directories skipped).
func walkFiles(root string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && vcsDirs[d.Name()] {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() {
				return nil
			}
		} else if !d.Type().IsRegular() {
			return nil
		}
		out = append(out, p)
		if len(out) > maxWalkFiles {
			return fmt.Errorf("more than %d files under %s", maxWalkFiles, root)
		}
		return nil
	})
	return out, err
}

// hashSet hashes files (absolute paths) into a pinned set keyed by pinKey.
func hashSet(root string, files []string) (map[string]string, error) {
	out := make(map[string]string, len(files))
	for _, p := range files {
		k := pinKey(root, p)
		if _, done := out[k]; done {
			continue
		}
		h, err := hashFile(p)
		if err != nil {
			return nil, err
		}
		out[k] = h
	}
	return out, nil
}

// pinned is what a configuration pins, found when it is trusted.
type pinned struct {
	root  string
	files []string // absolute paths, present or not
	// walk is set when the configuration names files by computed names:
	// every file under root is pinned; why says where.
	walk bool
	why  []string
}

func (p *pinned) add(files ...string) {
	for _, f := range files {
		p.files = append(p.files, filepath.Clean(f))
	}
}

func (p *pinned) computed(format string, args ...any) {
	p.walk = true
	p.why = append(p.why, fmt.Sprintf(format, args...))
}

// collectPins finds what the configuration at the canonical path pins
// (see the comment at the top of this file). It parses the *.hcl files
// and reads the scripts, and runs nothing: trusting a configuration
// never runs its code. A file that does not parse is an error
// (*hcl.Diagnostics).
func collectPins(path string) (*pinned, error) {
	root := configRoot(path)
	p := &pinned{root: root}
	files, err := hclFiles(path)
	if err != nil {
		return nil, err
	}
	p.add(files...)

	var queue []string // JavaScript files to scan for require()
	var diags hcl2.Diagnostics
	sources := map[string]*hcl2.File{}
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		f, d := hclsyntax.ParseConfig(src, name, hcl2.InitialPos)
		diags = append(diags, d...)
		sources[name] = f
		if body, ok := f.Body.(*hclsyntax.Body); ok && !d.HasErrors() {
			queue = append(queue, p.scanHCL(body)...)
		}
		// Inline js bodies resolve require() against the configuration
		// directory.
		queue = append(queue, p.requires(src, root, name)...)
	}
	if diags.HasErrors() {
		return nil, &hcl.Diagnostics{Diags: diags, Files: sources}
	}
	seen := map[string]bool{}
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		if seen[f] {
			continue
		}
		seen[f] = true
		src, err := os.ReadFile(f)
		if err != nil {
			continue // pinned as absent, or hashing reports it
		}
		queue = append(queue, p.requires(src, filepath.Dir(f), pinKey(root, f))...)
	}
	if p.walk {
		all, err := walkFiles(root)
		if err != nil {
			return nil, err
		}
		p.add(all...)
	}
	return p, nil
}

// scanHCL pins the files script attributes, command handlers and
// file()/fileexists() name, and returns the scripts to scan in turn.
func (p *pinned) scanHCL(body *hclsyntax.Body) []string {
	var scripts []string
	at := func(r hcl2.Range) string {
		return fmt.Sprintf("%s:%d:%d", filepath.Base(r.Filename), r.Start.Line, r.Start.Column)
	}
	hclsyntax.VisitAll(body, func(n hclsyntax.Node) hcl2.Diagnostics {
		switch n := n.(type) {
		case *hclsyntax.Attribute:
			switch n.Name {
			case "command":
				p.commandWords(n.Expr)
			case "script":
				if s, ok := literalString(n.Expr); ok {
					f := p.inRoot(s)
					p.add(f)
					scripts = append(scripts, f)
				} else {
					p.computed("script with a computed name at %s", at(n.Expr.Range()))
				}
			}
		case *hclsyntax.FunctionCallExpr:
			if (n.Name == "file" || n.Name == "fileexists") && len(n.Args) > 0 {
				if s, ok := literalString(n.Args[0]); ok {
					p.add(p.inRoot(s))
				} else {
					p.computed("%s() with a computed name at %s", n.Name, at(n.Range()))
				}
			}
		}
		return nil
	})
	return scripts
}

// inRoot resolves a path written in the configuration: relative to the
// configuration directory.
func (p *pinned) inRoot(s string) string {
	if filepath.IsAbs(s) {
		return filepath.Clean(s)
	}
	return filepath.Join(p.root, filepath.FromSlash(s))
}

// literalString is the value of an expression that is a constant string.
func literalString(e hclsyntax.Expression) (string, bool) {
	if len(e.Variables()) > 0 {
		return "", false
	}
	v, d := e.Value(nil)
	if d.HasErrors() || !v.IsKnown() || v.IsNull() || v.Type() != cty.String {
		return "", false
	}
	return v.AsString(), true
}

// fileWordRE is a command word that looks like a file name: it has a
// slash or an extension.
var fileWordRE = regexp.MustCompile(`/|\.[A-Za-z0-9]{1,8}$`)

// commandWords pins the words of a command (an argv, or a shell line split
// on blanks) that name a file inside the configuration directory: an
// existing file, or a missing one written like a file name (so one added
// later is a change).
func (p *pinned) commandWords(e hclsyntax.Expression) {
	var words []string
	if t, ok := e.(*hclsyntax.TupleConsExpr); ok {
		for _, x := range t.Exprs {
			if s, ok := literalString(x); ok {
				words = append(words, s)
			}
		}
	} else if s, ok := literalString(e); ok {
		for _, w := range strings.Fields(s) {
			words = append(words, strings.Trim(w, `"';&|()<>`))
		}
	}
	for _, w := range words {
		if w == "" || strings.ContainsAny(w, "$`*?\n") {
			continue
		}
		f := p.inRoot(w)
		if pinKey(p.root, f) == f || f == p.root {
			continue // outside the configuration directory
		}
		if fi, err := os.Stat(f); err == nil && fi.Mode().IsRegular() || fileWordRE.MatchString(w) {
			p.add(f)
		}
	}
}

// requireRE matches require() with a literal name: "..." (also \"...\"
// inside an HCL quoted string), '...' or `...`.
var (
	requireRE     = regexp.MustCompile(`\brequire\s*\(\s*(?:\\?"((?:[^"\\\n]|\\[^"\n])*)\\?"|'((?:[^'\\\n]|\\.)*)'|` + "`([^`]*)`" + `)\s*\)`)
	requireCallRE = regexp.MustCompile(`\brequire\s*\(`)
	// requireValueRE is require used as a value (aliased, passed on,
	// require.resolve): its calls cannot be followed.
	requireValueRE = regexp.MustCompile(`\brequire\b[ \t]*(?:[;,)\]}.=:]|\r?\n|$)`)
)

// nativeModule reports whether require(name) loads a built-in module
// rather than a file.
func nativeModule(name string) bool {
	switch {
	case name == "hookctl", strings.HasPrefix(name, "hookctl/"), strings.HasPrefix(name, "node:"):
		return true
	case name == "console", name == "util":
		return true
	}
	return false
}

// requires pins the files the require() calls in src can load, resolved
// from dir, and returns those that are JavaScript to scan in turn. from
// names src in the reasons a computed require gives.
func (p *pinned) requires(src []byte, dir, from string) []string {
	text := string(src)
	calls := len(requireCallRE.FindAllStringIndex(text, -1))
	matches := requireRE.FindAllStringSubmatch(text, -1)
	if calls > len(matches) || requireValueRE.MatchString(text) {
		p.computed("require() with a computed name in %s", filepath.Base(from))
	}
	var js []string
	for _, m := range matches {
		name := m[1] + m[2] + m[3]
		if m[1] != "" {
			name = strings.ReplaceAll(name, `\\`, `\`)
		}
		switch {
		case m[3] != "" && strings.Contains(m[3], "${"):
			p.computed("require() with a computed name in %s", filepath.Base(from))
		case nativeModule(name):
		case name == "." || name == ".." || strings.HasPrefix(name, "/") || strings.HasPrefix(name, "./") || strings.HasPrefix(name, "../"):
			m := filepath.FromSlash(name)
			if !filepath.IsAbs(m) {
				m = filepath.Join(dir, m)
			}
			js = append(js, p.resolveModule(m)...)
		default:
			p.computed("require(%q) loads from node_modules in %s", name, filepath.Base(from))
		}
	}
	return js
}

// resolveModule pins every file Node's resolution tries for the module
// path m, and returns those that are JavaScript.
func (p *pinned) resolveModule(m string) []string {
	var js []string
	try := func(f string) {
		p.add(f)
		if fi, err := os.Stat(f); err == nil && fi.Mode().IsRegular() && !strings.HasSuffix(f, ".json") {
			js = append(js, f)
		}
	}
	asFile := func(f string) {
		try(f)
		try(f + ".js")
		try(f + ".json")
	}
	index := func(d string) {
		try(filepath.Join(d, "index.js"))
		try(filepath.Join(d, "index.json"))
	}
	asFile(m)
	pkg := filepath.Join(m, "package.json")
	p.add(pkg)
	if b, err := os.ReadFile(pkg); err == nil {
		var meta struct {
			Main string `json:"main"`
		}
		if json.Unmarshal(b, &meta) == nil && meta.Main != "" {
			main := filepath.Join(m, filepath.FromSlash(meta.Main))
			asFile(main)
			index(main)
		}
	}
	index(m)
	return js
}
