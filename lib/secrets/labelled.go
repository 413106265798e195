package secrets

import "strings"

// site is a label followed by a separator: `password=`, `"token": `,
// `api_key := `, `'secret' => `, `X-Api-Key: `, `\"password\":`.
type site struct {
	labelStart, labelEnd int  // the identifier before the separator
	valueAt              int  // first byte after the separator and blanks
	spaced               bool // blanks between label and value
	compare              bool // the separator is == or ===
}

// findSites returns every label-separator site of text. The separators
// are :, =, :=, =>, == and ===; blanks may surround them and the label
// may be quoted, also JSON-escaped. A label is a run of letters, digits,
// _, - and . ending right before the separator (or its closing quote).
func findSites(text string) []site {
	var out []site
	for i := 0; i < len(text); {
		j := strings.IndexAny(text[i:], ":=")
		if j < 0 {
			break
		}
		p := i + j
		q := p + 1
		switch {
		case text[p] == ':' && q < len(text) && text[q] == '=':
			q++
		case text[p] == '=' && q < len(text) && text[q] == '>':
			q++
		case text[p] == '=':
			for q < len(text) && q < p+3 && text[q] == '=' {
				q++
			}
		}
		i = q
		e := p
		for e > 0 && isBlank(text[e-1]) {
			e--
		}
		spaced := e < p
		if e > 0 && (text[e-1] == '"' || text[e-1] == '\'') {
			e--
			if e > 0 && text[e-1] == '\\' {
				e--
			}
		}
		s := labelStart(text, e)
		if s == e {
			continue
		}
		if strings.HasSuffix(text[:s], "://") {
			// The user of scheme://user:password@host, not a label.
			continue
		}
		if s > 0 && text[s-1] == ':' && text[p] == ':' && !spaced {
			// A field of a colon-separated path, such as the "secret" of
			// arn:aws:secretsmanager:eu-west-1:123456789012:secret:name.
			continue
		}
		v := q
		for v < len(text) && isBlank(text[v]) {
			v++
		}
		out = append(out, site{
			labelStart: s, labelEnd: e, valueAt: v,
			spaced:  spaced || v > q,
			compare: q-p >= 2 && text[p] == '=' && text[p+1] == '=',
		})
	}
	return out
}

// labelStart walks back from e over the identifier that ends there, at most
// 64 bytes.
func labelStart(s string, e int) int {
	i := e
	for i > 0 && e-i < 64 && isLabelByte(s[i-1]) {
		i--
	}
	return i
}

// Keywords, lowercase. A label names a secret when it ends in one of them.
var (
	assignmentWords = []string{"password", "passwd", "passphrase", "secret", "token"}
	// keyPrefixes make "key" a secret-assignment keyword: api_key,
	// secretKey, ACCESS-KEY ...; a bare "key" is left to high-entropy.
	keyPrefixes  = []string{"api", "secret", "access", "private", "auth", "client", "encryption", "signing", "master"}
	entropyWords = []string{"key", "secret", "token", "password", "passwd", "passphrase", "credential", "credentials", "auth"}
)

// assignmentKeyword accepts labels ending in password, passwd, passphrase,
// secret, token or a <prefix>[_-.]key such as api_key.
func assignmentKeyword(label string) string {
	for _, w := range assignmentWords {
		if hasSuffixFold(label, w) {
			return w
		}
	}
	if !hasSuffixFold(label, "key") {
		return ""
	}
	rest, sep := label[:len(label)-3], ""
	if n := len(rest); n > 0 && (rest[n-1] == '_' || rest[n-1] == '-' || rest[n-1] == '.') {
		rest, sep = rest[:n-1], rest[n-1:]
	}
	for _, p := range keyPrefixes {
		if hasSuffixFold(rest, p) {
			return p + sep + "key"
		}
	}
	return ""
}

// entropyKeyword accepts labels ending in any key-like word.
func entropyKeyword(label string) string {
	for _, w := range entropyWords {
		if hasSuffixFold(label, w) {
			return w
		}
	}
	return ""
}

// awsSecretKeyword accepts aws_secret_access_key, AWS_SECRET_ACCESS_KEY,
// SecretAccessKey, aws-secret-key and the like.
func awsSecretKeyword(label string) string {
	if !hasSuffixFold(label, "key") {
		return ""
	}
	sq := squash(lowerASCII(label))
	if strings.HasSuffix(sq, "secretaccesskey") || strings.HasSuffix(sq, "awssecretkey") {
		return "secret_access_key"
	}
	return ""
}

// authorizationKeyword accepts Authorization and Proxy-Authorization.
func authorizationKeyword(label string) string {
	if hasSuffixFold(label, "authorization") {
		return "authorization"
	}
	return ""
}

// openQuote skips an opening quote at i: ", ' or JSON-escaped \".
func openQuote(text string, i int) int {
	switch {
	case i < len(text) && (text[i] == '"' || text[i] == '\''):
		return i + 1
	case i+1 < len(text) && text[i] == '\\' && text[i+1] == '"':
		return i + 2
	}
	return i
}

