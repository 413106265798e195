package runtime

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"strings"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/internal/dirlist"
	"github.com/hookctl/hookctl/internal/dirs"
)

// The configuration layers, from the one that holds to the one that
// yields.
const (
	// LayerManaged is the organisation's policy (dirs.Managed): trusted
	// because the user running hookctl cannot write it.
	LayerManaged = assemble.LayerManaged
	// LayerUser is the user's own configuration (dirs.Config).
	LayerUser = assemble.LayerUser
	// LayerProject is the project's configuration (Discover, or
	// --config), trusted through the trust store.
	LayerProject = assemble.LayerProject
)

// Layer is one configuration of a layered load.
type Layer struct {
	// Name is LayerManaged, LayerUser or LayerProject.
	Name string
	// Path is the configuration's file or directory: the managed
	// directory, one of its *.d drop-in directories, the user's
	// configuration directory, or the project's configuration.
	Path string
	// root is the managed or user directory the layer is in.
	root string
}

// String names the layer and its path.
func (l Layer) String() string { return l.Name + " " + l.Path }

// maxManagedEntries bounds the files of a managed or user directory
// checked per load: a tree bigger than this is refused.
const maxManagedEntries = 4096

// DiscoverLayers finds the layers of the configuration, managed first:
// the managed directory (dirs.Managed) when it exists, as one layer for
// its *.hcl files and one per *.d drop-in directory in it (the platform's
// managed directory is found even when $HOOKCTL_MANAGED_DIR names
// another: an environment variable cannot hide the machine's policy); the
// user's directory (dirs.Config) when it holds *.hcl files; the project's
// configuration as Discover finds it (config, --config, replaces only
// it). No layer at all is ErrNoConfig; a managed directory that exists
// but cannot be read is an error, never a missing layer.
func DiscoverLayers(config, cwd string, getenv func(string) string) ([]Layer, error) {
	return discoverLayers(config, cwd, getenv, nil)
}

// discoverLayers is DiscoverLayers listing the managed and user
// directories through ls (nil: listed every time).
func discoverLayers(config, cwd string, getenv func(string) string, ls *dirlist.Cache) ([]Layer, error) {
	var out []Layer
	for _, root := range managedRoots(getenv) {
		layers, err := managedLayers(root, ls)
		if err != nil {
			return nil, err
		}
		out = append(out, layers...)
	}
	if dir, err := dirs.Config(getenv); err == nil {
		// A user directory that does not exist has no layer; one that
		// exists and cannot be listed is refused, as a managed one is:
		// the user's own guards in it would not run.
		names, err := ls.Names(dir)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, &ManagedError{Layer: LayerUser, Path: dir, Why: err.Error()}
		}
		if slices.ContainsFunc(names, hcl.IsConfigFile) {
			out = append(out, Layer{Name: LayerUser, Path: dir, root: dir})
		}
	}
	p, err := Discover(config, cwd, getenv)
	switch {
	case errors.Is(err, ErrNoConfig):
	case err != nil:
		return nil, err
	case !coveredBy(p, cwd, out):
		// As Discover returns it: relative paths are written as found.
		out = append(out, Layer{Name: LayerProject, Path: p})
	}
	if len(out) == 0 {
		return nil, ErrNoConfig
	}
	return out, nil
}

// managedRoots are the managed directories: dirs.Managed, and the
// platform's own when $HOOKCTL_MANAGED_DIR names another.
func managedRoots(getenv func(string) string) []string {
	roots := []string{dirs.Managed(getenv)}
	platform := dirs.Managed(func(k string) string {
		if k == dirs.ManagedEnv {
			return ""
		}
		return getenv(k)
	})
	if filepath.Clean(platform) != filepath.Clean(roots[0]) {
		roots = append([]string{platform}, roots...)
	}
	return roots
}

