package daemon

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestSocketDir: the sockets' directory of each platform, and the length
// math that falls back to /tmp when a socket's path would not fit in
// sun_path (103 bytes on macOS, whose $TMPDIR is long; 107 on Linux).
func TestSocketDir(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("unix socket paths; Windows' are named pipes (TestPipeDir)")
	}
	const macTmp = "/var/folders/zz/zyxvpxvq6csfxvn_n0000000000000/T/"
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	// pad is a directory whose sockets' paths are exactly n bytes long
	// (with a slash and the socket's name).
	pad := func(n int, suffix string) string {
		return "/" + strings.Repeat("x", n-1-len(suffix)-1-socketName)
	}
	for _, tc := range []struct {
		name, goos string
		getenv     func(string) string
		want       string
	}{
		{"linux runtime dir", "linux", env("XDG_RUNTIME_DIR", "/run/user/501", "TMPDIR", "/tmpdir"), "/run/user/501/hookctl"},
		{"linux TMPDIR", "linux", env("TMPDIR", "/tmpdir"), "/tmpdir/hookctl-501"},
		{"linux nothing set", "linux", env(), "/tmp/hookctl-501"},
		{"macOS TMPDIR", "darwin", env("TMPDIR", macTmp), macTmp + "hookctl-501"},
		{"macOS ignores XDG_RUNTIME_DIR", "darwin", env("TMPDIR", macTmp, "XDG_RUNTIME_DIR", "/run/user/501"), macTmp + "hookctl-501"},
		{"macOS without TMPDIR", "darwin", env(), "/tmp/hookctl-501"},
		{"freebsd runtime dir", "freebsd", env("XDG_RUNTIME_DIR", "/var/run/user/501", "TMPDIR", "/tmpdir"), "/var/run/user/501/hookctl"},
		// The longest that fits, and one byte more.
		{"macOS 103 bytes", "darwin", env("TMPDIR", pad(103, "/hookctl-501")), pad(103, "/hookctl-501") + "/hookctl-501"},
		{"macOS 104 bytes", "darwin", env("TMPDIR", pad(104, "/hookctl-501")), "/tmp/hookctl-501"},
		{"linux 107 bytes", "linux", env("XDG_RUNTIME_DIR", pad(107, "/hookctl")), pad(107, "/hookctl") + "/hookctl"},
		{"linux 108 bytes", "linux", env("XDG_RUNTIME_DIR", pad(108, "/hookctl")), "/tmp/hookctl-501"},
	} {
		tmp := tc.getenv("TMPDIR")
		if tmp == "" {
			tmp = "/tmp" // os.TempDir on unix
		}
		got, err := socketDir(tc.goos, tmp, tc.getenv, 501)
		if err != nil || filepath.Clean(got) != filepath.Clean(tc.want) {
			t.Errorf("%s: %q, %v; want %q", tc.name, got, err, filepath.Clean(tc.want))
			continue
		}
		sock := Socket(got, "id", "/", "", nil)
		if len(sock) > maxSocketPath(tc.goos) {
			t.Errorf("%s: socket %q is %d bytes, more than %d", tc.name, sock, len(sock), maxSocketPath(tc.goos))
		}
		if len(sock) != len(got)+1+socketName {
			t.Errorf("%s: socket %q is not its directory and %d bytes", tc.name, sock, socketName)
		}
	}
}
