package hcl

import (
	"fmt"
	"io"
	"strings"
)

// Code is the stable identifier of a kind of diagnostic: HK and four
// digits, the first two of which give the group (HK10xx syntax, HK11xx
// values and structure, HK12xx unknown names, HK13xx events, HK14xx
// conditions and matchers, HK15xx scripts, HK16xx hooks and handlers,
// HK17xx settings and locals, HK18xx test files, HK19xx trust). A code,
// once given, keeps its meaning: tools and users may match on it while the
// summary and the detail are reworded. Codes lists them all; the table in
// docs/diagnostics.md is generated from it.
type Code string

// The codes Go code names; the others are given by summary (see CodeOf).
const (
	// CodeOther is a problem with no code of its own: a summary from the
	// HCL library's expression evaluator that Codes does not list, or one
	// an embedder's handler kind reports.
	CodeOther Code = "HK1000"
	// CodeSyntax is a syntax error found while parsing a file.
	CodeSyntax Code = "HK1001"
	// CodeReadFile is a configuration file that could not be read.
	CodeReadFile Code = "HK1002"

	// CodeUntrusted is a configuration that was never trusted.
	CodeUntrusted Code = "HK1901"
	// CodeTrustChanged is a configuration changed since it was trusted.
	CodeTrustChanged Code = "HK1902"
	// CodeTrustUnchecked is a configuration whose trust could not be
	// checked.
	CodeTrustUnchecked Code = "HK1903"
	// CodeUntrustedFile is a file a trusted configuration loaded that its
	// trust record does not pin as it is.
	CodeUntrustedFile Code = "HK1904"
)

// CodeInfo documents one code.
type CodeInfo struct {
	Code Code
	// Group is the code's kind (its first two digits).
	Group string
	// Title says what the code is about.
	Title string
	// Summaries are the diagnostic summaries given this code. Empty for
	// the codes Go code sets by name (the syntax errors, trust).
	Summaries []string
	// Library marks summaries the HCL library writes (not hookctl's code).
	Library bool
}

// Groups of codes, by their first two digits.
const (
	groupSyntax     = "Syntax"
	groupValues     = "Values and structure"
	groupUnknown    = "Unknown names"
	groupEvents     = "Events"
	groupConditions = "Conditions and matchers"
	groupScripts    = "Scripts (JavaScript, TypeScript)"
	groupHooks      = "Hooks and handlers"
	groupSettings   = "Settings and locals"
	groupTests      = "Test files (*_test.hcl)"
	groupTrust      = "Trust"
)