// managedLayers lists the layers of one managed directory: its own *.hcl
// files, then each *.d drop-in directory holding *.hcl files, by name.
// The directories are listed through ls (nil: listed every time); each
// drop-in is stat'ed on every call (a symbolic link's target is not in
// its directory's stamp).
func managedLayers(root string, ls *dirlist.Cache) ([]Layer, error) {
	fi, err := os.Stat(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &ManagedError{Layer: LayerManaged, Path: root, Why: err.Error()}
	}
	if !fi.IsDir() {
		return nil, &ManagedError{Layer: LayerManaged, Path: root, Why: "not a directory"}
	}
	names, err := ls.Names(root)
	if err != nil {
		return nil, &ManagedError{Layer: LayerManaged, Path: root, Why: err.Error()}
	}
	var out []Layer
	if slices.ContainsFunc(names, hcl.IsConfigFile) {
		out = append(out, Layer{Name: LayerManaged, Path: root, root: root})
	}
	for _, name := range names {
		if !strings.HasSuffix(name, ".d") {
			continue
		}
		p := filepath.Join(root, name)
		st, err := os.Stat(p)
		if err != nil {
			return nil, &ManagedError{Layer: LayerManaged, Path: p, Why: err.Error()}
		}
		if !st.IsDir() {
			return nil, &ManagedError{Layer: LayerManaged, Path: p, Why: "not a directory (drop-ins are directories named *.d holding *.hcl files)"}
		}
		// A drop-in that cannot be listed is refused, never a missing
		// layer: the policy it may hold would not run.
		files, err := ls.Names(p)
		if err != nil {
			return nil, &ManagedError{Layer: LayerManaged, Path: p, Why: err.Error()}
		}
		if slices.ContainsFunc(files, hcl.IsConfigFile) {
			out = append(out, Layer{Name: LayerManaged, Path: p, root: root})
		}
	}
	return out, nil
}

// coveredBy reports whether the project configuration p is one of the
// layers found already (--config naming the user's or the managed
// directory, or a file of one): it is loaded once, as that layer.
func coveredBy(p, cwd string, layers []Layer) bool {
	if !filepath.IsAbs(p) && cwd != "" {
		p = filepath.Join(cwd, p)
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return false
	}
	for _, l := range layers {
		la, err := filepath.Abs(l.Path)
		if err != nil {
			continue
		}
		if abs == la || filepath.Dir(abs) == la {
			return true
		}
	}
	return false
}

// trustMode is how a layer is trusted.
type trustMode int

const (
	// trustOwner: trusted because the user running hookctl cannot
	// write it (managed) or only that user can (user).
	trustOwner trustMode = iota
	// trustStore: trusted through the trust store (hookctl trust).
	trustStore
)

// ManagedError is a managed (or user) configuration that is refused
// because someone it should not trust can write it. The events it would
// guard are blocked: refusing it never runs fewer guards.
type ManagedError struct {
	Layer string
	Path  string
	Why   string
}

func (e *ManagedError) Error() string { return e.message(goruntime.GOOS) }

// message is the error with the advice of the platform goos: file modes
// on Unix, ACLs (icacls) on Windows.
func (e *ManagedError) message(goos string) string {
	if e.Layer == LayerUser {
		advice := "only you may write your configuration directory (chmod go-w)"
		if goos == "windows" {
			advice = `only you, SYSTEM and Administrators may write your configuration directory (icacls "%AppData%\hookctl" /inheritance:r /grant:r "%USERNAME%:(OI)(CI)F" "*S-1-5-18:(OI)(CI)F" "*S-1-5-32-544:(OI)(CI)F")`
		}
		return fmt.Sprintf("the user configuration %s is refused: %s; %s", e.Path, e.Why, advice)
	}
	advice := "managed files and their directories must not be writable by the user running hookctl (owned by root or another administrator, mode without group or other write)"
	if goos == "windows" {
		advice = `managed files and their directories must belong to Administrators or SYSTEM and give the user running hookctl, and Users, no write right (icacls "%ProgramData%\hookctl" /inheritance:r /grant:r "*S-1-5-18:(OI)(CI)F" "*S-1-5-32-544:(OI)(CI)F" "*S-1-5-32-545:(OI)(CI)RX", as an administrator)`
	}
	return fmt.Sprintf("the managed configuration %s is refused: %s; %s", e.Path, e.Why, advice)
}

// openLayer turns a layer into what is loaded and how it is trusted:
// the one place every layer's path goes through. A managed layer is
// checked here (trustOwner; a *ManagedError when the running user could
// change it), as is a user layer; a project layer is checked against the
// trust store by the caller (trustStore).
func openLayer(l Layer, uid int) (path string, how trustMode, err error) {
	switch l.Name {
	case LayerManaged:
		if err := checkTree(l, uid, false); err != nil {
			return "", trustOwner, err
		}
		return l.Path, trustOwner, nil
	case LayerUser:
		if err := checkTree(l, uid, true); err != nil {
			return "", trustOwner, err
		}
		return l.Path, trustOwner, nil
	}
	return l.Path, trustStore, nil
}

