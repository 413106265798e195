package secrets

import (
	"encoding/base64"
	"encoding/json"
	"math"
	"strings"
)

// validJWT requires the first part to decode to a JSON object with an "alg"
// member, as every JWS and JWE header has.
func validJWT(v string) bool {
	head, rest, _ := strings.Cut(v, ".")
	payload, _, _ := strings.Cut(rest, ".")
	if len(head) < 10 || len(payload) < 10 {
		return false
	}
	raw, err := base64.RawURLEncoding.DecodeString(head)
	if err != nil {
		return false
	}
	var h map[string]any
	if json.Unmarshal(raw, &h) != nil {
		return false
	}
	_, ok := h["alg"]
	return ok
}

// validAssignment checks the value of a password=/token=/api_key= style
// assignment.
func validAssignment(m *match) bool {
	v := m.value
	if deniedLabel(m.label, assignmentDeny) || isPlaceholder(v) || isCodeRef(v) ||
		isEnvName(v) || isUUID(v) || isNumber(v) || repeatsKeyword(v, m.keyword) || isPublicKey(v) {
		return false
	}
	// A comparison is only a secret when it compares with a literal:
	// `if password == "hunter22"`, not `if first_token == child_first`.
	if m.compare && !m.quoted {
		return false
	}
	// A bare word is prose ("upload token: creating"), code
	// ("PrivateKey: testKey", "Token: tokens") or data ("input_token":
	// "Marker"); only in env, flag and query form, DB_PASSWORD=supersecret,
	// is it a value.
	if isWord(v) && (m.quoted || m.spaced) || isSnakeCase(v) {
		return false
	}
	return !isColor(v)
}

// validHighEntropy checks a long value after a key-like label: it has to
// look random, not like a word, path, UUID or hash of something public.
func validHighEntropy(m *match) bool {
	v := m.value
	if deniedLabel(m.label, entropyDeny) || isUUID(v) || isPlaceholder(v) ||
		repeatsKeyword(v, m.keyword) || isPublicKey(v) {
		return false
	}
	core := strings.TrimRight(v, "=")
	if len(core) < 32 {
		return false
	}
	h := entropy(core)
	if isHex(core) {
		return hasDigit(core) && hasLetter(core) && h >= 3.0
	}
	upper, lower, digit := hasUpper(core), hasLower(core), hasDigit(core)
	switch {
	case upper && lower && digit:
		return h >= 3.75
	case digit && (upper || lower):
		// Base32 or single-case tokens: no separators, or it is more
		// likely a slug or a path.
		return h >= 3.75 && !strings.ContainsAny(core, "/_-+")
	}
	return false
}

// Labels that end in a secret-like keyword but name something public or
// non-secret. Checked as substrings of the lowercased label.
var (
	assignmentDeny = []string{
		"next", "page", "continuation", "cursor", "sync", "cancel", "idempot",
		"csrf", "xsrf", "public", "publishable", "dedup",
	}
	entropyDeny = append([]string{
		"cache", "sort", "partition", "primary", "foreign", "object", "s3",
		"file", "path", "hash", "sha", "checksum", "digest", "fingerprint",
		"commit", "etag", "integrity", "nonce", "signature", "trace",
		"request", "lookup", "row", "ssh-rsa", "pubkey",
	}, assignmentDeny...)
)

func deniedLabel(label string, deny []string) bool {
	for _, d := range deny {
		if strings.Contains(label, d) {
			return true
		}
	}
	return false
}

var placeholderWords = map[string]bool{
	"password": true, "passwd": true, "pass": true, "secret": true, "token": true,
	"apikey": true, "api_key": true, "api-key": true, "key": true,
	"none": true, "null": true, "nil": true, "undefined": true, "true": true, "false": true,
	"string": true, "str": true, "bytes": true, "text": true, "value": true, "required": true,
	"optional": true, "test": true, "testing": true, "foobar": true, "foo": true, "bar": true,
	"default": true, "empty": true, "hidden": true, "masked": true, "notset": true,
	"not-set": true, "unset": true, "bearer": true, "basic": true,
	"mypassword": true, "mysecret": true, "mytoken": true,
	"sensitive": true, "omitted": true, "removed": true, "filtered": true,
}

// placeholderParts are substrings that mark a value as a placeholder or a
// reference to a secret kept elsewhere.
var placeholderParts = []string{
	"changeme", "change_me", "change-me", "changeit", "example", "placeholder",
	"redacted", "your_", "your-", "yourpass", "yoursecret", "yourtoken", "yourkey",
	"dummy", "xxxx", "****", "....", "fixme", "todo", "<", ">", "${", "{{", "}}",
	"#{", "process.env", "os.environ", "getenv", "secrets.", "env.", "vault:",
	"insert", "replace", "fake", "sample", "mock", "arn:aws",
}

// isPlaceholder reports whether v is a stand-in rather than a secret:
// "changeme", "xxx", "<token>", "${VAR}", "$VAR", "%VAR%", "****" ...
func isPlaceholder(v string) bool {
	l := strings.ToLower(strings.Trim(v, `"'`))
	if l == "" || placeholderWords[l] {
		return true
	}
	switch l[0] {
	case '$', '%', '<', '{', '[', '@', '*':
		return true
	}
	for _, p := range placeholderParts {
		if strings.Contains(l, p) {
			return true
		}
	}
	// A run of one character, or only of filler characters.
	if strings.Trim(l, "x*._-#?0") == "" || strings.Count(l, l[:1]) == len(l) {
		return true
	}
	return false
}

