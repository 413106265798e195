package schema

// The tool_input of each tool hookctl knows, by Claude Code's name. Other
// hosts' tools are mapped onto these by the canonical vocabulary
// (engine.CanonicalTool), so each input also lists, as optional, the
// arguments those hosts send under that name (Gemini CLI's directory,
// Codex's workdir, Copilot CLI's path): a hook matching Bash runs on their
// shell calls too. An input whose arguments are not all known is Open.

func str(name, doc string) Field  { return Field{Name: name, Type: String, Doc: doc} }
func num(name, doc string) Field  { return Field{Name: name, Type: Number, Doc: doc} }
func boo(name, doc string) Field  { return Field{Name: name, Type: Boolean, Doc: doc} }
func anyf(name, doc string) Field { return Field{Name: name, Type: Any, Doc: doc} }

// opt makes fields optional.
func opt(fs ...Field) []Field {
	for i := range fs {
		fs[i].Optional = true
	}
	return fs
}

func input(fs ...[]Field) Field {
	var all []Field
	for _, f := range fs {
		all = append(all, f...)
	}
	return Field{Name: ToolInputField, Type: Object, Fields: all}
}

func open(f Field) Field { f.Open = true; return f }

// edit is one replacement of MultiEdit's edits.
var edit = Field{Type: Object, Fields: []Field{
	str("old_string", "The text to replace."), str("new_string", "Its replacement."),
	{Name: "replace_all", Type: Boolean, Optional: true},
}}

