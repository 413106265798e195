package copilot

import (
	"errors"
	"strings"

	"github.com/hookctl/hookctl/protocol"
)

// psQuoteChars are the characters PowerShell reads as a single quote in
// a verbatim string: the ASCII one and the typographic ones.
const psQuoteChars = "'\u2018\u2019\u201a\u201b"

// psWord quotes s as a PowerShell verbatim string ('...', each quote
// character doubled): nothing in it is expanded. A NUL is refused.
func psWord(s string) (string, error) {
	if strings.IndexByte(s, 0) >= 0 {
		return "", errors.New("a NUL byte cannot be in a PowerShell command line")
	}
	var b strings.Builder
	b.WriteByte('\'')
	for _, r := range s {
		if strings.ContainsRune(psQuoteChars, r) {
			b.WriteRune(r)
		}
		b.WriteRune(r)
	}
	b.WriteByte('\'')
	return b.String(), nil
}

// plainWord reports whether s can stand unquoted as a PowerShell command
// name (hookctl, hookctl-client).
func plainWord(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.')
	}) < 0
}

// powershellCommand is the hook command as Copilot CLI runs it on
// Windows (its "powershell" field): a quoted program is called with &.
// Empty when the request gives its own command (written for bash).
func (p *Protocol) powershellCommand(req protocol.InstallRequest) (string, error) {
	if req.Command != "" {
		return "", nil
	}
	prog := req.Program
	if !plainWord(prog) {
		q, err := psWord(prog)
		if err != nil {
			return "", err
		}
		prog = "& " + q
	}
	line := p.HookCommand(prog)
	if req.Config != "" {
		q, err := psWord(req.Config)
		if err != nil {
			return "", err
		}
		line += " --config " + q
	}
	return line, nil
}