// codes is the table of every code. Append to it; never renumber or reuse
// a code. A summary belongs to one code.
var codes = []CodeInfo{
	{Code: CodeOther, Group: groupSyntax, Title: "A problem without a code of its own: an expression the HCL library cannot evaluate, or the summary of a handler kind added by an embedder (assemble.WithKind)"},
	{Code: CodeSyntax, Group: groupSyntax, Title: "Syntax error: the file is not valid HCL"},
	{Code: CodeReadFile, Group: groupSyntax, Title: "A configuration file cannot be read", Summaries: []string{"Failed to read file"}, Library: true},

	{Code: "HK1101", Group: groupValues, Title: "A value has the wrong type", Summaries: []string{"Incorrect attribute value type", "Unsuitable value type"}, Library: true},
	{Code: "HK1102", Group: groupValues, Title: "A value is not accepted", Summaries: []string{"Invalid value", "Invalid number", "Invalid list", "Invalid key"}},
	{Code: "HK1103", Group: groupValues, Title: "A duration is not valid", Summaries: []string{"Invalid duration"}},
	{Code: "HK1104", Group: groupValues, Title: "A size is not valid", Summaries: []string{"Invalid size"}},
	{Code: "HK1105", Group: groupValues, Title: "A required attribute is missing", Summaries: []string{"Missing required argument"}, Library: true},
	{Code: "HK1106", Group: groupValues, Title: "An attribute or key is given twice", Summaries: []string{"Duplicate argument", "Attribute redefined", "Duplicate object key"}, Library: true},
	{Code: "HK1107", Group: groupValues, Title: "A block that may appear once appears twice", Summaries: []string{"Duplicate settings block", "Duplicate retry block", "Duplicate expect block"}},
	{Code: "HK1108", Group: groupValues, Title: "A function call fails (file(), env(), ...)", Summaries: []string{"Invalid function argument", "Error in function call", "Not enough function arguments", "Too many function arguments"}, Library: true},

	{Code: "HK1201", Group: groupUnknown, Title: "Unknown block type", Summaries: []string{"Unsupported block type"}, Library: true},
	{Code: "HK1202", Group: groupUnknown, Title: "Unknown attribute (argument) of a block or built-in", Summaries: []string{"Unsupported argument"}, Library: true},
	{Code: "HK1203", Group: groupUnknown, Title: "Unknown variable in an expression (often ${...} meant for JavaScript or a shell)", Summaries: []string{"Unknown variable"}, Library: true},
	{Code: "HK1204", Group: groupUnknown, Title: "Unknown function in an expression", Summaries: []string{"Call to unknown function"}, Library: true},
	{Code: "HK1205", Group: groupUnknown, Title: "Unknown attribute of a value in an expression", Summaries: []string{"Unsupported attribute"}, Library: true},
	{Code: "HK1206", Group: groupUnknown, Title: "Unknown capability in allow", Summaries: []string{"Unknown capability"}},
	{Code: "HK1207", Group: groupUnknown, Title: "Unknown built-in hook", Summaries: []string{"Unknown built-in"}},
	{Code: "HK1208", Group: groupUnknown, Title: "Unknown handler kind", Summaries: []string{"Unknown handler kind"}},
	{Code: "HK1209", Group: groupUnknown, Title: "A condition reads a payload field the event does not have (warning)", Summaries: []string{"Unknown payload field"}},
	{Code: "HK1210", Group: groupUnknown, Title: "A static result sets a field the event does not have (warning)", Summaries: []string{"Unknown result field"}},
	{Code: "HK1211", Group: groupUnknown, Title: "A test expects a status of a hook that does not exist", Summaries: []string{"Unknown hook"}},
	{Code: "HK1221", Group: groupUnknown, Title: "A function block names a type that is not one of string, int, float, bool, list, map, any", Summaries: []string{"Unknown type"}},
	{Code: "HK1222", Group: groupUnknown, Title: "A function is declared twice", Summaries: []string{"Duplicate function"}},
	{Code: "HK1223", Group: groupUnknown, Title: "A function block's name is a built-in condition function (expr's or hookctl's) or not an identifier", Summaries: []string{"Function name taken"}},

	{Code: "HK1301", Group: groupEvents, Title: "Unknown event", Summaries: []string{"Unknown event"}},
	{Code: "HK1302", Group: groupEvents, Title: "A hook or test names no event", Summaries: []string{"Missing event"}},
	{Code: "HK1303", Group: groupEvents, Title: "A custom event is declared twice", Summaries: []string{"Duplicate event"}},
	{Code: "HK1304", Group: groupEvents, Title: "A custom event's name or alias is taken", Summaries: []string{"Event name taken", "Event alias taken"}},
	{Code: "HK1305", Group: groupEvents, Title: "A custom event is not valid", Summaries: []string{"Invalid event"}},
	{Code: "HK1306", Group: groupEvents, Title: "A custom event's strategy is not valid", Summaries: []string{"Invalid strategy"}},
	{Code: "HK1307", Group: groupEvents, Title: "A custom event's merge rules are not valid", Summaries: []string{"Invalid merge rules", "Invalid merge rule"}},
	{Code: "HK1308", Group: groupEvents, Title: "A test fires another event than its payload names (warning)", Summaries: []string{"Event differs from the payload"}},

	{Code: "HK1401", Group: groupConditions, Title: "A `when` condition does not compile", Summaries: []string{"Invalid condition"}},
	{Code: "HK1402", Group: groupConditions, Title: "A condition's regular expression can never match (warning)", Summaries: []string{"Condition regex can never match"}},
	{Code: "HK1403", Group: groupConditions, Title: "A matcher is not a valid regular expression", Summaries: []string{"Invalid matcher"}},
	{Code: "HK1404", Group: groupConditions, Title: "A matcher on an event without a matcher field (warning)", Summaries: []string{"Matcher has no effect"}},
	{Code: "HK1405", Group: groupConditions, Title: "A matcher written as a permission rule, Tool(pattern) (warning)", Summaries: []string{"Matcher looks like a permission rule"}},
	{Code: "HK1406", Group: groupConditions, Title: "A matcher can never match (warning)", Summaries: []string{"Matcher can never match"}},
	{Code: "HK1407", Group: groupConditions, Title: "A matcher names one host's tool name (warning)", Summaries: []string{"Matcher names one host's tool name"}},
	{Code: "HK1408", Group: groupConditions, Title: "A matcher differs from a known name by case (warning)", Summaries: []string{"Matcher differs from a known name by case"}},
	{Code: "HK1409", Group: groupConditions, Title: "A condition or a script reads a payload path the event's payload, or the tool_input of the tools the matcher matches, does not have (warning; see docs/payload-schema.md)", Summaries: []string{"Unknown payload path"}},
	{Code: "HK1421", Group: groupConditions, Title: "The program registered a declared function with another signature", Summaries: []string{"Function signature mismatch"}},
	{Code: "HK1422", Group: groupConditions, Title: "A declared function no condition calls (warning)", Summaries: []string{"Unused function"}},

	{Code: "HK1501", Group: groupScripts, Title: "A script or js/ts body has a syntax error", Summaries: []string{"JavaScript syntax error", "TypeScript syntax error"}},
	{Code: "HK1502", Group: groupScripts, Title: "A script throws while it loads", Summaries: []string{"Script failed to load"}},
	{Code: "HK1503", Group: groupScripts, Title: "A script file is missing or unreadable", Summaries: []string{"Missing script", "Missing or unreadable script"}},
	{Code: "HK1504", Group: groupScripts, Title: "The JavaScript runtime cannot be started", Summaries: []string{"JavaScript unavailable", "TypeScript unavailable"}},
	{Code: "HK1505", Group: groupScripts, Title: "A js/ts body does not compile", Summaries: []string{"Invalid JavaScript", "Invalid TypeScript"}},

	{Code: "HK1601", Group: groupHooks, Title: "Two hooks have the same id", Summaries: []string{"Duplicate hook id"}},
	{Code: "HK1602", Group: groupHooks, Title: "A hook has no handler", Summaries: []string{"Missing handler"}},
	{Code: "HK1603", Group: groupHooks, Title: "A hook has more than one handler", Summaries: []string{"Two handlers on one hook"}},
	{Code: "HK1604", Group: groupHooks, Title: "on_error is not valid", Summaries: []string{"Invalid on_error"}},
	{Code: "HK1605", Group: groupHooks, Title: "A retry block is not valid", Summaries: []string{"Invalid retry", `Retry without on_error = "retry"`}},
	{Code: "HK1606", Group: groupHooks, Title: "A static result is not valid", Summaries: []string{"Invalid result"}},
	{Code: "HK1607", Group: groupHooks, Title: "The event does not accept the decision", Summaries: []string{"Decision not accepted"}},
	{Code: "HK1608", Group: groupHooks, Title: "Switches that exclude each other are set", Summaries: []string{"Conflicting switches"}},
	{Code: "HK1609", Group: groupHooks, Title: "An attribute of command hooks on another kind of hook", Summaries: []string{"Attribute only for command hooks"}},
	{Code: "HK1610", Group: groupHooks, Title: "A command is empty or not valid", Summaries: []string{"Empty command", "Invalid command"}},
	{Code: "HK1611", Group: groupHooks, Title: "An env object is not valid", Summaries: []string{"Invalid env"}},
	{Code: "HK1612", Group: groupHooks, Title: "A command hook's protocol is not known", Summaries: []string{"Invalid protocol"}},
	{Code: "HK1613", Group: groupHooks, Title: "An http handler is not valid", Summaries: []string{"Invalid headers", "Invalid http handler"}},
	{Code: "HK1614", Group: groupHooks, Title: "A built-in hook's options are not valid", Summaries: []string{"Invalid built-in"}},
	{Code: "HK1615", Group: groupHooks, Title: "A prompt or agent handler cannot be built", Summaries: []string{"Invalid prompt provider", "No prompt provider", "Invalid prompt handler", "No agent runner", "Invalid agent handler"}},
	{Code: "HK1616", Group: groupHooks, Title: "A prompt handler's API key variable is not set (warning)", Summaries: []string{"API key not set"}},
	{Code: "HK1617", Group: groupHooks, Title: "The engine refuses a hook", Summaries: []string{"Invalid hook"}},
	{Code: "HK1618", Group: groupHooks, Title: "A hook settings.required lists is missing or disabled", Summaries: []string{"Required hook missing", "Required hook disabled"}},
	{Code: "HK1619", Group: groupHooks, Title: "A hook that can block an event fails open when it fails: its on_error resolves to ignore (warning)", Summaries: []string{"Guard fails open"}},
	{Code: "HK1621", Group: groupHooks, Title: "A command hook's shell is not known, or is set on an argv", Summaries: []string{"Invalid shell"}},
	{Code: "HK1620", Group: groupHooks, Title: "A hook's id is declared in two configuration layers: a lower layer cannot replace, disable or reorder a managed hook", Summaries: []string{"Managed hook id reused", "Hook id in two layers"}},

	{Code: "HK1701", Group: groupSettings, Title: "A setting is not valid", Summaries: []string{"Invalid setting"}},
	{Code: "HK1702", Group: groupSettings, Title: "Settings that exclude each other are set", Summaries: []string{"Conflicting settings"}},
	{Code: "HK1703", Group: groupSettings, Title: "A local value is declared twice", Summaries: []string{"Duplicate local value"}},
	{Code: "HK1704", Group: groupSettings, Title: "Local values refer to each other in a cycle", Summaries: []string{"Local value cycle"}},
	{Code: "HK1705", Group: groupSettings, Title: "The engine refuses the configuration", Summaries: []string{"Invalid configuration"}},
	{Code: "HK1706", Group: groupSettings, Title: "A setting of the managed layer only (managed_only, allow_layers) is set in a lower layer, where it is ignored (warning)", Summaries: []string{"Setting only for the managed layer"}},
	{Code: "HK1707", Group: groupSettings, Title: "A layer is not loaded: the managed layer's managed_only or allow_layers leaves it out (warning)", Summaries: []string{"Layer skipped"}},
	{Code: "HK1708", Group: groupSettings, Title: "A lower layer's setting that would change how managed hooks run is ignored: the managed layer's value holds (warning)", Summaries: []string{"Setting held by the managed layer"}},

	{Code: "HK1801", Group: groupTests, Title: "A test's name is empty or taken", Summaries: []string{"Empty test name", "Duplicate test name"}},
	{Code: "HK1802", Group: groupTests, Title: "A test's event is empty", Summaries: []string{"Empty event"}},
	{Code: "HK1803", Group: groupTests, Title: "A test's payload is not valid", Summaries: []string{"Two payloads", "Invalid payload", "Invalid payload file"}},
	{Code: "HK1804", Group: groupTests, Title: "A test's expectation is not valid", Summaries: []string{"Invalid expectation", "Invalid hooks", "Invalid hook status", "Invalid decision"}},
	{Code: "HK1805", Group: groupTests, Title: "A test's set is not valid", Summaries: []string{"Invalid set"}},

	{Code: CodeUntrusted, Group: groupTrust, Title: "The configuration is not trusted (hookctl trust)"},
	{Code: CodeTrustChanged, Group: groupTrust, Title: "The configuration changed since it was trusted"},
	{Code: CodeTrustUnchecked, Group: groupTrust, Title: "The configuration's trust cannot be checked (trust file unreadable, ...)"},
	{Code: CodeUntrustedFile, Group: groupTrust, Title: "A file the configuration loads is not pinned by its trust record"},
}