var tools = map[string]Field{
	"Bash": input(
		[]Field{str("command", "The shell command line.")},
		opt(str("description", "What the command does, in a few words."),
			num("timeout", "Milliseconds."),
			boo("run_in_background", ""),
			boo("dangerouslyDisableSandbox", "")),
		// Other hosts' shell tools.
		opt(str("directory", "Gemini CLI (before dir_path): the directory to run in."),
			str("dir_path", "Gemini CLI run_shell_command: the directory to run in."),
			num("delay_ms", "Gemini CLI run_shell_command."),
			anyf("additional_permissions", "Gemini CLI run_shell_command, Codex exec_command and shell_command: the extra sandbox access asked for."),
			anyf("workdir", "Codex: the directory to run in."),
			num("timeout_ms", "Codex."),
			anyf("cmd", "Codex exec_command: the command."),
			boo("tty", "Codex exec_command."),
			num("yield_time_ms", "Codex exec_command."),
			num("max_output_tokens", "Codex exec_command."),
			str("shell", "Codex exec_command: the shell binary."),
			boo("login", "Codex exec_command and shell_command."),
			str("sandbox_permissions", "Codex: use_default, require_escalated or with_additional_permissions."),
			anyf("prefix_rule", "Codex: the command prefix an approval would cover."),
			boo("with_escalated_permissions", "Codex."),
			str("justification", "Codex."),
			boo("is_background", "Gemini CLI run_shell_command, Cursor."),
			str("explanation", "Cursor."),
			boo("async", "Copilot CLI."),
			str("sessionId", "Copilot CLI."),
			str("mode", "Copilot CLI."),
			anyf("initial_wait", "Copilot CLI."))),
	"PowerShell": open(input(
		[]Field{str("command", "The PowerShell command line.")},
		opt(str("description", ""), num("timeout", "Milliseconds."), boo("run_in_background", "")))),
	"Write": input(
		[]Field{str("file_path", "The absolute path of the file."), str("content", "The whole new content.")},
		opt(str("path", "Copilot CLI create."), str("file_text", "Copilot CLI create."),
			str("command", "Codex apply_patch (matched as Write too): the patch text."),
			str("input", "Codex apply_patch (matched as Write too): the patch text."))),
	"Edit": input(
		[]Field{str("file_path", "The absolute path of the file."), str("old_string", "The text to replace."), str("new_string", "Its replacement.")},
		opt(boo("replace_all", "Replace every occurrence.")),
		opt(Field{Name: "edits", Type: Array, Elem: &edit, Doc: "MultiEdit (and crush's multiedit): the replacements."},
			str("command", "Codex apply_patch: the patch text."),
			str("input", "Codex apply_patch."),
			str("path", "Copilot CLI str_replace."), str("old_str", "Copilot CLI."), str("new_str", "Copilot CLI."),
			num("expected_replacements", "Gemini CLI replace."), str("instruction", "Gemini CLI replace."),
			boo("allow_multiple", "Gemini CLI replace."),
			str("target_file", "Cursor edit_file."), str("instructions", "Cursor edit_file."), str("code_edit", "Cursor edit_file."))),
	"MultiEdit": input(
		[]Field{str("file_path", "The absolute path of the file."),
			{Name: "edits", Type: Array, Elem: &edit, Doc: "The replacements, applied in order."}}),
	"Read": input(
		[]Field{str("file_path", "The absolute path of the file.")},
		opt(num("offset", "The first line to read."), num("limit", "How many lines."), str("pages", "PDF pages.")),
		opt(str("absolute_path", "Gemini CLI read_file."), str("path", "Copilot CLI view."),
			Field{Name: "paths", Type: Array, Elem: &Field{Type: String}, Doc: "Gemini CLI read_many_files."},
			anyf("include", "Gemini CLI read_many_files."), anyf("exclude", "Gemini CLI read_many_files."),
			num("start_line", "Gemini CLI read_file."), num("end_line", "Gemini CLI read_file."),
			boo("recursive", "Gemini CLI read_many_files."), boo("useDefaultExcludes", "Gemini CLI read_many_files."),
			anyf("file_filtering_options", "Gemini CLI read_many_files."),
			anyf("view_range", "Copilot CLI view."), str("target_file", "Cursor read_file."),
			boo("should_read_entire_file", "Cursor."), num("start_line_one_indexed", "Cursor."),
			num("end_line_one_indexed_inclusive", "Cursor."))),
	"Glob": input(
		[]Field{str("pattern", "The glob pattern.")},
		opt(str("path", "The directory to search.")),
		opt(boo("case_sensitive", "Gemini CLI."), boo("respect_git_ignore", "Gemini CLI."),
			str("dir_path", "Gemini CLI glob: the directory to search."), boo("respect_gemini_ignore", "Gemini CLI."),
			str("query", "Cursor file_search."), str("explanation", "Cursor."))),
	"Grep": input(
		[]Field{str("pattern", "The regular expression.")},
		opt(str("path", "The file or directory to search."), str("glob", "Files to search."),
			str("output_mode", `"content", "files_with_matches" or "count".`),
			num("-A", ""), num("-B", ""), num("-C", ""), num("context", ""), boo("-n", ""), boo("-i", ""),
			str("type", "File type."), num("head_limit", ""), num("offset", ""), boo("multiline", "")),
		opt(str("include", "Gemini CLI, crush."), boo("literal_text", "crush."),
			str("dir_path", "Gemini CLI grep_search: the directory to search."),
			boo("names_only", "Gemini CLI."), num("max_matches_per_file", "Gemini CLI."), num("total_max_matches", "Gemini CLI."),
			boo("fixed_strings", "Gemini CLI."), num("after", "Gemini CLI."), num("before", "Gemini CLI."), boo("no_ignore", "Gemini CLI."),
			str("query", "Cursor."), str("include_pattern", "Cursor."), str("exclude_pattern", "Cursor."),
			boo("case_sensitive", "Cursor."), anyf("target_directories", "Cursor codebase_search."),
			str("explanation", "Cursor."))),
	"LS": open(input(
		[]Field{str("path", "The directory.")},
		opt(anyf("ignore", "Globs to leave out."),
			str("dir_path", "Gemini CLI list_directory: the directory."),
			anyf("file_filtering_options", "Gemini CLI list_directory.")))),
	"WebFetch": input(
		[]Field{str("url", "The URL.")},
		opt(str("prompt", "What to extract from the page.")),
		opt(str("format", "crush fetch."), num("timeout", "crush fetch."), str("file_path", "crush download."))),
	"WebSearch": input(
		[]Field{str("query", "The search query.")},
		opt(Field{Name: "allowed_domains", Type: Array, Elem: &Field{Type: String}},
			Field{Name: "blocked_domains", Type: Array, Elem: &Field{Type: String}})),
	"Agent": open(input(
		[]Field{str("description", "A short description of the task."), str("prompt", "The task.")},
		opt(str("subagent_type", "The kind of agent."), str("model", ""), boo("run_in_background", ""),
			str("name", ""), str("team_name", ""), str("mode", ""), str("isolation", "")))),
	"NotebookEdit": input(
		[]Field{str("notebook_path", "The absolute path of the notebook."), str("new_source", "The cell's new source.")},
		opt(str("cell_id", ""), Field{Name: "cell_type", Type: String, TS: `"code" | "markdown"`},
			Field{Name: "edit_mode", Type: String, TS: `"replace" | "insert" | "delete"`})),
	"TodoWrite": input(
		[]Field{{Name: "todos", Type: Array, Elem: &Field{Type: Object, Open: true, Fields: []Field{
			str("content", ""), {Name: "status", Type: String, TS: `"pending" | "in_progress" | "completed"`},
			{Name: "activeForm", Type: String, Optional: true}, {Name: "id", Type: String, Optional: true},
			{Name: "priority", Type: String, Optional: true},
		}}}}),
}
