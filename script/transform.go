package script

import (
	"container/list"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/go-sourcemap/sourcemap"
)

// TypeScript and ES modules run without a build step: esbuild's transform
// API (no bundling, no type checking) strips the types and turns import
// and export into require() and module.exports, as k6 does, and writes a
// source map that goja's parser applies, so every position, from a syntax
// error to a stack frame or a timeout, is the author's. A source mapped
// position names its source by a file: URL (sourceURL), which tells it
// apart from a position in generated code; programs.original turns it
// back into the author's file and a 1-based column.
//
// What esbuild returns is kept in a TransformCache by a hash of the
// source, so a reload of an unchanged configuration transforms nothing.

// Transform limits.
const (
	// DefaultTransformCacheEntries and DefaultTransformCacheBytes bound a
	// TransformCache made by NewTransformCache(0, 0).
	DefaultTransformCacheEntries = 1024
	DefaultTransformCacheBytes   = 64 << 20
)

// transformTarget is the language level esbuild writes: goja runs ES2020
// (optional chaining, ??, async functions, classes); later syntax (class
// fields, logical assignment, ...) is lowered.
const transformTarget = api.ES2020

// TransformCache keeps esbuild's output by a hash of what was transformed
// (the source, its name and the kind of transform), least recently used
// first out when it holds more than its bounds. A Pool makes its own
// unless given one with WithTransformCache: a Watcher gives every reload
// the same cache, so an unchanged file is never transformed twice. It is
// safe for concurrent use.
type TransformCache struct {
	maxEntries, maxBytes int

	mu      sync.Mutex
	bytes   int
	entries map[[sha256.Size]byte]*list.Element
	order   *list.List // of *transformed, most recently used first

	hits, misses atomic.Int64
}

// NewTransformCache returns a cache holding at most maxEntries results and
// maxBytes of code and maps (a value <= 0 takes the default).
func NewTransformCache(maxEntries, maxBytes int) *TransformCache {
	if maxEntries <= 0 {
		maxEntries = DefaultTransformCacheEntries
	}
	if maxBytes <= 0 {
		maxBytes = DefaultTransformCacheBytes
	}
	return &TransformCache{maxEntries: maxEntries, maxBytes: maxBytes, entries: map[[sha256.Size]byte]*list.Element{}, order: list.New()}
}

// WithTransformCache makes the pool keep its TypeScript and ES module
// transforms in c, which other pools may share.
func WithTransformCache(c *TransformCache) Option {
	return func(p *Pool) {
		if c != nil {
			p.transforms = c
		}
	}
}

// TransformStats counts a cache's lookups.
type TransformStats struct {
	// Hits found a transform done before; Misses ran esbuild.
	Hits, Misses int64
	// Entries and Bytes are what the cache holds.
	Entries, Bytes int
}

// Stats reports the cache's lookups and size.
func (c *TransformCache) Stats() TransformStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return TransformStats{Hits: c.hits.Load(), Misses: c.misses.Load(), Entries: c.order.Len(), Bytes: c.bytes}
}

// transformKind is what a source is transformed into.
type transformKind byte

const (
	// kindModule: a file, as a CommonJS module.
	kindModule transformKind = iota + 1
	// kindBody: an inline handler body wrapped in a function expression.
	kindBody
)

// transformed is esbuild's output for one source: the JavaScript, the
// comment carrying its source map (to append as the code's last line), or
// the errors. Immutable, shared by every user of the cache.
type transformed struct {
	key     [sha256.Size]byte
	code    string
	mapLine string
	errs    []api.Message
	size    int
}

