package dirs

import (
	"errors"
	"testing"
)

func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

func TestPerPlatform(t *testing.T) {
	cases := []struct {
		goos                   string
		getenv                 func(string) string
		managed, config, state string
	}{
		{"linux", env("HOME", "/home/u"), "/etc/hookctl", "/home/u/.config/hookctl", "/home/u/.local/state/hookctl"},
		{"linux", env("HOME", "/home/u", "XDG_CONFIG_HOME", "/x/c", "XDG_STATE_HOME", "/x/s"), "/etc/hookctl", "/x/c/hookctl", "/x/s/hookctl"},
		{"linux", env("HOME", "/home/u", "XDG_CONFIG_HOME", "rel", "XDG_STATE_HOME", "rel"), "/etc/hookctl", "/home/u/.config/hookctl", "/home/u/.local/state/hookctl"},
		{"linux", env("HOME", "/home/u", "HOOKCTL_MANAGED_DIR", "/m", "HOOKCTL_STATE_DIR", "/s"), "/m", "/home/u/.config/hookctl", "/s"},
		{"darwin", env("HOME", "/Users/u"), "/Library/Application Support/hookctl", "/Users/u/Library/Application Support/hookctl", "/Users/u/Library/Application Support/hookctl/state"},
		{"darwin", env("HOME", "/Users/u", "XDG_CONFIG_HOME", "/Users/u/.config"), "/Library/Application Support/hookctl", "/Users/u/.config/hookctl", "/Users/u/Library/Application Support/hookctl/state"},
		// The environment's %ProgramData% is not the managed directory's
		// (the system's own folder is): a process could set it to hide
		// the managed layer.
		{"windows", env("AppData", `C:\Users\u\AppData\Roaming`, "LocalAppData", `C:\Users\u\AppData\Local`, "ProgramData", `D:\PD`), `C:\ProgramData\hookctl`, `C:\Users\u\AppData\Roaming\hookctl`, `C:\Users\u\AppData\Local\hookctl\state`},
		{"windows", env("AppData", `C:\A`, "LocalAppData", `C:\L`), `C:\ProgramData\hookctl`, `C:\A\hookctl`, `C:\L\hookctl\state`},
		{"windows", env("AppData", `C:\A`, "LocalAppData", `C:\L`, "XDG_CONFIG_HOME", "/not/absolute/here"), `C:\ProgramData\hookctl`, `C:\A\hookctl`, `C:\L\hookctl\state`},
	}
	for _, c := range cases {
		if got := managed(c.goos, c.getenv); got != c.managed {
			t.Errorf("%s managed = %q, want %q", c.goos, got, c.managed)
		}
		if got, err := config(c.goos, c.getenv); err != nil || got != c.config {
			t.Errorf("%s config = %q, %v; want %q", c.goos, got, err, c.config)
		}
		if got, err := state(c.goos, c.getenv); err != nil || got != c.state {
			t.Errorf("%s state = %q, %v; want %q", c.goos, got, err, c.state)
		}
	}
}

func TestNoHome(t *testing.T) {
	for _, goos := range []string{"linux", "darwin", "windows"} {
		if _, err := config(goos, env()); !errors.Is(err, ErrNoHome) {
			t.Errorf("%s config without home: %v", goos, err)
		}
		if _, err := state(goos, env()); !errors.Is(err, ErrNoHome) {
			t.Errorf("%s state without home: %v", goos, err)
		}
	}
}
