package secrets

import (
	"regexp"
	"strings"
	"sync"
)

// detector is one entry of the detector table. The table is built once at
// package init and never written afterwards.
//
// A detector finds candidates in one of three ways: re, a regexp whose whole
// match is the secret; keyword and value, which read the value after a
// label-separator site (see findSites) whose label ends in a keyword; or
// find, a hand-written scanner. Regexps are reserved for secrets that start
// with a literal prefix, which Go's regexp engine skips to quickly; labelled
// forms are parsed by hand because a regexp that may start anywhere is two
// orders of magnitude slower.
type detector struct {
	kind string

	re func() *regexp.Regexp // compiled on first use: most programs never scan

	// keyword returns the lowercased keyword a label ends in ("api_key"
	// for "OPENAI_API_KEY"), or "" when the label is not one of this
	// detector's. value parses the value at the first byte after the
	// separator and blanks.
	keyword func(label string) string
	value   func(text string, at int) (start, end int, quoted, ok bool)

	find func(text string, emit func(start, end int) bool)

	// any is a cheap prefilter: the detector cannot match unless one of
	// these literals occurs in the text. Empty means always run.
	any []string
	// minLen is the minimum length of the secret in bytes.
	minLen int
	// bounded requires that no ASCII letter or digit touches the secret on
	// either side, so a prefix like "ghp_" inside a longer word is ignored.
	bounded bool
	// valid, if set, is the last check of a candidate.
	valid func(m *match) bool
}

// match is what a detector's valid func sees of one candidate.
type match struct {
	value   string // the secret, from the original text
	label   string // lowercased identifier ending in the keyword: "openai_api_key"
	keyword string // lowercased keyword: "api_key"
	quoted  bool   // the value was in quotes
	spaced  bool   // whitespace separates the label from the value
	compare bool   // the separator is == or ===
}

// valueOnly adapts a check of the value alone.
func valueOnly(f func(string) bool) func(*match) bool {
	return func(m *match) bool { return f(m.value) }
}

// prefixTable maps a byte to the prefilter literals that start with it, each
// with the bit of its detector, so one pass over the text tells which
// detectors can match at all.
var prefixTable = buildPrefixTable()

type prefixLit struct {
	lit  string
	mask uint64
}

func buildPrefixTable() *[256][]prefixLit {
	var t [256][]prefixLit
	for i := range detectors {
		for _, lit := range detectors[i].any {
			t[lit[0]] = append(t[lit[0]], prefixLit{lit, 1 << i})
		}
	}
	return &t
}

// candidates returns the set of detectors, as bits by table index, that
// may match text: those without prefilter literals and those one of whose
// literals occurs in text.
func candidates(text string) uint64 {
	var mask uint64
	for i := range detectors {
		if len(detectors[i].any) == 0 {
			mask |= 1 << i
		}
	}
	for i := 0; i < len(text); i++ {
		for _, p := range prefixTable[text[i]] {
			if mask&p.mask == 0 && strings.HasPrefix(text[i:], p.lit) {
				mask |= p.mask
			}
		}
	}
	return mask
}

// The detector set is a uint64 bitmask.
var _ [64 - len(detectors)]struct{}

