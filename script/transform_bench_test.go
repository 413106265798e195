package script

import (
	"os"
	"testing"
)

// What TypeScript costs at load: esbuild's transform of a hook file, the
// same transform found in the cache (what a reload of an unchanged file
// pays), and a whole reload of a .ts hook with and without a cache shared
// with the previous load.

func benchSource(b *testing.B) string {
	b.Helper()
	src, err := os.ReadFile("testdata/ts/lib/check.ts")
	if err != nil {
		b.Fatal(err)
	}
	return string(src)
}

func BenchmarkTransform(b *testing.B) {
	src := benchSource(b)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if t := runEsbuild(kindModule, "file:///hooks/check.ts", src, true); len(t.errs) > 0 {
			b.Fatal(t.errs)
		}
	}
}

func BenchmarkTransformCached(b *testing.B) {
	src := benchSource(b)
	c := NewTransformCache(0, 0)
	c.transform(kindModule, "file:///hooks/check.ts", src, true)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		c.transform(kindModule, "file:///hooks/check.ts", src, true)
	}
	if s := c.Stats(); s.Misses != 1 {
		b.Fatalf("%+v", s)
	}
}

func BenchmarkReloadTypeScript(b *testing.B) {
	for _, bc := range []struct {
		name  string
		cache *TransformCache
	}{{"cold", nil}, {"cached", NewTransformCache(0, 0)}} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				var opts []Option
				if bc.cache != nil {
					opts = append(opts, WithTransformCache(bc.cache))
				}
				p, err := NewPool("testdata/ts", opts...)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := p.CompileFile("hook.ts"); err != nil {
					b.Fatal(err)
				}
				p.Close()
			}
		})
	}
}
