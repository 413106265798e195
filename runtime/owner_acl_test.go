package runtime

import (
	"strings"
	"testing"
)

// TestACLWritable: the Windows rule (aclWritable) over fake security
// descriptors and tokens, on any OS.
func TestACLWritable(t *testing.T) {
	const (
		me     = "S-1-5-21-1-2-3-1001"
		other  = "S-1-5-21-1-2-3-1002"
		logon  = "S-1-5-5-0-12345"
		full   = 0x1F01FF // FILE_ALL_ACCESS
		modify = 0x1301BF // FILE_GENERIC_READ|WRITE|EXECUTE|DELETE
		rx     = 0x1200A9 // FILE_GENERIC_READ|EXECUTE
		wa     = 0x100    // FILE_WRITE_ATTRIBUTES
		add    = 0x6      // FILE_ADD_FILE|FILE_ADD_SUBDIRECTORY
	)
	allow := func(sid string, mask uint32) aclEntry { return aclEntry{SID: sid, Mask: mask, Kind: aceAllow} }
	deny := func(sid string, mask uint32) aclEntry { return aclEntry{SID: sid, Mask: mask, Kind: aceDeny} }
	// A token of a user UAC filtered: Administrators is deny-only.
	tok := func(a aclInfo) aclInfo {
		a.User = me
		a.Groups = []string{sidEveryone, sidUsers, sidInteractive, sidAuthenticated, logon}
		a.DenyOnly = []string{sidAdministrators}
		return a
	}
	adminOnly := []aclEntry{allow(sidSystem, full), allow(sidAdministrators, full), allow(sidUsers, rx)}
	for _, c := range []struct {
		name string
		a    aclInfo
		own  bool
		want string // "" accepted, else a part of the reason
	}{
		{"managed, admin-owned, users read", tok(aclInfo{Owner: sidAdministrators, DACL: adminOnly}), false, ""},
		{"managed, SYSTEM-owned, users read", tok(aclInfo{Owner: sidSystem, DACL: adminOnly}), false, ""},
		{"managed, TrustedInstaller-owned", tok(aclInfo{Owner: sidTrustedInstall, DACL: adminOnly}), false, ""},
		{"managed, owned by another user (she created it first in ProgramData)", tok(aclInfo{Owner: other, DACL: adminOnly}), false, "belongs to " + other},
		{"managed, owned by the user", tok(aclInfo{Owner: me, DACL: adminOnly}), false, "belongs to " + me},
		{"managed, owned by Users", tok(aclInfo{Owner: sidUsers, DACL: adminOnly}), false, "belongs to " + sidUsers},
		{"managed, Everyone:F", tok(aclInfo{Owner: sidAdministrators, DACL: append(adminOnly, allow(sidEveryone, full))}), false, "lets " + sidEveryone},
		{"managed, Users:M", tok(aclInfo{Owner: sidAdministrators, DACL: append(adminOnly, allow(sidUsers, modify))}), false, "lets " + sidUsers},
		{"managed, Authenticated Users write", tok(aclInfo{Owner: sidAdministrators, DACL: append(adminOnly, allow(sidAuthenticated, 0x2))}), false, "lets " + sidAuthenticated},
		{"managed, the user may delete it", tok(aclInfo{Owner: sidAdministrators, DACL: append(adminOnly, allow(me, 0x10000))}), false, "lets " + me},
		{"managed, the user may change its DACL", tok(aclInfo{Owner: sidAdministrators, DACL: append(adminOnly, allow(me, 0x40000))}), false, "lets " + me},
		{"managed, the logon session may write", tok(aclInfo{Owner: sidAdministrators, DACL: append(adminOnly, allow(logon, 0x4))}), false, "lets " + logon},
		{"managed, GENERIC_WRITE to Users", tok(aclInfo{Owner: sidAdministrators, DACL: append(adminOnly, allow(sidUsers, 0x40000000))}), false, "lets " + sidUsers},
		{"managed, OWNER RIGHTS write, owner the user", tok(aclInfo{Owner: me, DACL: append(adminOnly, allow(sidOwnerRights, rx))}), false, "belongs to"},
		{"managed, ProgramData's inherited Users add-file", tok(aclInfo{Owner: sidAdministrators, DACL: append(adminOnly, allow(sidUsers, add|0x10|wa))}), false, "lets " + sidUsers},
		{"managed, write attributes only", tok(aclInfo{Owner: sidAdministrators, DACL: append(adminOnly, allow(sidUsers, wa|0x10))}), false, ""},
		{"managed, NULL DACL", tok(aclInfo{Owner: sidAdministrators, NullDACL: true}), false, "NULL DACL"},
		{"managed, empty DACL", tok(aclInfo{Owner: sidAdministrators}), false, ""},
		{"managed, Administrators-only write, user UAC filtered", tok(aclInfo{Owner: sidAdministrators, DACL: []aclEntry{allow(sidAdministrators, full)}}), false, ""},
		{"managed, deny the user before allow the user", tok(aclInfo{Owner: sidAdministrators, DACL: append([]aclEntry{deny(me, full)}, append(adminOnly, allow(me, full))...)}), false, ""},
		{"managed, deny Everyone before Users:M", tok(aclInfo{Owner: sidAdministrators, DACL: append([]aclEntry{deny(sidEveryone, aclWriteMask)}, append(adminOnly, allow(sidUsers, modify))...)}), false, ""},
		{"managed, deny the user before Users:M: others still write", tok(aclInfo{Owner: sidAdministrators, DACL: append([]aclEntry{deny(me, full)}, append(adminOnly, allow(sidUsers, modify))...)}), false, "lets " + sidUsers},
		{"managed, deny after allow does not take it back", tok(aclInfo{Owner: sidAdministrators, DACL: append(adminOnly, allow(sidUsers, modify), deny(sidUsers, full))}), false, "lets " + sidUsers},
		{"managed, deny of part leaves the rest", tok(aclInfo{Owner: sidAdministrators, DACL: append([]aclEntry{deny(sidEveryone, 0x2)}, append(adminOnly, allow(sidUsers, 0x2|0x10000))...)}), false, "rights 0x10000"},
		{"managed, deny-only group denies", tok(aclInfo{Owner: sidAdministrators, DACL: []aclEntry{deny(sidAdministrators, full), allow(me, full)}}), false, ""},
		{"managed, inherit-only Users:F does not apply", tok(aclInfo{Owner: sidAdministrators, DACL: append(adminOnly, aclEntry{SID: sidUsers, Mask: full, Kind: aceAllow, InheritOnly: true})}), false, ""},
		{"managed, inherit-only deny does not protect", tok(aclInfo{Owner: sidAdministrators, DACL: append([]aclEntry{{SID: sidEveryone, Mask: full, Kind: aceDeny, InheritOnly: true}}, append(adminOnly, allow(sidUsers, full))...)}), false, "lets " + sidUsers},
		{"managed, a conditional deny does not protect", tok(aclInfo{Owner: sidAdministrators, DACL: append([]aclEntry{{SID: sidEveryone, Mask: full, Kind: aceIgnored}}, append(adminOnly, allow(sidUsers, full))...)}), false, "lets " + sidUsers},
		{"managed, SYSTEM runs hookctl, SYSTEM-owned", aclInfo{Owner: sidSystem, DACL: adminOnly, User: sidSystem, Groups: []string{sidAdministrators, sidEveryone, sidAuthenticated}}, false, ""},
		{"managed, SYSTEM runs hookctl, Users:M", aclInfo{Owner: sidSystem, DACL: append(adminOnly, allow(sidUsers, modify)), User: sidSystem, Groups: []string{sidAdministrators, sidEveryone}}, false, "lets " + sidUsers},
		{"managed, elevated admin, admin-owned", aclInfo{Owner: sidAdministrators, DACL: adminOnly, User: me, Groups: []string{sidAdministrators, sidUsers, sidEveryone}}, false, ""},
		{"managed, elevated admin, owned by the admin's own SID", aclInfo{Owner: me, DACL: adminOnly, User: me, Groups: []string{sidAdministrators, sidUsers, sidEveryone}}, false, "belongs to " + me},

		{"user, owned by the user", tok(aclInfo{Owner: me, DACL: []aclEntry{allow(me, full), allow(sidSystem, full), allow(sidAdministrators, full)}}), true, ""},
		{"user, owned by Administrators", tok(aclInfo{Owner: sidAdministrators, DACL: []aclEntry{allow(me, full)}}), true, ""},
		{"user, owned by SYSTEM", tok(aclInfo{Owner: sidSystem, DACL: []aclEntry{allow(me, full)}}), true, ""},
		{"user, owned by another user", tok(aclInfo{Owner: other, DACL: []aclEntry{allow(me, full)}}), true, "belongs to " + other},
		{"user, owned by Users", tok(aclInfo{Owner: sidUsers, DACL: []aclEntry{allow(me, full)}}), true, "belongs to " + sidUsers},
		{"user, another user may write", tok(aclInfo{Owner: me, DACL: []aclEntry{allow(me, full), allow(other, modify)}}), true, "lets " + other},
		{"user, Everyone:F", tok(aclInfo{Owner: me, DACL: []aclEntry{allow(me, full), allow(sidEveryone, full)}}), true, "lets " + sidEveryone},
		{"user, Users:M", tok(aclInfo{Owner: me, DACL: []aclEntry{allow(me, full), allow(sidUsers, modify)}}), true, "lets " + sidUsers},
		{"user, Authenticated Users write", tok(aclInfo{Owner: me, DACL: []aclEntry{allow(me, full), allow(sidAuthenticated, 0x2)}}), true, "lets " + sidAuthenticated},
		{"user, others read", tok(aclInfo{Owner: me, DACL: []aclEntry{allow(me, full), allow(sidUsers, rx), allow(other, rx)}}), true, ""},
		{"user, deny before allow", tok(aclInfo{Owner: me, DACL: []aclEntry{deny(sidUsers, aclWriteMask), allow(me, full), allow(sidUsers, full)}}), true, ""},
		{"user, deny of another SID does not protect", tok(aclInfo{Owner: me, DACL: []aclEntry{deny(other, full), allow(me, full), allow(sidUsers, full)}}), true, "lets " + sidUsers},
		{"user, inherit-only Everyone:F", tok(aclInfo{Owner: me, DACL: []aclEntry{allow(me, full), {SID: sidEveryone, Mask: full, Kind: aceAllow, InheritOnly: true}}}), true, ""},
		{"user, OWNER RIGHTS is the user", tok(aclInfo{Owner: me, DACL: []aclEntry{allow(sidOwnerRights, full)}}), true, ""},
		{"user, NULL DACL", tok(aclInfo{Owner: me, NullDACL: true}), true, "NULL DACL"},
	} {
		got := aclWritable(c.a, c.own)
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}
