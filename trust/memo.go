package trust

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"sync"
)

// memoMax bounds the configurations a memo keeps, and memoFile the size
// of a configuration file it keeps (a bigger one is hashed every time).
const (
	memoMax  = 64
	memoFile = 256 << 10
)

// memo remembers, per configuration, the record it was last found to
// match and the exact bytes it matched with. A check is a pure function
// of the record and the content read: when the record is the same one
// (the trust file's store is shared and never changed, so a new version
// of the trust file brings new records) and the bytes read now equal the
// bytes that matched, the check's answer is the one computed then, and
// the hashing is skipped. The content is still read on every check; only
// hashing it, and the digest of the pinned set, are saved. It serves the
// common configuration, one file that pins nothing but itself.
type memo struct {
	mu      sync.Mutex
	entries map[string]memoEntry
	bufs    sync.Pool
}

type memoEntry struct {
	rec     *Record
	content []byte
}

// single reports whether rec pins key's file alone, key being a file
// configuration in root: its check hashes that one file.
func single(root, key string, rec *Record) bool {
	if rec.Walk || len(rec.Files) != 1 {
		return false
	}
	for k := range rec.Files {
		return pinPath(root, k) == key
	}
	return false
}

// check reads r (the opened configuration key) to its end and reports
// whether it matches rec, from the memo when it can. When it does not say
// trusted, hash is the content's hash (the memo's answer is final only
// for files it keeps: the caller checks a bigger one as usual, with this
// hash).
func (m *memo) check(root, key string, rec *Record, r io.Reader) (trusted bool, hash string, err error) {
	bp, _ := m.bufs.Get().(*[]byte)
	if bp == nil {
		b := make([]byte, 0, 16<<10)
		bp = &b
	}
	buf := (*bp)[:0]
	defer func() {
		if cap(buf) <= 2*memoFile {
			*bp = buf[:0]
			m.bufs.Put(bp)
		}
	}()
	for len(buf) <= memoFile {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, rerr := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return false, "", rerr
		}
	}
	if len(buf) > memoFile {
		h := sha256.New()
		h.Write(buf)
		if _, err := io.Copy(h, r); err != nil {
			return false, "", err
		}
		return false, hex.EncodeToString(h.Sum(nil)), nil
	}
	m.mu.Lock()
	e, hit := m.entries[key]
	m.mu.Unlock()
	if hit && e.rec == rec && bytes.Equal(e.content, buf) {
		return true, "", nil
	}
	sum := sha256.Sum256(buf)
	hash = hex.EncodeToString(sum[:])
	if Digest(map[string]string{pinKey(root, key): hash}) != rec.SHA256 {
		return false, hash, nil
	}
	m.mu.Lock()
	if m.entries == nil || len(m.entries) >= memoMax {
		m.entries = map[string]memoEntry{}
	}
	m.entries[key] = memoEntry{rec: rec, content: bytes.Clone(buf)}
	m.mu.Unlock()
	return true, hash, nil
}
