package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"io"
	"os"

	"github.com/rogpeppe/go-internal/testscript"
)

// tamperCmd rewrites a bundle as an attacker would, for scripts:
//
//	tamper file|manifest|signature|extra IN OUT
//
// file flips a byte of the last file entry, manifest a byte of a hash in
// the manifest, signature a byte of the signature; extra adds a file the
// manifest does not list. The archive is recompressed, so that only the
// content differs.
func tamperCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: tamper file|manifest|signature|extra IN OUT")
	}
	zr, err := gzip.NewReader(bytes.NewReader([]byte(ts.ReadFile(args[1]))))
	ts.Check(err)
	tr := tar.NewReader(zr)
	type entry struct {
		hdr  *tar.Header
		data []byte
	}
	var es []entry
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		ts.Check(err)
		d, err := io.ReadAll(tr)
		ts.Check(err)
		es = append(es, entry{h, d})
	}
	if len(es) < 3 {
		ts.Fatalf("tamper: %s has %d entries", args[1], len(es))
	}
	switch args[0] {
	case "file":
		last := es[len(es)-1].data
		last[len(last)/2] ^= 0x20
	case "manifest":
		i := bytes.Index(es[0].data, []byte(`"sha256": "`))
		es[0].data[i+12] ^= 1
	case "signature":
		lines := bytes.Split(es[1].data, []byte("\n"))
		lines[1][20] ^= 1
		es[1].data = bytes.Join(lines, []byte("\n"))
	case "extra":
		es = append(es, entry{&tar.Header{Typeflag: tar.TypeReg, Name: "files/extra.js", Mode: 0o644}, []byte("module.exports = () => ({});\n")})
	default:
		ts.Fatalf("tamper: unknown mode %q", args[0])
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, e := range es {
		e.hdr.Size = int64(len(e.data))
		ts.Check(tw.WriteHeader(e.hdr))
		_, err := tw.Write(e.data)
		ts.Check(err)
	}
	ts.Check(tw.Close())
	ts.Check(zw.Close())
	ts.Check(os.WriteFile(ts.MkAbs(args[2]), buf.Bytes(), 0o644))
}
