package paths

import (
	"path"
	"runtime"
	"strings"
)

// hostWindows says whether the functions read paths as Windows does:
// C:\x and \\server\share\x are absolute, \x is on the working
// directory's drive, names compare without regard to case, and a name's
// trailing dots and spaces and its :stream are not part of the name
// (C:\Users\x\.SSH\ID_RSA. and id_rsa::$DATA are the file id_rsa).
const hostWindows = runtime.GOOS == "windows"

// IsAbs reports whether p is absolute: it starts with a slash (with a
// backslash, a drive letter, or \\ too, on Windows).
func IsAbs(p string) bool { return isAbs(p, hostWindows) }

func isAbs(p string, win bool) bool {
	if !win {
		return path.IsAbs(p)
	}
	vol, rest := winVolume(strings.ReplaceAll(p, `\`, "/"))
	return strings.HasPrefix(vol, "//") || vol != "" && strings.HasPrefix(rest, "/")
}

// deviceRest takes a Win32 device prefix (//?/, //./, /??/) off a slash
// path, and the object-manager names after it that lead back to the DOS
// devices: GLOBALROOT/GLOBAL??/, GLOBALROOT/??/, GLOBALROOT/DosDevices/
// and GLOBAL/ (\\?\GLOBALROOT\GLOBAL??\C:\x is C:\x);
// GLOBALROOT/Device/Mup/ is the UNC provider (UNC/). ok is false for a
// path without a device prefix.
func deviceRest(p string) (rest string, ok bool) {
	if !strings.HasPrefix(p, "//?/") && !strings.HasPrefix(p, "//./") && !strings.HasPrefix(p, "/??/") {
		return p, false
	}
	p = p[4:]
	for {
		switch {
		case hasPrefixFold(p, "GLOBALROOT/GLOBAL??/"):
			p = p[len("GLOBALROOT/GLOBAL??/"):]
		case hasPrefixFold(p, "GLOBALROOT/??/"):
			p = p[len("GLOBALROOT/??/"):]
		case hasPrefixFold(p, "GLOBALROOT/DosDevices/"):
			p = p[len("GLOBALROOT/DosDevices/"):]
		case hasPrefixFold(p, "GLOBAL/"):
			p = p[len("GLOBAL/"):]
		case hasPrefixFold(p, "GLOBALROOT/Device/Mup/"):
			return "UNC/" + p[len("GLOBALROOT/Device/Mup/"):], true
		default:
			return p, true
		}
	}
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// winVolume splits a slash path into its Windows volume ("C:", or
// "//server/share" for a UNC path, with \\?\, \\.\ and \??\ device
// prefixes taken off, and GLOBALROOT\GLOBAL??\ after them: deviceRest)
// and the rest. A device path that names no drive and no share
// (\\?\Volume{GUID}\x, \\.\HarddiskVolume3\x,
// \\?\GLOBALROOT\Device\HarddiskVolume3\x) is absolute on a volume of
// its own, //?/NAME: never under a drive's directory (see
// System.UnmappedDevice).
func winVolume(p string) (vol, rest string) {
	if d, ok := deviceRest(p); ok {
		p = d
		switch {
		case len(p) >= 4 && strings.EqualFold(p[:4], "UNC/"):
			p = "//" + p[4:]
		case len(p) >= 2 && p[1] == ':':
		default:
			// The volume's name: Volume{GUID}, HarddiskVolume3,
			// GLOBALROOT/Device/HarddiskVolume3.
			k := 0
			if hasPrefixFold(p, "GLOBALROOT/Device/") {
				k = len("GLOBALROOT/Device/")
			}
			name, rest, _ := strings.Cut(p[k:], "/")
			return "//?/" + p[:k] + name, "/" + rest
		}
	}
	if len(p) >= 2 && p[1] == ':' && ('a' <= p[0] && p[0] <= 'z' || 'A' <= p[0] && p[0] <= 'Z') {
		return strings.ToUpper(p[:1]) + ":", p[2:]
	}
	if strings.HasPrefix(p, "//") && !strings.HasPrefix(p, "///") {
		// //server/share: the first two names are the volume.
		parts := strings.SplitN(p[2:], "/", 3)
		if len(parts) >= 2 && parts[0] != "" && parts[1] != "" {
			vol = "//" + parts[0] + "/" + parts[1]
			if len(parts) == 3 {
				return vol, "/" + parts[2]
			}
			return vol, "/"
		}
	}
	return "", p
}

// winName is a path name as Windows opens it: without its :stream
// (id_rsa::$DATA, id_rsa:x) and its trailing dots and spaces (id_rsa. ).
func winName(n string) string {
	if n == "." || n == ".." {
		return n
	}
	if i := strings.IndexByte(n, ':'); i >= 0 {
		n = n[:i]
	}
	return strings.TrimRight(n, ". ")
}

// normalize is Normalize, read as Windows does when win is set.
func normalize(p string, win bool) string {
	if p == "" {
		return ""
	}
	p = strings.ReplaceAll(p, `\`, "/")
	if !win {
		return path.Clean(p)
	}
	vol, rest := winVolume(p)
	names := strings.Split(rest, "/")
	for i, n := range names {
		names[i] = winName(n)
	}
	rest = strings.Join(names, "/")
	if strings.HasPrefix(vol, "//") {
		return vol + path.Clean("/"+rest)
	}
	if rest == "" {
		return vol + "."
	}
	return vol + path.Clean(rest)
}

// resolve is Resolve's work after ~ is expanded, read as Windows does
// when win is set: a rooted path (\x) is on cwd's drive, a drive-relative
// one (C:x) under cwd when cwd is on that drive, else under the drive's
// root.
func resolve(p, cwd string, win bool) string {
	p = normalize(p, win)
	if isAbs(p, win) {
		return p
	}
	cwd = normalize(cwd, win)
	if !win {
		return path.Join(cwd, p)
	}
	cvol, _ := winVolume(cwd)
	vol, rest := winVolume(p)
	switch {
	case vol == "" && strings.HasPrefix(rest, "/"):
		return normalize(cvol+rest, true)
	case vol != "" && !strings.EqualFold(vol, cvol):
		return normalize(vol+"/"+rest, true)
	case vol != "":
		p = rest
	}
	return normalize(cwd+"/"+p, true)
}

// inside is Inside under the rules s (not Host), comparing names by
// their Fold keys.
func inside(p, root string, s System) bool {
	win := s == Windows
	p, root = normalize(p, win), normalize(root, win)
	if root == "" || p == "" {
		return false
	}
	p, root = s.Fold(p), s.Fold(root)
	if p == root || root == "/" && isAbs(p, win) {
		return true
	}
	return strings.HasPrefix(p, strings.TrimSuffix(root, "/")+"/")
}