// detectors is ordered most specific first: on equal-length overlaps the
// earlier entry wins.
var detectors = [...]detector{
	{
		kind: "private-key",
		re: lazyRegexp(`-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----` +
			`(?:(?s:.*?)-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----` +
			`|[A-Za-z0-9+/=\s\\:,.\-]*)`),
		any: []string{"PRIVATE KEY"},
	},
	{
		kind:    "aws-access-key-id",
		re:      lazyRegexp(`(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]+`),
		any:     []string{"AKIA", "ASIA", "ABIA", "ACCA"},
		bounded: true,
		valid: valueOnly(func(v string) bool {
			// AKIAIOSFODNN7EXAMPLE and its kin fill AWS documentation.
			return len(v) == 20 && !strings.Contains(v, "EXAMPLE")
		}),
	},
	{
		kind:    "aws-secret-access-key",
		keyword: awsSecretKeyword,
		value:   awsSecretValue,
		valid:   valueOnly(func(v string) bool { return !strings.Contains(v, "EXAMPLE") }),
	},
	{
		kind:    "github-token",
		re:      lazyRegexp(`gh[pousr]_[A-Za-z0-9]+`),
		any:     []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"},
		minLen:  40,
		bounded: true,
	},
	{
		kind:    "github-token",
		re:      lazyRegexp(`github_pat_[A-Za-z0-9_]+`),
		any:     []string{"github_pat_"},
		minLen:  60,
		bounded: true,
	},
	{
		kind:    "gitlab-token",
		re:      lazyRegexp(`gl(?:pat|ptt|dt|rt|soat)-[A-Za-z0-9_\-]+`),
		any:     []string{"glpat-", "glptt-", "gldt-", "glrt-", "glsoat-"},
		minLen:  25,
		bounded: true,
	},
	{
		kind:    "slack-token",
		re:      lazyRegexp(`xox[baprs]-[A-Za-z0-9\-]+`),
		any:     []string{"xoxb-", "xoxa-", "xoxp-", "xoxr-", "xoxs-"},
		minLen:  20,
		bounded: true,
		valid:   valueOnly(func(v string) bool { return hasDigit(v) && !isPlaceholder(v) }),
	},
	{
		kind:    "slack-webhook",
		re:      lazyRegexp(`(?:https?://)?hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/\-]+`),
		any:     []string{"hooks.slack.com/"},
		bounded: true,
		valid: valueOnly(func(v string) bool {
			_, path, _ := strings.Cut(v, "hooks.slack.com/")
			_, rest, _ := strings.Cut(path, "/")
			return len(rest) >= 20
		}),
	},
	{
		kind:    "stripe-key",
		re:      lazyRegexp(`[sr]k_(?:live|test)_[A-Za-z0-9]+`),
		any:     []string{"k_live_", "k_test_"},
		minLen:  24,
		bounded: true,
	},
	{
		kind:    "anthropic-api-key",
		re:      lazyRegexp(`sk-ant-[A-Za-z0-9_\-]+`),
		any:     []string{"sk-ant-"},
		minLen:  40,
		bounded: true,
	},
	{
		kind:    "openai-api-key",
		re:      lazyRegexp(`sk-(?:proj|svcacct|admin)-[A-Za-z0-9_\-]+`),
		any:     []string{"sk-proj-", "sk-svcacct-", "sk-admin-"},
		minLen:  40,
		bounded: true,
	},
	{
		kind:    "openai-api-key",
		re:      lazyRegexp(`sk-[A-Za-z0-9]+`),
		any:     []string{"sk-"},
		minLen:  35,
		bounded: true,
		valid:   valueOnly(func(v string) bool { return hasDigit(v) && hasUpper(v) && hasLower(v) }),
	},
	{
		kind:    "google-api-key",
		re:      lazyRegexp(`AIza[0-9A-Za-z_\-]+`),
		any:     []string{"AIza"},
		bounded: true,
		valid:   valueOnly(func(v string) bool { return len(v) == 39 }),
	},
	{
		kind:    "npm-token",
		re:      lazyRegexp(`npm_[A-Za-z0-9]+`),
		any:     []string{"npm_"},
		bounded: true,
		valid:   valueOnly(func(v string) bool { return len(v) == 40 }),
	},
	{
		kind:    "jwt",
		re:      lazyRegexp(`eyJ[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]*`),
		any:     []string{"eyJ"},
		bounded: true,
		valid:   valueOnly(validJWT),
	},
	{
		kind: "url-credentials",
		find: findURLPasswords,
		any:  []string{"://"},
		valid: valueOnly(func(v string) bool {
			return len(v) >= 4 && !isPlaceholder(v) && !isEnvName(v) && !isUUID(v)
		}),
	},
	{
		kind:    "authorization-header",
		keyword: authorizationKeyword,
		value:   authorizationValue,
		minLen:  8,
		valid: valueOnly(func(v string) bool {
			return !isPlaceholder(v) && !isEnvName(v) && !isUUID(v)
		}),
	},
	{
		kind:    "secret-assignment",
		keyword: assignmentKeyword,
		value:   assignmentValue,
		minLen:  6,
		valid:   validAssignment,
	},
	{
		kind:    "high-entropy",
		keyword: entropyKeyword,
		value:   entropyValue,
		minLen:  32,
		valid:   validHighEntropy,
	},
}

// lazyRegexp compiles expr the first time it is needed, so that loading
// the package (every hookctl command does) costs nothing.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
