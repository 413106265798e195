// Package dirs is the one place that says where hookctl keeps things on
// each platform: the managed (organisation) policy directory, the user's
// configuration directory and the state directory.
//
// Every function reads the environment through a getenv function (the
// environment of the request being answered, or os.Getenv) and never
// creates anything. The platform is a parameter of the unexported
// functions, so the macOS and Windows answers are tested on any machine.
//
//	                 Linux                 macOS                                   Windows
//	managed policy   /etc/hookctl          /Library/Application Support/hookctl    %ProgramData%\hookctl
//	user config      ~/.config/hookctl     ~/Library/Application Support/hookctl   %AppData%\hookctl
//	state            ~/.local/state/hookctl ~/Library/Application Support/hookctl/state %LocalAppData%\hookctl\state
//
// Where set to an absolute path, $HOOKCTL_MANAGED_DIR replaces the managed
// directory, $XDG_CONFIG_HOME/hookctl the user's configuration directory
// and $HOOKCTL_STATE_DIR, then $XDG_STATE_HOME/hookctl, the state
// directory, on every platform (a relative XDG value is ignored, as the
// XDG specification says).
package dirs
