package trust

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
	goruntime "runtime"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/hookctl/hookctl/conditions"
	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/internal/safefile"
	"github.com/hookctl/hookctl/stdlib"
)

// Absent is the pinned value of a file that does not exist (or is not
// a regular file).
const Absent = "absent"

// hashBuf is the read buffer of hashFile.
const hashBuf = 8 << 10

// maxWalkFiles bounds the files a pin by directory walk hashes.
const maxWalkFiles = 20000

// vcsDirs are skipped by a directory walk.
var vcsDirs = map[string]bool{".git": true, ".hg": true, ".svn": true, ".jj": true}

// Canonical is the absolute path of p with symbolic links resolved
// (when it exists): the key of p's trust record.
func Canonical(p string) (string, error) {
	abs, err := Absolute(p)
	if err != nil {
		return "", err
	}
	// Not cleaned first: "link/.." is link's target's parent, as the
	// system opens it, not the directory link is in.
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real, nil
	}
	// A path that is gone (trust --revoke of a deleted configuration):
	// resolve its directory.
	clean := filepath.Clean(abs)
	if dir, err := filepath.EvalSymlinks(filepath.Dir(clean)); err == nil {
		return filepath.Join(dir, filepath.Base(clean)), nil
	}
	return clean, nil
}

// Absolute is p made absolute against the working directory without
// cleaning it, as the system opens it: its ".." components are left for the links before them
// to be followed first. On Windows it is filepath.Abs: Windows itself
// removes ".." from a path by its name before it follows any link
// (GetFullPathName), and a path like \x or C:x is relative to a drive,
// not to the working directory.
func Absolute(p string) (string, error) {
	if goruntime.GOOS == "windows" {
		return filepath.Abs(p)
	}
	if filepath.IsAbs(p) {
		return p, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	return wd + string(filepath.Separator) + p, nil
}

// configRoot is the configuration directory of a canonical config path: the
// directory itself, or the directory of the file.
func configRoot(path string) string {
	root, _, _ := layout(path)
	return root
}

// hclFiles lists the configuration's *.hcl files as Load reads them (test
// files, *_test.hcl, are not loaded, so not pinned).
func hclFiles(path string) ([]string, error) {
	_, files, err := layout(path)
	return files, err
}

// layout is configRoot and hclFiles of path from one stat of it: a
// daemon call checks a configuration on every call, and each system call
// counts there.
func layout(path string) (root string, files []string, err error) {
	fi, err := os.Stat(path)
	switch {
	case err != nil:
		return filepath.Dir(path), nil, err
	case !fi.IsDir():
		return filepath.Dir(path), []string{path}, nil
	}
	files, err = hcl.ConfigFiles(path)
	return path, files, err
}

// pinKey is how a file is named in a trust record: relative to the
// configuration directory (slash-separated) when inside it, else absolute.
func pinKey(root, abs string) string {
	if rel, err := filepath.Rel(root, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel) {
		return filepath.ToSlash(rel)
	}
	return abs
}

// FileKey is the key of the file at abs in a pinned set of the
// configuration directory root (HashSet, Digest): its slash-separated
// path relative to root, or abs when it is outside root.
func FileKey(root, abs string) string { return pinKey(root, abs) }

// ContentHash is the hash of a file's content in a pinned set.
func ContentHash(content []byte) string {
	sum := sha256.Sum256(content)
	return hex.EncodeToString(sum[:])
}

// pinPath is the inverse of pinKey.
func pinPath(root, key string) string {
	if filepath.IsAbs(key) {
		return key
	}
	return filepath.Join(root, filepath.FromSlash(key))
}

// hashFile returns the hex SHA-256 of a regular file's content, or
// Absent when there is no regular file at p.
func hashFile(p string) (string, error) {
	// Opened without blocking: a FIFO or a device is refused by the open
	// itself (safefile.Open), never waited on, and pinned as absent.
	f, err := safefile.Open(p)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) || errors.Is(err, safefile.ErrNotRegular) {
		return Absent, nil
	}
	if err != nil {
		return "", err
	}
	defer f.Close()
	return hashReader(f)
}

