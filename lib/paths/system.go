package paths

import (
	"os"
	"path"
	"strings"
)

// System is the set of rules paths are read with: Unix's, macOS's or
// Windows'. The zero value, Host, is the rules of the system hookctl
// runs on; a caller judging another system's paths (a test of the
// Windows rules on Linux) names it. The package's functions are Host's.
type System uint8

const (
	// Host reads paths as the system hookctl runs on does: Darwin on
	// macOS (and iOS), Windows on Windows, Unix elsewhere.
	Host System = iota
	// Unix reads paths as Linux does: names compare byte for byte.
	Unix
	// Windows reads paths as Windows does (see IsAbs, Resolve, Inside).
	Windows
	// Darwin reads paths as macOS does on its default volumes (APFS,
	// HFS+): Unix's forms, with names compared regardless of case and of
	// Unicode normalisation (.ENV opens .env; a name in NFD opens the
	// same name in NFC). A volume formatted case-sensitive is read as
	// one that is not, which errs toward matching.
	Darwin
)

// rules returns the rule set s stands for: Host's is the system's.
func (s System) rules() System {
	if s == Host {
		return hostRules
	}
	return s
}

// IsWindows reports whether s reads paths as Windows does.
func (s System) IsWindows() bool { return s.rules() == Windows }

// FoldsCase reports whether s compares names regardless of case
// (Windows and Darwin): a guard comparing names itself compares them
// with Equal or their Fold keys.
func (s System) FoldsCase() bool { return s.rules() != Unix }

// Fold returns p's key for comparing names under s's rules: p itself on
// Unix; under Windows and Darwin a case-folded form (see Equal), under
// Darwin after Unicode NFC normalisation. Two names s opens as one file
// have the same key; Fold of a glob pattern keeps it a pattern, for
// matching keys. It does not clean p (Normalize does).
func (s System) Fold(p string) string {
	switch s.rules() {
	case Windows:
		return foldCase(p)
	case Darwin:
		return foldCase(nfc(p))
	}
	return p
}

// Equal reports whether a and b are one name under s's rules: byte for
// byte on Unix, regardless of case on Windows and Darwin (and of Unicode
// normalisation on Darwin: é in NFD is é in NFC). The case folding is Unicode's simple folding
// joined with upper-casing (ſ is s, the Kelvin sign K is k, ı is i), a
// superset of what NTFS and APFS fold, so a guard errs toward matching.
func (s System) Equal(a, b string) bool {
	return a == b || s.FoldsCase() && s.Fold(a) == s.Fold(b)
}

// IsAbs is IsAbs under s's rules.
func (s System) IsAbs(p string) bool { return isAbs(p, s.IsWindows()) }

// Normalize is Normalize under s's rules.
func (s System) Normalize(p string) string { return normalize(p, s.IsWindows()) }

// Inside is Inside under s's rules.
func (s System) Inside(p, root string) bool { return inside(p, root, s.rules()) }