// bySummary maps a summary to its code.
var bySummary = func() map[string]Code {
	m := map[string]Code{}
	for _, c := range codes {
		for _, s := range c.Summaries {
			m[s] = c.Code
		}
	}
	return m
}()

// Codes returns the table of every code, in order.
func Codes() []CodeInfo {
	out := make([]CodeInfo, len(codes))
	for i, c := range codes {
		c.Summaries = append([]string(nil), c.Summaries...)
		out[i] = c
	}
	return out
}

// WriteCodesMarkdown writes the table of codes as the Markdown of
// docs/diagnostics.md.
func WriteCodesMarkdown(w io.Writer) error {
	var b strings.Builder
	b.WriteString("# Diagnostic codes\n\n")
	b.WriteString("<!-- Generated from hcl/codes.go by `go test ./hcl -run TestCodesDoc -update`; do not edit. -->\n\n")
	b.WriteString("Every problem `hookctl validate`, `test`, `trust` and the loaders report carries a stable code\n")
	b.WriteString("beside its position, as in `hooks.hcl:3:9: error[HK1301]: Unknown event`. A code keeps its\n")
	b.WriteString("meaning across releases while the wording of the summary and the detail may change; match on\n")
	b.WriteString("the code. The first two digits give the group. A warning and an error may share a code (the\n")
	b.WriteString("severity is separate). In Go, `hcl.Diagnostic.Code` holds it, `hcl.Codes()` lists this table,\n")
	b.WriteString("and the trust errors (`trust.UntrustedError`, `trust.UntrustedFileError`) have a `Code` method.\n")
	group := ""
	for _, c := range codes {
		if c.Group != group {
			group = c.Group
			fmt.Fprintf(&b, "\n## %s\n\n| Code | Meaning | Summaries |\n|---|---|---|\n", group)
		}
		var sums []string
		for _, s := range c.Summaries {
			sums = append(sums, "`"+s+"`")
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", c.Code, c.Title, strings.Join(sums, ", "))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
