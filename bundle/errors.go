package bundle

import "fmt"

// SignatureError is a bundle (or signed directory) whose manifest no
// trusted key verifies: tampered, signed by another key, or not signed.
type SignatureError struct {
	// Path is the bundle's path; Reason says what failed.
	Path, Reason string
}

func (e *SignatureError) Error() string {
	return fmt.Sprintf("bundle %s: signature not verified: %s", e.Path, e.Reason)
}

// ManifestError is a bundle whose content is not what its manifest says,
// or is not a well-formed bundle: an entry that is not a regular file,
// not in the manifest, listed twice, past a limit, with another hash, or
// a file of the manifest missing.
type ManifestError struct {
	// Path is the bundle's path; Entry the entry at fault ("" for the
	// bundle as a whole); Reason says what is wrong.
	Path, Entry, Reason string
}

func (e *ManifestError) Error() string {
	if e.Entry == "" {
		return fmt.Sprintf("bundle %s: %s", e.Path, e.Reason)
	}
	return fmt.Sprintf("bundle %s: %s: %s", e.Path, e.Entry, e.Reason)
}
