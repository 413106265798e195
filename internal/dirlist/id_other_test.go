//go:build !unix

package dirlist_test

import (
	"time"

	"github.com/hookctl/hookctl/internal/filestamp"
)

// setCtime sets a fake stamp's change time: the stamp has none here.
func setCtime(*filestamp.ID, time.Time) {}

// anotherID makes a fake stamp's identity another file's.
func anotherID(id *filestamp.ID) { id[0]++ }

// firstID is a fake stamp's first identity.
func firstID() filestamp.ID { return filestamp.ID{1} }