// assignmentValue reads a quoted value ("...", '...' or \"...\", no
// blanks inside) or an unquoted one, which must end at a blank, a quote, a
// delimiter or the end of the text: "password=os.Getenv(" is a call, not a
// value.
func assignmentValue(text string, at int) (start, end int, quoted, ok bool) {
	n := len(text)
	if at >= n {
		return 0, 0, false, false
	}
	switch st := openQuote(text, at); {
	case st > at && text[st-1] == '\'':
		en := st
		for en < n && text[en] != '\'' && !isSpace(text[en]) {
			en++
		}
		if en == st || en >= n || text[en] != '\'' {
			return 0, 0, false, false
		}
		return st, en, true, true
	case st > at:
		en := st
		for en < n && text[en] != '"' && text[en] != '\\' && !isSpace(text[en]) {
			en++
		}
		if en == st || en >= n {
			return 0, 0, false, false
		}
		if text[en] == '"' || en+1 < n && text[en] == '\\' && text[en+1] == '"' {
			return st, en, true, true
		}
		return 0, 0, false, false
	}
	en := at
	for en < n && !isSpace(text[en]) && !strings.ContainsRune("\"'`<>[](){}\\,;&|", rune(text[en])) {
		en++
	}
	if en == at {
		return 0, 0, false, false
	}
	if en < n && !isSpace(text[en]) && !strings.ContainsRune("\"'`,;&|)}]<\\", rune(text[en])) {
		return 0, 0, false, false
	}
	return at, en, false, true
}

// entropyValue reads a run of base64, base64url or hex characters with at
// most two = of padding, optionally quoted, that is not followed by more
// of them.
func entropyValue(text string, at int) (start, end int, quoted, ok bool) {
	st := openQuote(text, at)
	en := st
	for en < len(text) && isBase64Byte(text[en]) {
		en++
	}
	if en == st {
		return 0, 0, false, false
	}
	for k := 0; k < 2 && en < len(text) && text[en] == '='; k++ {
		en++
	}
	if en < len(text) && (isBase64Byte(text[en]) || text[en] == '=') {
		return 0, 0, false, false
	}
	return st, en, st > at, true
}

// awsSecretValue reads exactly 40 base64 characters, optionally quoted.
func awsSecretValue(text string, at int) (start, end int, quoted, ok bool) {
	st := openQuote(text, at)
	en := st
	for en < len(text) && en-st <= 40 && (isAlnum(text[en]) || text[en] == '/' || text[en] == '+') {
		en++
	}
	if en-st != 40 || en < len(text) && (isAlnum(text[en]) || text[en] == '/' || text[en] == '+' || text[en] == '=') {
		return 0, 0, false, false
	}
	return st, en, st > at, true
}

// authorizationValue reads the credentials after a Bearer, Basic or Token
// scheme: an RFC 7235 token68.
func authorizationValue(text string, at int) (start, end int, quoted, ok bool) {
	st := openQuote(text, at)
	w := st
	for w < len(text) && isLetter(text[w]) {
		w++
	}
	switch scheme := text[st:w]; {
	case strings.EqualFold(scheme, "bearer"), strings.EqualFold(scheme, "basic"), strings.EqualFold(scheme, "token"):
	default:
		return 0, 0, false, false
	}
	b := w
	for b < len(text) && isBlank(text[b]) {
		b++
	}
	e := b
	for e < len(text) && (isAlnum(text[e]) || strings.IndexByte("._~+/-", text[e]) >= 0) {
		e++
	}
	if b == w || e == b {
		return 0, 0, false, false
	}
	for e < len(text) && text[e] == '=' {
		e++
	}
	return b, e, st > at, true
}

// findURLPasswords emits the password of every scheme://user:password@host
// in text.
func findURLPasswords(text string, emit func(start, end int) bool) {
	for i := 0; ; {
		j := strings.Index(text[i:], "://")
		if j < 0 {
			return
		}
		p := i + j
		i = p + 3
		letter := false
		for k := p; k > 0 && (isAlnum(text[k-1]) || strings.IndexByte("+.-", text[k-1]) >= 0); k-- {
			letter = letter || isLetter(text[k-1])
		}
		if !letter {
			continue
		}
		u := p + 3
		for u < len(text) && !isSpace(text[u]) && strings.IndexByte(`:/?#@"'<>[]\`, text[u]) < 0 {
			u++
		}
		if u >= len(text) || text[u] != ':' {
			continue
		}
		ps := u + 1
		pe := ps
		for pe < len(text) && !isSpace(text[pe]) && strings.IndexByte(`/?#@"'<>[]\`, text[pe]) < 0 {
			pe++
		}
		if pe == ps || pe+1 >= len(text) || text[pe] != '@' || !(isAlnum(text[pe+1]) || text[pe+1] == '[') {
			continue
		}
		if !emit(ps, pe) {
			return
		}
	}
}

// hasSuffixFold reports whether s ends in suffix, ignoring ASCII case;
// suffix is lowercase.
func hasSuffixFold(s, suffix string) bool {
	if len(s) < len(suffix) {
		return false
	}
	s = s[len(s)-len(suffix):]
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != suffix[i] {
			return false
		}
	}
	return true
}

func isLabelByte(c byte) bool {
	return isAlnum(c) || c == '_' || c == '-' || c == '.'
}

func isBase64Byte(c byte) bool {
	return isAlnum(c) || c == '+' || c == '/' || c == '_' || c == '-'
}

func isLetter(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isAlnum(c byte) bool {
	return isLetter(c) || '0' <= c && c <= '9'
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}