// isCodeRef reports whether v is a dotted identifier such as
// "config.password" or "self.token": a reference in code, not a value.
func isCodeRef(v string) bool {
	parts := strings.Split(v, ".")
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		if p == "" || !isIdent(p) {
			return false
		}
	}
	return true
}

func isIdent(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || c == '$' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9' {
			continue
		}
		return false
	}
	return true
}

// repeatsKeyword reports whether v contains the label's keyword, ignoring
// case and separators: "PrivateKey: testRSAPrivateKey",
// "Password: password16", "Token: tokens" name things, they are not
// secrets.
func repeatsKeyword(v, keyword string) bool {
	k, lv := squash(keyword), squash(lowerASCII(v))
	if strings.HasSuffix(k, "key") {
		k = "key" // "rsaPrivateKey = testKey2048"
	}
	return k != "" && strings.Contains(lv, k)
}

// squash drops the separators _ - . from s.
func squash(s string) string {
	if !strings.ContainsAny(s, "_-.") {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r == '.' {
			return -1
		}
		return r
	}, s)
}

// isSnakeCase reports whether v is a snake_case identifier such as
// "line_offset": a variable, not a value.
func isSnakeCase(v string) bool {
	if !strings.Contains(v, "_") {
		return false
	}
	for i := 0; i < len(v); i++ {
		if !('a' <= v[i] && v[i] <= 'z' || v[i] == '_') {
			return false
		}
	}
	return true
}

// isWord reports whether v is letters only.
func isWord(v string) bool {
	for i := 0; i < len(v); i++ {
		if !isLetter(v[i]) {
			return false
		}
	}
	return true
}

// publicKeyPrefixes start the base64 of public keys: DER
// SubjectPublicKeyInfo for EC P-256, P-384, P-521, RSA 2048 and 4096 and
// Ed25519, then OpenSSH ssh-rsa, ssh-ed25519 and ecdsa key blobs.
var publicKeyPrefixes = []string{
	"MFkwEwYHKoZIzj0CAQ", "MHYwEAYHKoZIzj0CAQ", "MIGbMBAGByqGSM49AgE",
	"MIIBIjANBgkqhkiG9w0BAQEFAAOC", "MIICIjANBgkqhkiG9w0BAQEFAAOC", "MCowBQYDK2VwAyEA",
	"AAAAB3NzaC1yc2E", "AAAAC3NzaC1lZDI1NTE5", "AAAAE2VjZHNhLXNoYTItbmlzdHAy",
}

// isPublicKey reports whether v is the base64 of a public key, which is
// not a secret whatever its label.
func isPublicKey(v string) bool {
	for _, p := range publicKeyPrefixes {
		if strings.HasPrefix(v, p) {
			return true
		}
	}
	return false
}

// isColor reports whether v is a CSS hex colour such as "#cccccc".
func isColor(v string) bool {
	h, ok := strings.CutPrefix(v, "#")
	return ok && len(h) <= 8 && strings.Trim(h, "0123456789abcdefABCDEF") == ""
}

// isNumber reports whether v is a number literal, decimal or 0x hex,
// rather than a secret: "IMAGE_REL_AMD64_TOKEN = 0x000D".
func isNumber(v string) bool {
	v = strings.TrimPrefix(v, "-")
	if h, ok := strings.CutPrefix(strings.ToLower(v), "0x"); ok {
		return h != "" && strings.Trim(h, "0123456789abcdef") == ""
	}
	return len(v) <= 10 && strings.Trim(v, "0123456789") == ""
}

// isEnvName reports whether v looks like the name of an environment
// variable, "GITHUB_TOKEN", rather than its value.
func isEnvName(v string) bool {
	if !strings.Contains(v, "_") {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !('A' <= c && c <= 'Z' || c == '_' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// isUUID reports whether v is a UUID in its canonical 8-4-4-4-12 form.
func isUUID(v string) bool {
	if len(v) != 36 {
		return false
	}
	for i := 0; i < len(v); i++ {
		switch i {
		case 8, 13, 18, 23:
			if v[i] != '-' {
				return false
			}
		default:
			if !isHexByte(v[i]) {
				return false
			}
		}
	}
	return true
}

func isHex(s string) bool {
	lower, upper := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case '0' <= c && c <= '9':
		case 'a' <= c && c <= 'f':
			lower = true
		case 'A' <= c && c <= 'F':
			upper = true
		default:
			return false
		}
	}
	return !(lower && upper)
}

func isHexByte(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func hasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

func hasUpper(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return 'A' <= r && r <= 'Z' }) >= 0
}

func hasLower(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return 'a' <= r && r <= 'z' }) >= 0
}

func hasLetter(s string) bool { return hasUpper(s) || hasLower(s) }

// entropy is the Shannon entropy of s in bits per byte.
func entropy(s string) float64 {
	if s == "" {
		return 0
	}
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	n := float64(len(s))
	h := 0.0
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}
