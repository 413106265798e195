//go:build windows

package dirs

import "golang.org/x/sys/windows"

// systemProgramData is the system's ProgramData folder
// (FOLDERID_ProgramData), "" if it cannot be read.
func systemProgramData() string {
	p, err := windows.KnownFolderPath(windows.FOLDERID_ProgramData, 0)
	if err != nil {
		return ""
	}
	return p
}
