//go:build unix

package dirlist_test

import (
	"time"

	"github.com/hookctl/hookctl/internal/filestamp"
)

// setCtime sets a fake stamp's change time.
func setCtime(id *filestamp.ID, t time.Time) { id.CtimeSec, id.Ctime = t.Unix(), int64(t.Nanosecond()) }

// anotherID makes a fake stamp's identity another file's.
func anotherID(id *filestamp.ID) { id.Ino++ }

// firstID is a fake stamp's first identity.
func firstID() filestamp.ID { return filestamp.ID{Dev: 1, Ino: 1} }
