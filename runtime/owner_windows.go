//go:build windows

package runtime

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/windows"
)

// writable says why the file at p could be written by someone a layer
// must not trust ("" when no one could): see aclWritable, which decides
// on the file's owner and DACL and on the token of the process (uid is
// not used: Windows has none). The security read is that of what p
// names, as Windows opens it.
func writable(p string, _ int, own bool) (string, error) {
	sd, err := windows.GetNamedSecurityInfo(p, windows.SE_FILE_OBJECT, windows.OWNER_SECURITY_INFORMATION|windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		return "", fmt.Errorf("cannot read its security: %w", err)
	}
	a, err := readSecurity(sd)
	if err != nil {
		return "", err
	}
	if err := readToken(windows.GetCurrentProcessToken(), &a); err != nil {
		return "", err
	}
	if why, ok := a.unreadable(); ok {
		return why, nil
	}
	return aclWritable(a.aclInfo, own), nil
}

// winSecurity is an aclInfo and the entries it could not read.
type winSecurity struct {
	aclInfo
	unknown []byte // ACE types not read: the path is refused
}

func (a *winSecurity) unreadable() (string, bool) {
	if len(a.unknown) > 0 {
		return fmt.Sprintf("its access control list holds entries of a type hookctl cannot read (%v)", a.unknown), true
	}
	return "", false
}

// ACE types (winnt.h).
const (
	aceTypeAllowed            = 0x0
	aceTypeDenied             = 0x1
	aceTypeAllowedObject      = 0x5
	aceTypeDeniedObject       = 0x6
	aceTypeAllowedCallback    = 0x9
	aceTypeDeniedCallback     = 0xA
	aceTypeAllowedCallbackObj = 0xB
	aceTypeDeniedCallbackObj  = 0xC
	aceObjectTypePresent      = 0x1
	aceInheritedObjectPresent = 0x2
	aceHeaderAndMaskSize      = 8
	aceObjectFlagsSize        = 4
	aceObjectGUIDSize         = 16
)

// readSecurity reads the owner and the DACL of sd.
func readSecurity(sd *windows.SECURITY_DESCRIPTOR) (winSecurity, error) {
	var a winSecurity
	owner, _, err := sd.Owner()
	if err != nil || owner == nil {
		return a, fmt.Errorf("cannot read its owner: %v", err)
	}
	a.Owner = owner.String()
	dacl, _, err := sd.DACL()
	if err != nil {
		return a, fmt.Errorf("cannot read its access control list: %w", err)
	}
	if dacl == nil {
		a.NullDACL = true
		return a, nil
	}
	for i := uint32(0); i < uint32(dacl.AceCount); i++ {
		var ace *windows.ACCESS_ALLOWED_ACE
		if err := windows.GetAce(dacl, i, &ace); err != nil {
			return a, fmt.Errorf("cannot read its access control list: %w", err)
		}
		e := aclEntry{Mask: uint32(ace.Mask), InheritOnly: ace.Header.AceFlags&windows.INHERIT_ONLY_ACE != 0}
		sidAt := unsafe.Pointer(&ace.SidStart)
		switch ace.Header.AceType {
		case aceTypeAllowed, aceTypeAllowedCallback:
			e.Kind = aceAllow
		case aceTypeDenied:
			e.Kind = aceDeny
		case aceTypeDeniedCallback:
			e.Kind = aceIgnored
		case aceTypeAllowedObject, aceTypeDeniedObject, aceTypeAllowedCallbackObj, aceTypeDeniedCallbackObj:
			e.Kind = aceAllow
			if t := ace.Header.AceType; t == aceTypeDeniedObject || t == aceTypeDeniedCallbackObj {
				e.Kind = aceIgnored
			}
			// ACCESS_ALLOWED_OBJECT_ACE: header, mask, flags, the GUIDs
			// the flags name, then the SID.
			flags := *(*uint32)(sidAt)
			off := uintptr(aceObjectFlagsSize)
			if flags&aceObjectTypePresent != 0 {
				off += aceObjectGUIDSize
			}
			if flags&aceInheritedObjectPresent != 0 {
				off += aceObjectGUIDSize
			}
			if aceHeaderAndMaskSize+off >= uintptr(ace.Header.AceSize) {
				a.unknown = append(a.unknown, ace.Header.AceType)
				continue
			}
			sidAt = unsafe.Add(sidAt, off)
		default:
			a.unknown = append(a.unknown, ace.Header.AceType)
			continue
		}
		e.SID = (*windows.SID)(sidAt).String()
		a.DACL = append(a.DACL, e)
	}
	return a, nil
}

// readToken fills in the user and the groups of the token t.
func readToken(t windows.Token, a *winSecurity) error {
	u, err := t.GetTokenUser()
	if err != nil {
		return fmt.Errorf("cannot read the user running hookctl: %w", err)
	}
	a.User = u.User.Sid.String()
	g, err := t.GetTokenGroups()
	if err != nil {
		return fmt.Errorf("cannot read the groups of the user running hookctl: %w", err)
	}
	for _, s := range g.AllGroups() {
		sid := s.Sid.String()
		switch {
		case s.Attributes&windows.SE_GROUP_INTEGRITY != 0:
		case s.Attributes&windows.SE_GROUP_USE_FOR_DENY_ONLY != 0:
			a.DenyOnly = append(a.DenyOnly, sid)
		default:
			a.Groups = append(a.Groups, sid)
		}
	}
	return nil
}
