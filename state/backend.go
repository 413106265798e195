package state

import (
	"fmt"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/state/stateurl"
)

// Backend says where the state is kept (package stateurl).
type Backend = stateurl.Backend

// SettingState names settings.state in messages.
const SettingState = "settings.state"

// ParseBackend parses a state URL (memory:, file:///PATH, nats:// or
// tls:// URLs separated by commas); setting names what gave it in the
// error (SettingState), an *stateurl.Error.
func ParseBackend(setting, url string) (Backend, error) {
	b, err := stateurl.Parse(setting, url)
	if err != nil {
		return Backend{}, err
	}
	b.Source = setting
	return b, nil
}

// ParseNATS parses a NATS server list, as `hookctl serve --nats` takes
// it; setting names it in the error and is the Backend's Source.
func ParseNATS(setting, list string) (Backend, error) {
	b, err := stateurl.ParseNATS(setting, list)
	if err != nil {
		return Backend{}, err
	}
	b.Source = setting
	return b, nil
}

// BackendOf is the state a loaded configuration asks for: settings.state
// when it is set (its Source naming where it is written), else the file
// store of settings.state_file, else the default file store. The error
// is a settings.state that does not parse (the loader refuses it, so only
// a Config made by hand has one).
func BackendOf(cfg *assemble.Config) (Backend, error) {
	if cfg.Settings.State == "" {
		return Backend{File: cfg.Settings.StateFile}, nil
	}
	src := SettingState
	if d := cfg.Decoded(); d != nil && d.StateRange.Filename != "" {
		r := d.StateRange
		src = fmt.Sprintf("%s at %s:%d:%d", SettingState, r.Filename, r.Start.Line, r.Start.Column)
	}
	b, err := stateurl.Parse(src, cfg.Settings.State)
	if err != nil {
		return Backend{}, err
	}
	b.Source = src
	return b, nil
}

// Kind is the kind of backend a Backend names (package stateurl).
type Kind = stateurl.Kind

// The kinds of backend.
const (
	KindFile   = stateurl.KindFile
	KindMemory = stateurl.KindMemory
	KindNATS   = stateurl.KindNATS
)

// Kinds lists every kind of backend (stateurl.Kinds).
func Kinds() []Kind { return stateurl.Kinds() }