// Resolve is Resolve under s's rules.
func (s System) Resolve(p, cwd, home string, opts ...Option) string {
	win := s.IsWindows()
	if win {
		p = strings.ReplaceAll(p, `\`, "/")
	}
	p = Expand(p, home, opts...)
	if !isAbs(p, win) && cwd == "" {
		getwd := os.Getwd
		if e := envOf(opts); e.Getwd != nil {
			getwd = e.Getwd
		}
		cwd, _ = getwd()
	}
	return resolve(p, cwd, win)
}

// DriveForm returns, on Windows, the drive path a Git Bash argument
// names (/c/x, /cygdrive/c/x or /proc/cygdrive/c/x: C:/x, after MSYS
// cleans the POSIX path's .. first: /c/../d/x is D:/x), the first of
// ArgForms' two forms; ok is false for any other argument (/c/.., which
// is Git Bash's own root, included) and on Unix. It is ArgForms
// without a slice, for hot paths.
func (s System) DriveForm(arg string) (drive string, ok bool) {
	if !s.IsWindows() {
		return "", false
	}
	return msysDrive(arg)
}

// GitBashForm is DriveForm for an argument run in the working directory
// cwd (a Windows path; "" when unknown): an absolute argument's
// DriveForm, and a relative one's drive path when Git Bash reads it
// elsewhere than the working directory's drive does. Git Bash joins it
// to cwd's POSIX form and cleans .. there, so from C:/proj
// ../../d/x is D:/x (Windows stops at C:/, C:/d/x); and a drive's root
// may be Git Bash's root / (cd / and cd /c/.. are both read as C:/),
// where c/Users is C:/Users. ok is false when there is no such other
// reading.
func (s System) GitBashForm(arg, cwd string) (drive string, ok bool) {
	if !s.IsWindows() || arg == "" {
		return "", false
	}
	arg = strings.ReplaceAll(arg, `\`, "/")
	if strings.HasPrefix(arg, "/") {
		return msysDrive(arg)
	}
	if cwd == "" || isAbs(arg, true) || len(arg) >= 2 && arg[1] == ':' {
		return "", false
	}
	cwd = normalize(cwd, true)
	vol, rest := winVolume(cwd)
	if len(vol) != 2 || !strings.HasPrefix(rest, "/") || rest != "/" && !strings.Contains(arg, "..") {
		// A share or a device path has no Git Bash form; below a
		// drive's root, without .., the two readings are one.
		return "", false
	}
	p := path.Clean("/" + arg) // from Git Bash's root
	if rest != "/" {
		p = path.Clean("/" + strings.ToLower(vol[:1]) + rest + "/" + arg)
	}
	d, ok := msysDrive(p)
	if !ok || foldCase(d) == foldCase(resolve(arg, cwd, true)) {
		return "", false
	}
	return d, true
}

// ArgForms is ArgForms under s's rules.
func (s System) ArgForms(arg string) []string { return argForms(arg, s.IsWindows()) }

// ArgFormsIn is ArgForms of an argument run in the working directory cwd
// (see GitBashForm): on Windows a relative argument that Git Bash reads
// on another drive than cwd's has that reading too.
func (s System) ArgFormsIn(arg, cwd string) []string {
	if d, ok := s.GitBashForm(arg, cwd); ok {
		return []string{d, arg}
	}
	return []string{arg}
}

// ArgForms returns the paths a command-line argument may name, to be
// resolved (Resolve) and judged each: a guard denies when any of them is
// denied, and exempts only when all of them are exempt.
//
// On Unix that is the argument itself. On Windows a command line may
// run in Git Bash (Claude Code's Bash tool does), where /c/Users/me and
// /cygdrive/c/Users/me are C:\Users\me (MSYS's drive mounts), or in
// PowerShell or cmd, where they are \c\Users\me on the working
// directory's drive: an argument whose first name is one letter (or
// /cygdrive/ and one letter) has both forms, the drive's first. Other
// rooted paths (/tmp/x, /usr/bin) have one form, on the working
// directory's drive: Git Bash mounts them under its own installation
// (and /tmp at %TEMP%), which a guard does not know, so a /tmp path is
// not a temporary one there.
func ArgForms(arg string) []string { return argForms(arg, hostWindows) }

func argForms(arg string, win bool) []string {
	if !win {
		return []string{arg}
	}
	if d, ok := msysDrive(arg); ok {
		return []string{d, arg}
	}
	return []string{arg}
}

// msysDrive reads p as a Git Bash (MSYS) path naming a drive: /x or
// /x/rest (and /cygdrive/x..., /proc/cygdrive/x..., and WSL's /mnt/x...)
// is X:/ or X:/rest.
// MSYS cleans the POSIX path first, so /c/../d/x is /d/x, D:/x, and
// /c/.. is its own root, no drive. //x/rest is a share, never a drive.
func msysDrive(p string) (string, bool) {
	if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") {
		return "", false
	}
	p = path.Clean(p)
	rest, ok := strings.CutPrefix(p, "/proc/cygdrive/")
	if !ok {
		rest, ok = strings.CutPrefix(p, "/cygdrive/")
	}
	if !ok {
		// WSL mounts the drives at /mnt/x (wsl rm -rf /mnt/c/Users/me).
		rest, ok = strings.CutPrefix(p, "/mnt/")
		ok = ok && rest != "" && isLetterByte(rest[0]) && (len(rest) == 1 || rest[1] == '/')
	}
	if !ok {
		rest = p[1:]
	}
	if rest == "" || !isLetterByte(rest[0]) || len(rest) > 1 && rest[1] != '/' {
		return "", false
	}
	return strings.ToUpper(rest[:1]) + ":/" + rest[min(2, len(rest)):], true
}

func isSep(c byte) bool { return c == '/' || c == '\\' }

func isLetterByte(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// Plain returns arg as a guard reads it for globs: on Windows with its
// separators as slashes and a Win32 device prefix taken off where it
// names a drive or a share (\\?\C:\x and //?/C:/x are C:/x,
// \\?\UNC\server\share\x is //server/share/x; \\.\ and \??\ alike), so
// that the prefix's "?" is not read as a glob character. Elsewhere, and
// for any other argument, arg as it is.
func (s System) Plain(arg string) string {
	if !s.IsWindows() {
		return arg
	}
	p := strings.ReplaceAll(arg, `\`, "/")
	if rest, ok := deviceRest(p); ok {
		switch {
		case len(rest) >= 4 && strings.EqualFold(rest[:4], "UNC/"):
			return "//" + rest[4:]
		case len(rest) >= 2 && rest[1] == ':' && isLetterByte(rest[0]):
			return rest
		}
	}
	return p
}

// UnmappedDevice reports whether p is, under s's rules, a Win32 device
// path on a volume the rules cannot map to a drive or a share:
// \\?\Volume{GUID}\x, \\.\HarddiskVolume3\x,
// \\?\GLOBALROOT\Device\HarddiskVolume3\x. Such a path may name a file on
// any drive. Match reads it so (an absolute pattern's drive or share
// matches it), MatchEvery does not; a guard that judges it otherwise
// gives it its mode's answer for a path it cannot place. Always false on
// Unix and Darwin.
func (s System) UnmappedDevice(p string) bool {
	if !s.IsWindows() || len(p) < 4 || !isSep(p[0]) || !isSep(p[3]) || p[1] != '?' && !isSep(p[1]) {
		return false // no device prefix: \\?\, \\.\, \??\
	}
	vol, _ := winVolume(strings.ReplaceAll(p, `\`, "/"))
	return strings.HasPrefix(vol, "//?/")
}

// TopLevel reports whether dir (slash-separated, Plain) is a top-level
// directory: "/", and on Windows a drive's root (C:/), its Git Bash forms
// (/c/, /cygdrive/c/) and a share's root (//server/share/).
func (s System) TopLevel(dir string) bool {
	d := strings.TrimRight(dir, "/")
	if d == "" {
		return strings.HasPrefix(dir, "/")
	}
	if !s.IsWindows() {
		return false
	}
	if len(d) == 2 && d[1] == ':' && isLetterByte(d[0]) {
		return true
	}
	if m, ok := msysDrive(d); ok && strings.TrimRight(m, "/") == m[:2] {
		return true
	}
	vol, rest := winVolume(d)
	return strings.HasPrefix(vol, "//") && !strings.HasPrefix(vol, "//?/") && strings.Trim(rest, "/") == ""
}