// hashReader is the hex SHA-256 of what r reads to its end.
func hashReader(r io.Reader) (string, error) {
	h := sha256.New()
	// A configuration file is a few kilobytes, hashed on every daemon
	// call: io.Copy from an *os.File would take a 32 KiB buffer each time
	// (File.WriteTo), two thirds of what a call allocated.
	buf := make([]byte, hashBuf)
	if _, err := io.CopyBuffer(h, struct{ io.Reader }{r}, buf); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// digest is the hash of a pinned set: SHA-256 over "len(key):key NUL hash
// LF" for every file in key order, so paths are part of it (a rename is a
// change), unambiguously (a path may hold any byte but NUL, a hash is hex
// or "absent"), and the order files were found in is not.
func Digest(files map[string]string) string {
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
func HashSet(root string, files []string) (map[string]string, error) {
	return hashSet(root, files, hashFile)
}

// hashSet is HashSet with the files hashed by hash.
func hashSet(root string, files []string, hash func(string) (string, error)) (map[string]string, error) {
	out := make(map[string]string, len(files))
	for _, p := range files {
		k := pinKey(root, p)
		if _, done := out[k]; done {
			continue
		}
		h, err := hash(p)
		if err != nil {
			return nil, err
		}
		out[k] = h
	}
	return out, nil
}

// Pins is what a configuration pins, found when it is trusted.
type Pins struct {
	// Root is the configuration directory.
	Root string
	// Files are the pinned files, absolute, present or not.
	Files []string
	// Walk is set when the configuration names files by computed names:
	// every file under Root is pinned; Why says where.
	Walk bool
	Why  []string
}

func (p *Pins) add(files ...string) {
	for _, f := range files {
		p.Files = append(p.Files, filepath.Clean(f))
	}
}

func (p *Pins) computed(format string, args ...any) {
	p.Walk = true
	p.Why = append(p.Why, fmt.Sprintf(format, args...))
}

// Collect finds what the configuration at the canonical path pins (see
// the comment at the top of this file). The configuration is decoded
// (package hcl): the decoded configuration names the files it reads
// (scripts, programs, file() reads, with locals and env() evaluated),
// and the scripts and inline bodies are scanned for require(). It runs
// no hook code: trusting a configuration never runs it. A file that does
// not parse is an error (*hcl.Diagnostics); a configuration with other
// errors is pinned whole (every file under its directory).
func Collect(path string) (*Pins, error) {
	root := configRoot(path)
	p := &Pins{Root: root}
	files, err := hclFiles(path)
	if err != nil {
		return nil, err
	}
	p.add(files...)

	if d, err := hcl.CheckSyntax(files...); err != nil {
		return nil, err
	} else if d != nil {
		return nil, d
	}
	var queue []string // JavaScript files to scan for require()
	asInline := map[string]bool{}
	for _, name := range files {
		src, err := safefile.ReadRegular(name)
		if err != nil {
			return nil, err
		}
		// Inline js bodies resolve require() against the configuration
		// directory.
		queue = append(queue, p.requires(src, root, name)...)
	}
	// Decoded with the standard condition functions, so that a `when`
	// using them is not a decode error that pins the whole directory.
	cfg, err := hcl.Parse(path, hcl.WithConditions(conditions.NewCompiler(conditions.WithFunctions(stdlib.ConditionFunctions()...))))
	if err != nil {
		return nil, err
	}
	if d := cfg.Diagnostics(); d.HasErrors() {
		p.computed("%s does not decode (%s)", filepath.Base(path), firstError(d))
	}
	for _, f := range cfg.Refs() {
		p.add(f)
		if isScript(f) {
			queue = append(queue, f)
			// Read through a link, its requires resolve from where it
			// really is; read by file() as an inline body, from the
			// configuration directory.
			if real, err := filepath.EvalSymlinks(f); err == nil && real != f {
				p.add(real)
				queue = append(queue, real)
			}
			asInline[f] = true
		}
	}
	seen := map[string]bool{}
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		if seen[f] {
			continue
		}
		seen[f] = true
		src, err := safefile.ReadRegular(f)
		if err != nil {
			continue // pinned as absent, or hashing reports it
		}
		queue = append(queue, p.requires(src, filepath.Dir(f), pinKey(root, f))...)
		if asInline[f] && filepath.Dir(f) != root {
			queue = append(queue, p.requires(src, root, pinKey(root, f))...)
		}
	}
	if p.Walk {
		all, err := walkFiles(root)
		if err != nil {
			return nil, err
		}
		p.add(all...)
	}
	return p, nil
}

// firstError is the first error of d, on one line.
func firstError(d *hcl.Diagnostics) string {
	for _, e := range d.Errors() {
		return e.Summary
	}
	return "errors"
}

// isScript reports whether f is a JavaScript or TypeScript file whose
// require() calls and imports load more files.
func isScript(f string) bool {
	switch filepath.Ext(f) {
	case ".js", ".cjs", ".mjs", ".ts", ".mts", ".cts":
		return true
	}
	return false
}

// requireRE matches require() with a literal name: "..." (also \"...\"
// inside an HCL quoted string), '...' or `...`.
var (
	requireRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\brequire\s*\(\s*(?:\\?"((?:[^"\\\n]|\\[^"\n])*)\\?"|'((?:[^'\\\n]|\\.)*)'|` + "`([^`]*)`" + `)\s*\)`)
	})
	requireCallRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\brequire\s*\(`) })
	// requireWordRE is every mention of require, called or not.
	requireWordRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\brequire\b`) })
	// jsEscapeRE is a unicode escape, which can spell an identifier.
	jsEscapeRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\\u[0-9a-fA-F{]`) })
	// requireValueRE is require used as a value (aliased, passed on,
	// require.resolve): its calls cannot be followed.
	requireValueRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\brequire\b[ \t]*(?:[;,)\]}.=:]|\r?\n|$)`) })
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
func (p *Pins) requires(src []byte, dir, from string) []string {
	text := string(src)
	calls := len(requireCallRE().FindAllStringIndex(text, -1))
	words := len(requireWordRE().FindAllStringIndex(text, -1))
	matches := requireRE().FindAllStringSubmatch(text, -1)
	switch {
	case calls > len(matches) || words > len(matches) || requireValueRE().MatchString(text):
		// A require the literal pattern does not account for:
		// require/**/("x"), require used as a value, ...
		p.computed("require() with a computed name in %s", filepath.Base(from))
	case jsEscapeRE().MatchString(text):
		// \u0072equire("x") is require("x") to JavaScript.
		p.computed("escapes that can spell require in %s", filepath.Base(from))
	}
	var js []string
	imported, computed := imports(text)
	if computed {
		p.computed("import() with a computed name in %s", filepath.Base(from))
	}
	for _, name := range imported {
		matches = append(matches, []string{"", name, "", ""})
	}
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
func (p *Pins) resolveModule(m string) []string {
	var js []string
	try := func(f string) {
		p.add(f)
		if fi, err := os.Stat(f); err == nil && fi.Mode().IsRegular() && !strings.HasSuffix(f, ".json") {
			js = append(js, f)
		}
		// A TypeScript file loads in place of a missing one.
		for _, ts := range tsFiles(f) {
			p.add(ts)
			if fi, err := os.Stat(ts); err == nil && fi.Mode().IsRegular() {
				js = append(js, ts)
			}
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
	if b, err := safefile.ReadRegular(pkg); err == nil {
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
