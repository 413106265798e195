package runtime

import (
	"fmt"
	"slices"
)

// Well-known security identifiers the Windows check reads.
const (
	sidEveryone       = "S-1-1-0"
	sidAuthenticated  = "S-1-5-11"
	sidInteractive    = "S-1-5-4"
	sidUsers          = "S-1-5-32-545"
	sidAdministrators = "S-1-5-32-544"
	sidSystem         = "S-1-5-18"
	sidTrustedInstall = "S-1-5-80-956008885-3418522649-1831038044-1853292631-2271478464"
	sidOwnerRights    = "S-1-3-4"
)

// Access rights that change what a file or directory holds, or who may
// change it: write data / add a file, append data / add a subdirectory,
// delete a child, DELETE, WRITE_DAC, WRITE_OWNER, GENERIC_WRITE,
// GENERIC_ALL. Writing attributes or extended attributes changes
// nothing hookctl reads and is not counted.
const aclWriteMask uint32 = 0x2 | 0x4 | 0x40 | 0x10000 | 0x40000 | 0x80000 | 0x40000000 | 0x10000000

// aceKind is how an access control entry is read.
type aceKind int

const (
	aceAllow   aceKind = iota // ACCESS_ALLOWED_ACE (and object, callback variants: counted as granted)
	aceDeny                   // ACCESS_DENIED_ACE (a conditional or object deny is not counted: it may not apply)
	aceIgnored                // a deny that may not apply
)

// aclEntry is one entry of a DACL, as the check reads it.
type aclEntry struct {
	SID         string
	Mask        uint32
	Kind        aceKind
	InheritOnly bool // INHERIT_ONLY_ACE: for children only, not the object itself
}

// aclInfo is what the Windows check reads of a file and of the user
// running hookctl: a pure value, so the rule is tested on any OS.
type aclInfo struct {
	Owner    string
	NullDACL bool // no DACL at all: everyone may do anything
	DACL     []aclEntry
	// User is the SID of the user running hookctl; Groups the SIDs of
	// its token's groups that can grant access, DenyOnly those that only
	// deny (the Administrators group of a user whose token UAC filtered).
	User     string
	Groups   []string
	DenyOnly []string
}

// trustedSID reports whether sid is one a layer trusts to write it:
// SYSTEM, Administrators and TrustedInstaller. A user who is an
// administrator runs with Administrators as a deny-only group until
// elevated, so a file only they may write cannot be changed by hookctl's
// user without an elevation prompt.
func trustedSID(sid string) bool {
	return sid == sidSystem || sid == sidAdministrators || sid == sidTrustedInstall
}

// broadSIDs are the groups every (or every signed-in) user is in.
var broadSIDs = []string{sidEveryone, sidAuthenticated, sidInteractive, sidUsers}

// grants reports whether a token holding the SIDs in all (denies match
// any of them) obtains a write right through an allow entry to one of
// grant, read as Windows reads a DACL: in order, the first entry that
// names a right for one of the token's SIDs decides it. It returns the
// SID that grants it.
func (a *aclInfo) grants(all, grant []string) (string, uint32, bool) {
	var decided uint32
	for _, e := range a.DACL {
		if e.InheritOnly {
			continue
		}
		sid := e.SID
		if sid == sidOwnerRights {
			sid = a.Owner
		}
		bits := e.Mask & aclWriteMask &^ decided
		if bits == 0 {
			continue
		}
		switch e.Kind {
		case aceDeny:
			if slices.Contains(all, sid) {
				decided |= bits
			}
		case aceAllow:
			if slices.Contains(grant, sid) {
				return sid, bits, true
			}
		}
	}
	return "", 0, false
}

// aclWritable says why a file whose security is a could be written by
// someone a layer must not trust ("" when no one could): the Windows
// form of owner_unix.go's rule. own is true for the user layer.
//
// A managed path is refused when it is owned by anyone but SYSTEM,
// Administrators or TrustedInstaller (every user may create folders in
// %ProgramData%), or when a non-elevated user running hookctl could
// change it: owned by that user or by a group of their token, a NULL DACL, or
// a DACL that grants a write right to the user, to one of their groups
// or to Everyone, Authenticated Users, INTERACTIVE or Users. A user path
// is refused when it is owned by neither the user nor SYSTEM or
// Administrators, has a NULL DACL, or grants a write right to any SID
// other than the user's, SYSTEM's, Administrators' and TrustedInstaller's.
func aclWritable(a aclInfo, own bool) string {
	if a.NullDACL {
		return "it has no access control list (a NULL DACL): everyone may write it"
	}
	if own {
		if a.Owner != a.User && !trustedSID(a.Owner) {
			return fmt.Sprintf("it belongs to %s, neither you (%s) nor SYSTEM or Administrators", a.Owner, a.User)
		}
		for _, e := range a.DACL {
			sid := e.SID
			if sid == sidOwnerRights {
				sid = a.Owner
			}
			if e.Kind != aceAllow || e.InheritOnly || sid == a.User || trustedSID(sid) || e.Mask&aclWriteMask == 0 {
				continue
			}
			tok := []string{sid, sidEveryone}
			if sid, bits, ok := a.grants(tok, tok); ok {
				return fmt.Sprintf("its access control list lets %s write it (rights %#x)", sid, bits)
			}
		}
		return ""
	}
	if !trustedSID(a.Owner) {
		// Every user may create folders in %ProgramData%: one made by
		// another ordinary user first (hers, read-only for the others)
		// would run her hooks as everyone's policy. Only the machine's
		// own principals may own it, as only root can create /etc's.
		return fmt.Sprintf("it belongs to %s, not to SYSTEM, Administrators or TrustedInstaller (every user may create folders in %%ProgramData%%)", a.Owner)
	}
	mine := []string{a.User}
	for _, g := range a.Groups {
		if !trustedSID(g) {
			mine = append(mine, g)
		}
	}
	for _, b := range broadSIDs {
		if !slices.Contains(mine, b) {
			mine = append(mine, b)
		}
	}
	if trustedSID(a.User) {
		mine = mine[1:] // SYSTEM runs hookctl: like root, it may write anything
	}
	if slices.Contains(mine, a.Owner) {
		return fmt.Sprintf("it belongs to %s, which the user running hookctl (%s) is or is in, and an owner can always change its access", a.Owner, a.User)
	}
	all := slices.Concat([]string{a.User}, a.Groups, a.DenyOnly, broadSIDs)
	if sid, bits, ok := a.grants(all, mine); ok {
		return fmt.Sprintf("its access control list lets %s write it (rights %#x), and the user running hookctl (%s) is or is in it", sid, bits, a.User)
	}
	// Others: a broad group's members write it even where the running
	// user is denied.
	for _, b := range broadSIDs {
		tok := []string{b, sidEveryone}
		if sid, bits, ok := a.grants(tok, tok); ok {
			return fmt.Sprintf("its access control list lets %s write it (rights %#x)", sid, bits)
		}
	}
	return ""
}
