package daemon

import (
	"slices"
	"strconv"
	"strings"
)

// callFields is the number of fields of a Hook on the wire.
const callFields = 11

// fields is c on the wire, in order (AllowUntrusted and Verbose as "1"
// or "").
func (c Hook) fields() [callFields]string {
	flag := func(b bool) string {
		if b {
			return "1"
		}
		return ""
	}
	return [callFields]string{c.Command, c.Host, c.Event, c.Config, c.LogLevel, flag(c.AllowUntrusted), c.OnUntrusted, c.OnConfigError, c.OnAsk, flag(c.Verbose), c.HostTimeout}
}

func callOf(f [callFields]string) Hook {
	return Hook{Command: f[0], Host: f[1], Event: f[2], Config: f[3], LogLevel: f[4], AllowUntrusted: f[5] != "",
		OnUntrusted: f[6], OnConfigError: f[7], OnAsk: f[8], Verbose: f[9] != "", HostTimeout: f[10]}
}

// IsHookCommand reports whether name is a hookctl command the daemon
// runs (command names: "hookctl claude" is "hookctl hook --host claude").
func IsHookCommand(name string) bool { return slices.Contains([]string{"claude", "hook"}, name) }

// ParseArgs reads the arguments of a hook command as hookctl's flag
// parser does (--flag value, --flag=value, -c value, -cvalue, -c=value; a
// flag given twice: the last), for the commands the daemon runs: claude,
// and hook. ok is false for anything else (another command, a flag it
// does not know, --help, an argument): hookctl itself must run it.
func ParseArgs(args []string) (c Hook, ok bool) {
	if len(args) == 0 || !IsHookCommand(args[0]) {
		return c, false
	}
	c.Command = args[0]
	str := map[string]*string{
		"config": &c.Config, "log-level": &c.LogLevel, "on-untrusted": &c.OnUntrusted,
		"on-config-error": &c.OnConfigError, "on-ask": &c.OnAsk, "host-timeout": &c.HostTimeout,
	}
	if c.Command == "hook" {
		str["host"], str["event"] = &c.Host, &c.Event
	}
	modes := map[string]string{} // the modes given, as last given
	for i := 1; i < len(args); i++ {
		a := args[i]
		var name, value string
		hasValue := false
		switch {
		case strings.HasPrefix(a, "--") && len(a) > 2:
			name, value, hasValue = strings.Cut(a[2:], "=")
		case a == "-c":
			name = "config"
		case strings.HasPrefix(a, "-c=") && len(a) > 3:
			// As pflag reads it: -c=X is X, but -c= is "=".
			name, value, hasValue = "config", a[3:], true
		case strings.HasPrefix(a, "-c") && len(a) > 2:
			name, value, hasValue = "config", a[2:], true
		default:
			return c, false // an argument, "-", "--" or another shorthand
		}
		var b *bool
		switch name {
		case "allow-untrusted":
			b = &c.AllowUntrusted
		case "verbose":
			b = &c.Verbose
		}
		if b != nil {
			if hasValue {
				v, err := strconv.ParseBool(value)
				if err != nil {
					return c, false
				}
				*b = v
			} else {
				*b = true
			}
			continue
		}
		p, known := str[name]
		if !known {
			return c, false
		}
		if !hasValue {
			if i+1 >= len(args) {
				return c, false // hookctl says the flag needs an argument
			}
			i++
			value = args[i]
		}
		*p = value
		if strings.HasPrefix(name, "on-") {
			modes[name] = value
		}
	}
	for _, v := range modes {
		if v == "" {
			return c, false // hookctl refuses an empty mode; it says how
		}
	}
	return c, true
}
