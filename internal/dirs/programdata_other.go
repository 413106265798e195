//go:build !windows

package dirs

// systemProgramData is the system's ProgramData folder: none here (the
// Windows rules are tested on other systems with C:\ProgramData).
func systemProgramData() string { return "" }
