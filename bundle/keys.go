package bundle

import (
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"strings"

	"aead.dev/minisign"

	"github.com/hookctl/hookctl/internal/safefile"
)

// PasswordEnv names the variable holding the password of an encrypted
// private key (keygen encrypts the key with it when it is set).
const PasswordEnv = "HOOKCTL_BUNDLE_PASSWORD"

// GenerateKey returns a new key pair in minisign's text format: the
// private key encrypted with password (minisign's scrypt and
// XSalsa20-Poly1305), or unencrypted when password is "".
func GenerateKey(password string) (pub, priv []byte, err error) {
	pk, sk, err := minisign.GenerateKey(rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	if pub, err = pk.MarshalText(); err != nil {
		return nil, nil, err
	}
	if password == "" {
		priv, err = sk.MarshalText()
	} else {
		priv, err = minisign.EncryptKey(password, sk)
	}
	if err != nil {
		return nil, nil, err
	}
	return append(pub, '\n'), append(priv, '\n'), nil
}

// ReadPublicKey reads a minisign public key file.
func ReadPublicKey(path string) (minisign.PublicKey, error) {
	var k minisign.PublicKey
	b, err := safefile.ReadRegular(path)
	if err != nil {
		return k, err
	}
	if err := ParsePublicKey(b, &k); err != nil {
		return k, fmt.Errorf("%s: %w", path, err)
	}
	return k, nil
}

// ParsePublicKey decodes a public key in minisign's format: the key line
// alone, or after an "untrusted comment:" line.
func ParsePublicKey(b []byte, k *minisign.PublicKey) error {
	s := strings.TrimSpace(string(b))
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[i+1:])
	}
	if err := k.UnmarshalText([]byte(s)); err != nil {
		return fmt.Errorf("not a minisign public key: %w", err)
	}
	return nil
}

// ReadPrivateKey reads a minisign private key file; an encrypted one is
// decrypted with the password password returns (asked only then).
func ReadPrivateKey(path string, password func() (string, error)) (minisign.PrivateKey, error) {
	var k minisign.PrivateKey
	b, err := safefile.ReadRegular(path)
	if err != nil {
		return k, err
	}
	if !minisign.IsEncrypted(b) {
		if err := k.UnmarshalText(b); err != nil {
			return k, fmt.Errorf("%s: not a minisign private key: %w", path, err)
		}
		return k, nil
	}
	if password == nil {
		return k, fmt.Errorf("%s is encrypted: set $%s", path, PasswordEnv)
	}
	pw, err := password()
	if err != nil {
		return k, err
	}
	if k, err = minisign.DecryptKey(pw, b); err != nil {
		return k, fmt.Errorf("%s: %w (wrong password?)", path, err)
	}
	return k, nil
}

// WriteKeyPair writes the key pair to name.key (mode 0600) and name.pub,
// refusing to overwrite either.
func WriteKeyPair(name string, pub, priv []byte) error {
	for _, p := range []string{name + ".key", name + ".pub"} {
		if _, err := os.Lstat(p); err == nil {
			return fmt.Errorf("%s exists: not overwriting it", p)
		} else if !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	if err := write(name+".key", priv, 0o600); err != nil {
		return err
	}
	if err := write(name+".pub", pub, 0o644); err != nil {
		os.Remove(name + ".key")
		return err
	}
	return nil
}

func write(p string, b []byte, mode os.FileMode) error {
	f, err := safefile.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	if err := f.Chmod(mode); err != nil { // past the umask
		f.Close()
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
