package trust

import (
	"sync"
	"time"

	"github.com/hookctl/hookctl/internal/filestamp"
)

// settleTick is how long after its last write a trust file's stamp is
// trusted to change with the next write: longer than the tick of any
// file system's clock (FAT keeps modification times to 2 seconds).
const settleTick = filestamp.SettleTick

// maxIndexed bounds the trust files an Index keeps (one per environment
// a long-lived process answers).
const maxIndexed = 16

// Index reads each trust file once per version of it and looks records
// up by path, for a process that checks trust on every call (the
// daemon): a call costs the same with 6 trusted configurations or 1,000.
// A version is the file's stamp (device, inode, change time, size and
// modification time; package filestamp): a trust file replaced or
// rewritten in place is read again on the next call. A file last written
// less than a few seconds before it was read is read again on every call
// until it settles, since two writes within one tick of the file
// system's clock can leave its stamp as it was. The configuration itself
// is read on every check, as Check does, and hashed unless the same bytes
// matched the same record before (memo: a one-file configuration). An Index is safe for
// concurrent use; the stores it returns are shared and must not be
// changed.
type Index struct {
	mu    sync.Mutex
	files map[string]indexed
	// stamp and now are filestamp.Of and time.Now (tests replace them).
	stamp func(string) filestamp.Stamp
	now   func() time.Time
	// memo spares hashing a configuration that matched its record
	// before with the same bytes (see memo).
	memo memo
}

type indexed struct {
	stamp filestamp.Stamp
	store *Store
}

// NewIndex returns an empty index.
func NewIndex() *Index {
	return &Index{files: map[string]indexed{}, stamp: filestamp.Of, now: time.Now}
}

// Store returns the trust file tf as ReadStore reads it, from the index
// when tf is as it was when indexed. The store is shared: do not change it.
func (ix *Index) Store(tf string) (*Store, error) {
	before := ix.stamp(tf)
	ix.mu.Lock()
	e, ok := ix.files[tf]
	ix.mu.Unlock()
	if ok && before.Exists && e.stamp.Equal(before) {
		return e.store, nil
	}
	start := ix.now()
	st, err := ReadStore(tf)
	if err != nil {
		ix.forget(tf)
		return nil, err
	}
	// Kept only if the file did not change while it was read and no
	// write within the clock's tick can hide behind its stamp.
	if after := ix.stamp(tf); before.Exists && after.Equal(before) && after.Settled(start, settleTick) {
		ix.mu.Lock()
		if len(ix.files) >= maxIndexed {
			clear(ix.files)
		}
		ix.files[tf] = indexed{stamp: after, store: st}
		ix.mu.Unlock()
	} else {
		ix.forget(tf)
	}
	return st, nil
}

func (ix *Index) forget(tf string) {
	ix.mu.Lock()
	delete(ix.files, tf)
	ix.mu.Unlock()
}

// Check is Check (with opts, Checker) through the index: the trust file
// is looked up, the configuration's pinned files hashed as they are now.
func (ix *Index) Check(path string, opts ...Option) error {
	_, err := ix.Verify(path, opts...)
	return err
}

// Verify is Check that also returns the Verifier of the record it
// checked against (one resolution of the path, one look-up of the trust
// file): what a call that then loads the configuration needs.
func (ix *Index) Verify(path string, opts ...Option) (*Verifier, error) {
	return checkRecord(path, opts, ix.Store, &ix.memo)
}

// Verifier is NewVerifier through the index.
func (ix *Index) Verifier(tf, path string) (*Verifier, error) {
	key, err := Canonical(path)
	if err != nil {
		return nil, err
	}
	st, err := ix.Store(tf)
	if err != nil {
		return nil, err
	}
	return verifierOf(st, key)
}
