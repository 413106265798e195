package trust

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"aead.dev/minisign"
)

// KeyRecord is one trusted public key: a bundle or signed directory whose
// manifest it verifies is trusted without a record of its own.
type KeyRecord struct {
	// ID is the key's ID as minisign prints it (16 hex digits).
	ID string `json:"id"`
	// PublicKey is the key in minisign's text form (the base64 line).
	PublicKey string `json:"public_key"`
	// Source is the file it was read from.
	Source    string    `json:"source,omitempty"`
	TrustedAt time.Time `json:"trusted_at"`
}

// Key decodes the record's key.
func (r *KeyRecord) Key() (minisign.PublicKey, error) {
	var k minisign.PublicKey
	err := k.UnmarshalText([]byte(r.PublicKey))
	return k, err
}

func keyID(k minisign.PublicKey) string { return fmt.Sprintf("%016X", k.ID()) }

// TrustKey records the public key k (read from source) in the trust file
// tf. It returns the record and whether the key was trusted already.
func TrustKey(tf string, k minisign.PublicKey, source string) (*KeyRecord, bool, error) {
	st, err := ReadStore(tf)
	if err != nil {
		return nil, false, err
	}
	text, err := k.MarshalText()
	if err != nil {
		return nil, false, err
	}
	for _, r := range st.Keys {
		if r.PublicKey == string(text) {
			return r, true, nil
		}
	}
	rec := &KeyRecord{ID: keyID(k), PublicKey: string(text), Source: source, TrustedAt: time.Now().UTC().Truncate(time.Second)}
	st.Keys = append(st.Keys, rec)
	if err := WriteStore(tf, st); err != nil {
		return nil, false, fmt.Errorf("trust file: %w", err)
	}
	return rec, false, nil
}

// RevokeKey forgets the trusted key k.
func RevokeKey(tf string, k minisign.PublicKey) error {
	st, err := ReadStore(tf)
	if err != nil {
		return err
	}
	text, err := k.MarshalText()
	if err != nil {
		return err
	}
	n := len(st.Keys)
	st.Keys = slices.DeleteFunc(st.Keys, func(r *KeyRecord) bool { return r.PublicKey == string(text) })
	if len(st.Keys) == n {
		return fmt.Errorf("key %s is not trusted", keyID(k))
	}
	if err := WriteStore(tf, st); err != nil {
		return fmt.Errorf("trust file: %w", err)
	}
	return nil
}

// ListKeys returns the trusted keys of the trust file tf, by ID.
func ListKeys(tf string) ([]*KeyRecord, error) {
	st, err := ReadStore(tf)
	if err != nil {
		return nil, err
	}
	out := slices.Clone(st.Keys)
	slices.SortFunc(out, func(a, b *KeyRecord) int { return strings.Compare(a.ID, b.ID) })
	return out, nil
}

// keysOf decodes the keys of st; a record that does not decode is an
// error (the trust file was edited by hand).
func keysOf(st *Store) ([]minisign.PublicKey, error) {
	out := make([]minisign.PublicKey, 0, len(st.Keys))
	for _, r := range st.Keys {
		k, err := r.Key()
		if err != nil {
			return nil, fmt.Errorf("trusted key %s: %w", r.ID, err)
		}
		out = append(out, k)
	}
	return out, nil
}

// Keys returns the trusted public keys of the trust file File(opts...)
// names.
func Keys(opts ...Option) ([]minisign.PublicKey, error) {
	tf, err := File(opts...)
	if err != nil {
		return nil, err
	}
	st, err := ReadStore(tf)
	if err != nil {
		return nil, err
	}
	return keysOf(st)
}

// Keys is Keys through the index.
func (ix *Index) Keys(opts ...Option) ([]minisign.PublicKey, error) {
	tf, err := File(opts...)
	if err != nil {
		return nil, err
	}
	st, err := ix.Store(tf)
	if err != nil {
		return nil, err
	}
	return keysOf(st)
}
