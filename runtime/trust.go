package runtime

import (
	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/trust"
)

// fileCheck is the check of every file a trusted configuration at path
// loads, as it loads it: one the trust record (as it is now) pins.
func fileCheck(path string) (func(file string, content []byte) error, error) {
	tf, err := trust.File()
	if err != nil {
		return nil, err
	}
	v, err := trust.NewVerifier(tf, path)
	if err != nil {
		return nil, err
	}
	return v.Check, nil
}

// TrustGate is the trust gating of a watched configuration at path
// (Watched): every load, the first included, is of a trusted
// configuration, each file checked against the trust record as it is
// then, and trusting it (a change of the trust file) retries a refused
// reload.
func TrustGate(path string) []assemble.WatchOption {
	return []assemble.WatchOption{assemble.WithGate(trust.Check), assemble.WatchFiles(trust.WatchFiles(path)),
		// The project's files only: the layers above it are trusted by
		// who can write them, as hookctl claude trusts them.
		assemble.WithProjectLoadOptions(assemble.WithFileCheck(func(file string, content []byte) error {
			// The record as it is now: a reload after a new trust
			// checks against the new one.
			check, err := fileCheck(path)
			if err != nil {
				return err
			}
			return check(file, content)
		}))}
}
