//go:build unix

package runtime

import (
	"fmt"
	"os"
	"syscall"
)

// writable says why the file at p could be written by someone a layer
// must not trust ("" when no one could): see checkTree. The mode and the
// owner are those of what p names (a symbolic link is followed: its
// target is what is read).
func writable(p string, uid int, own bool) (string, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return "", err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return "", fmt.Errorf("cannot read its owner")
	}
	mode := fi.Mode().Perm()
	if mode&0o022 != 0 {
		return fmt.Sprintf("it is writable by its group or by others (mode %04o)", mode), nil
	}
	owner := int(st.Uid)
	if own {
		if owner != uid && owner != 0 {
			return fmt.Sprintf("it belongs to uid %d, neither you (uid %d) nor root", owner, uid), nil
		}
		return "", nil
	}
	if owner == uid && uid != 0 {
		return fmt.Sprintf("it belongs to the user running hookctl (uid %d), who can change it", uid), nil
	}
	return "", nil
}