// checkTree checks every file and directory of the layer, and each
// directory from it up to its root. A managed path is refused when the
// running user could write it: owned by that user (unless it is root:
// root can write anything, and a managed file is root's in production),
// or writable by group or others. A user path is refused when group or
// others can write it, or when it belongs to neither the user nor root.
func checkTree(l Layer, uid int, own bool) error {
	check := func(p string) error {
		why, err := writable(p, uid, own)
		if err != nil {
			return &ManagedError{Layer: l.Name, Path: p, Why: err.Error()}
		}
		if why != "" {
			return &ManagedError{Layer: l.Name, Path: p, Why: why}
		}
		return nil
	}
	root := filepath.Clean(l.root)
	for d := filepath.Clean(l.Path); ; d = filepath.Dir(d) {
		if err := check(d); err != nil {
			return err
		}
		if d == root || d == filepath.Dir(d) || !strings.HasPrefix(d, root) {
			break
		}
	}
	n := 0
	return filepath.WalkDir(l.Path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return &ManagedError{Layer: l.Name, Path: p, Why: err.Error()}
		}
		if n++; n > maxManagedEntries {
			return &ManagedError{Layer: l.Name, Path: l.Path, Why: fmt.Sprintf("more than %d files to check", maxManagedEntries)}
		}
		if d.IsDir() && p != l.Path && l.Name == LayerManaged && filepath.Clean(l.Path) == root && strings.HasSuffix(d.Name(), ".d") && filepath.Dir(p) == root {
			return fs.SkipDir // a drop-in: a layer of its own, checked as one
		}
		if !d.IsDir() && strings.HasSuffix(p, ".hcl") && !hcl.IsTestFile(p) && l.Name == LayerManaged && filepath.Dir(p) != filepath.Clean(l.Path) {
			return &ManagedError{Layer: l.Name, Path: p, Why: "a *.hcl file outside the managed directory and its *.d drop-ins would not be loaded"}
		}
		return check(p)
	})
}

// layerParts turns the layers into assemble's parts.
func layerParts(layers []Layer) []assemble.Part {
	parts := make([]assemble.Part, len(layers))
	for i, l := range layers {
		parts[i] = assemble.Part{Layer: l.Name, Path: l.Path}
	}
	return parts
}

// ProjectLayer returns the project layer of layers, if any.
func ProjectLayer(layers []Layer) (Layer, bool) {
	i := slices.IndexFunc(layers, func(l Layer) bool { return l.Name == LayerProject })
	if i < 0 {
		return Layer{}, false
	}
	return layers[i], true
}

// OpenLayers discovers the configuration's layers (DiscoverLayers) and
// checks the managed and user layers (an error is a *ManagedError): what
// the commands that load a configuration without asking the trust store
// (fire, validate, list, test...) load. The project layer is not checked
// against the trust store here.
func (r *Runtime) OpenLayers(config, cwd string, getenv func(string) string) ([]Layer, error) {
	layers, err := DiscoverLayers(config, cwd, getenv)
	if err != nil {
		return nil, err
	}
	for _, l := range layers {
		if _, _, err := openLayer(l, r.uid); err != nil {
			return nil, err
		}
	}
	return layers, nil
}

// Parts returns the parts assemble.LoadLayers loads for layers.
func Parts(layers []Layer) []assemble.Part { return layerParts(layers) }

// skippedLayers are the layers the managed layers' managed_only or
// allow_layers leave out, as hcl.LayerPolicy reads them before the load:
// their trust is not checked, since none of their hooks will run (the
// load leaves them out and says so). When a managed layer's settings
// cannot be read so, no layer is skipped here: each is checked.
func skippedLayers(layers []Layer) map[string]bool {
	skip := map[string]bool{}
	for _, l := range layers {
		if l.Name != LayerManaged {
			continue
		}
		only, allow, ok := hcl.LayerPolicy(l.Path)
		if !ok {
			return nil
		}
		for _, n := range []string{LayerUser, LayerProject} {
			if only || allow != nil && !slices.Contains(allow, n) {
				skip[n] = true
			}
		}
	}
	return skip
}