// transform returns esbuild's output for src, named by the URL source:
// TypeScript when ts, ES module syntax turned into CommonJS for a module.
// A module's code starts with a blank line (the module wrapper goes there,
// with nothing of the author's on it) and its map says so.
func (c *TransformCache) transform(kind transformKind, source, src string, ts bool) *transformed {
	h := sha256.New()
	h.Write([]byte{'h', 'k', '1', byte(kind), boolByte(ts)})
	h.Write([]byte(source))
	h.Write([]byte{0})
	h.Write([]byte(src))
	var key [sha256.Size]byte
	h.Sum(key[:0])

	c.mu.Lock()
	if el, ok := c.entries[key]; ok {
		c.order.MoveToFront(el)
		c.mu.Unlock()
		c.hits.Add(1)
		return el.Value.(*transformed)
	}
	c.mu.Unlock()
	c.misses.Add(1)

	t := runEsbuild(kind, source, src, ts)
	t.key = key
	t.size = len(t.code) + len(t.mapLine) + len(src)/4
	for _, e := range t.errs {
		t.size += len(e.Text)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[key]; ok { // transformed meanwhile
		c.order.MoveToFront(el)
		return el.Value.(*transformed)
	}
	if t.size > c.maxBytes {
		return t
	}
	c.entries[key] = c.order.PushFront(t)
	c.bytes += t.size
	for c.order.Len() > c.maxEntries || c.bytes > c.maxBytes {
		last := c.order.Back()
		old := last.Value.(*transformed)
		c.order.Remove(last)
		delete(c.entries, old.key)
		c.bytes -= old.size
	}
	return t
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// runEsbuild transforms one source.
func runEsbuild(kind transformKind, source, src string, ts bool) *transformed {
	opts := api.TransformOptions{
		Sourcefile:     source,
		Loader:         api.LoaderJS,
		Target:         transformTarget,
		Platform:       api.PlatformNeutral,
		Sourcemap:      api.SourceMapExternal,
		SourcesContent: api.SourcesContentExclude,
		LegalComments:  api.LegalCommentsNone,
		Charset:        api.CharsetUTF8,
		LogLevel:       api.LogLevelSilent,
		// goja has no import(): esbuild writes it as a require() in a
		// promise.
		Supported: map[string]bool{"dynamic-import": false},
	}
	if ts {
		opts.Loader = api.LoaderTS
	}
	if kind == kindModule {
		opts.Format = api.FormatCommonJS
	}
	res := api.Transform(src, opts)
	if len(res.Errors) > 0 {
		return &transformed{errs: res.Errors}
	}
	code := string(res.Code)
	m := res.Map
	if kind == kindModule {
		code = "\n" + code
		m = shiftMapLines(m)
	}
	return &transformed{code: code, mapLine: mapLinePrefix + base64.StdEncoding.EncodeToString(m)}
}

// shiftMapLines moves a source map's generated lines one down (a ";" in
// front of the mappings), for code that gained a blank first line.
func shiftMapLines(m []byte) []byte {
	var sm map[string]json.RawMessage
	if json.Unmarshal(m, &sm) != nil {
		return m
	}
	var mappings string
	if json.Unmarshal(sm["mappings"], &mappings) != nil {
		return m
	}
	b, _ := json.Marshal(";" + mappings)
	sm["mappings"] = b
	out, err := json.Marshal(sm)
	if err != nil {
		return m
	}
	return out
}

// sourceURL names a file in a source map: a file: URL, so that a
// position goja maps back to the source is told apart from one in
// generated code.
func sourceURL(file string) string {
	abs, err := filepath.Abs(file)
	if err != nil {
		abs = file
	}
	u := &url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}
	// The form goja gives back: parsed and printed again.
	if v, err := url.Parse(u.String()); err == nil {
		return v.String()
	}
	return u.String()
}

// esmSyntaxRE finds ES module syntax in a .js file: an import or export
// statement at the start of a line.
var esmSyntaxRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^[ \t]*(?:import[ \t]*(?:[\w$*{]|["'])|export[ \t]+(?:default\b|const\b|let\b|var\b|function\b|async\b|class\b|\{|\*)|export[ \t]*\{)`)
})

// fileLanguage says how a module file is transformed: TypeScript, ES
// module JavaScript (module true, ts false), or not at all.
func fileLanguage(path string, src []byte) (transform, ts bool) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".ts", ".mts", ".cts":
		return true, true
	case ".mjs":
		return true, false
	case ".js":
		return esmSyntaxRE().Match(src), false
	}
	return false, false
}

// tsAlternative returns the TypeScript file a module path that does not
// exist stands for, TypeScript's convention: "./lib.js" is lib.ts (and
// .mjs .mts, .cjs .cts); "./lib" is lib.ts when there is no lib.js. ""
// when there is none to try.
func tsAlternative(path string, exists func(string) bool) string {
	ext := filepath.Ext(path)
	base := strings.TrimSuffix(path, ext)
	switch ext {
	case ".js":
		return base + ".ts"
	case ".mjs":
		return base + ".mts"
	case ".cjs":
		return base + ".cts"
	case "":
		if !exists(path + ".js") {
			return path + ".ts"
		}
	}
	return ""
}

// mapLinePrefix starts the comment that carries a transform's source map.
const mapLinePrefix = "//# sourceMappingURL=data:application/json;base64,"

// generatedPosition maps a position in transformed code (its last line
// the comment carrying the source map) to the source, for the rare error
// goja's parser finds in code esbuild wrote: the parser reads the map
// only once the code parsed. The column returned is 1-based; false when
// the code has no map or the map says nothing of the position.
func generatedPosition(code string, line, col int) (int, int, bool) {
	i := strings.LastIndex(code, mapLinePrefix)
	if i < 0 {
		return 0, 0, false
	}
	enc := code[i+len(mapLinePrefix):]
	if j := strings.IndexByte(enc, '\n'); j >= 0 {
		enc = enc[:j]
	}
	data, err := base64.StdEncoding.DecodeString(enc)
	if err != nil {
		return 0, 0, false
	}
	m, err := sourcemap.Parse("", data)
	if err != nil {
		return 0, 0, false
	}
	_, _, l, c, ok := m.Source(line, max(col-1, 0))
	if !ok {
		return 0, 0, false
	}
	return l, c + 1, true
}
