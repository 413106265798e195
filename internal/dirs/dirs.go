package dirs

import (
	"errors"
	"fmt"
	"path/filepath"
	goruntime "runtime"
	"strings"
)

// ManagedEnv names the variable that overrides the managed directory.
const ManagedEnv = "HOOKCTL_MANAGED_DIR"

// StateEnv names the variable that overrides the state directory.
const StateEnv = "HOOKCTL_STATE_DIR"

// ErrNoHome is returned when the variables that locate a user's
// directories are not set.
var ErrNoHome = errors.New("no home directory: set $HOME (%AppData% and %LocalAppData% on Windows)")

// Managed is the directory of the organisation's managed policy:
// $HOOKCTL_MANAGED_DIR if set, else /etc/hookctl on Linux and other
// Unix systems, /Library/Application Support/hookctl on macOS and
// ProgramData\hookctl on Windows (the system's ProgramData folder, as the
// system knows it: not read from the environment's %ProgramData%).
func Managed(getenv func(string) string) string { return managed(goruntime.GOOS, getenv) }

// Config is the user's hookctl configuration directory:
// $XDG_CONFIG_HOME/hookctl if XDG_CONFIG_HOME is an absolute path, else
// ~/.config/hookctl on Linux and other Unix systems,
// ~/Library/Application Support/hookctl on macOS and %AppData%\hookctl on
// Windows.
func Config(getenv func(string) string) (string, error) { return config(goruntime.GOOS, getenv) }

// State is the directory of hookctl's state: $HOOKCTL_STATE_DIR if set,
// else $XDG_STATE_HOME/hookctl if XDG_STATE_HOME is an absolute path, else
// ~/.local/state/hookctl on Linux and other Unix systems,
// ~/Library/Application Support/hookctl/state on macOS and
// %LocalAppData%\hookctl\state on Windows.
func State(getenv func(string) string) (string, error) { return state(goruntime.GOOS, getenv) }

func managed(goos string, getenv func(string) string) string {
	if d := getenv(ManagedEnv); d != "" {
		return d
	}
	switch goos {
	case "darwin", "ios":
		return "/Library/Application Support/hookctl"
	case "windows":
		// The system's own ProgramData (FOLDERID_ProgramData), never the
		// %ProgramData% of the environment: a process that sets that
		// variable (a repository's agent settings can) would point the
		// managed layer at a directory that is not there, and a missing
		// managed directory is no managed layer.
		pd := systemProgramData()
		if pd == "" {
			pd = `C:\ProgramData`
		}
		return join(goos, pd, "hookctl")
	}
	return "/etc/hookctl"
}

func config(goos string, getenv func(string) string) (string, error) {
	if d := getenv("XDG_CONFIG_HOME"); d != "" && isAbs(goos, d) {
		return join(goos, d, "hookctl"), nil
	}
	switch goos {
	case "windows":
		if d := getenv("AppData"); d != "" {
			return join(goos, d, "hookctl"), nil
		}
		return "", ErrNoHome
	case "darwin", "ios":
		home, err := homeOf(getenv)
		if err != nil {
			return "", err
		}
		return join(goos, home, "Library", "Application Support", "hookctl"), nil
	}
	home, err := homeOf(getenv)
	if err != nil {
		return "", err
	}
	return join(goos, home, ".config", "hookctl"), nil
}

func state(goos string, getenv func(string) string) (string, error) {
	if d := getenv(StateEnv); d != "" {
		return d, nil
	}
	if d := getenv("XDG_STATE_HOME"); d != "" && isAbs(goos, d) {
		return join(goos, d, "hookctl"), nil
	}
	switch goos {
	case "windows":
		if d := getenv("LocalAppData"); d != "" {
			return join(goos, d, "hookctl", "state"), nil
		}
		return "", ErrNoHome
	case "darwin", "ios":
		home, err := homeOf(getenv)
		if err != nil {
			return "", err
		}
		return join(goos, home, "Library", "Application Support", "hookctl", "state"), nil
	}
	home, err := homeOf(getenv)
	if err != nil {
		return "", err
	}
	return join(goos, home, ".local", "state", "hookctl"), nil
}

func homeOf(getenv func(string) string) (string, error) {
	if h := getenv("HOME"); h != "" {
		return h, nil
	}
	return "", ErrNoHome
}

// isAbs is filepath.IsAbs of the platform goos.
func isAbs(goos, p string) bool {
	if goos != "windows" {
		return strings.HasPrefix(p, "/")
	}
	if strings.HasPrefix(p, `\\`) || strings.HasPrefix(p, "//") {
		return true
	}
	return len(p) >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/')
}

// join is filepath.Join with the separator of the platform goos.
func join(goos string, elem ...string) string {
	if goos == goruntime.GOOS {
		return filepath.Join(elem...)
	}
	sep := "/"
	if goos == "windows" {
		sep = `\`
	}
	parts := make([]string, 0, len(elem))
	for i, e := range elem {
		if i > 0 {
			e = strings.Trim(e, `/\`)
		} else {
			e = strings.TrimRight(e, `/\`)
		}
		if e != "" {
			parts = append(parts, e)
		}
	}
	return strings.Join(parts, sep)
}

// String names the three directories, for doctor.
func String(getenv func(string) string) string {
	c, cerr := Config(getenv)
	if cerr != nil {
		c = cerr.Error()
	}
	s, serr := State(getenv)
	if serr != nil {
		s = serr.Error()
	}
	return fmt.Sprintf("managed %s, user %s, state %s", Managed(getenv), c, s)
}
