package shell

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// maxDepth bounds how many script layers (bash -c, eval, here-documents fed
// to a shell, ...) are parsed inside one another. A deeper script is
// reported as the command that runs it, without looking inside.
const maxDepth = 16

// maxNest bounds how deeply command and process substitutions may nest
// inside one another. Each level costs the length of the text it holds, so
// a line of thousands of nested $( took seconds to walk, and a megabyte
// hours; a deeper line is not parsed (Parse fails with ErrTooDeep, and
// Commands falls back to its conservative tokenizer).
const maxNest = 64

// walker flattens syntax trees into segments. It is used for one call of
// Parse or Commands and collects its results in segs.
type walker struct {
	segs    []Segment
	tooDeep bool // a list nested deeper than maxNest was met
	steps   int  // Chdir steps made so far, for their ids
	// funcs holds, for each shell function defined so far, the Chdir
	// steps its body may take.
	funcs map[string][]Chdir
}

// frame is the context in which a list of statements is walked.
type frame struct {
	src      string     // the text the current syntax tree was parsed from
	op       string     // how the next segment joins the previous one
	first    *bool      // whether the current list has produced no segment yet
	subshell bool       // whether the list runs in a nested shell
	wrappers []string   // launchers of the enclosing script layers
	assigns  []string   // assignments of the enclosing script layers
	redirs   []Redirect // redirections of enclosing commands
	depth    int        // number of enclosing script layers
	nest     int        // number of enclosing substitutions
	dir      dirState   // the working directory the next command starts in
}

// topFrame returns the frame of a whole command line.
func topFrame(src string) frame {
	return frame{src: src, first: new(true)}
}

// nestedList returns the frame for the body of a command or process
// substitution in fr: a new list in a nested shell, which keeps the
// environment of the enclosing script layers but not their redirections,
// since its output is captured.
func nestedList(fr frame) frame {
	return frame{
		src:      fr.src,
		first:    new(true),
		subshell: true,
		wrappers: fr.wrappers,
		assigns:  fr.assigns,
		depth:    fr.depth,
		nest:     fr.nest + 1,
		dir:      fr.dir,
	}
}

// emit appends seg, completing it from the frame.
func (w *walker) emit(seg Segment, fr frame) {
	seg.Op = fr.op
	if *fr.first {
		seg.Op = ""
		*fr.first = false
	}
	seg.Subshell = seg.Subshell || fr.subshell
	seg.Wrappers = concat(fr.wrappers, seg.Wrappers)
	seg.Assigns = concat(fr.assigns, seg.Assigns)
	seg.Redirects = concat(fr.redirs, seg.Redirects)
	seg.Dirs = fr.dir.export()
	if len(seg.Argv) > 0 {
		seg.Name = baseName(seg.Argv[0])
	}
	w.segs = append(w.segs, seg)
}

// concat returns the concatenation of the slices in a new slice, or nil if
// they are all empty, so that frames never share a backing array.
func concat[T any](parts ...[]T) []T {
	out := slices.Concat(parts...)
	if len(out) == 0 {
		return nil
	}
	return out
}

// stmts walks a list of statements; the first is joined by fr.op and each
// later one by the separator that ended the statement before it. Each
// statement starts in the directories the one before it may have left.
func (w *walker) stmts(list []*syntax.Stmt, fr frame) flow {
	if fr.nest > maxNest || w.tooDeep {
		w.tooDeep = true
		return same(fr.dir)
	}
	out := same(fr.dir)
	for i, st := range list {
		if i > 0 {
			fr.op = separator(list[i-1])
			fr.dir = out.any()
		}
		out = w.stmt(st, fr)
	}
	return out
}

// separator returns the operator that ended st in a statement list.
func separator(st *syntax.Stmt) string {
	switch {
	case st.Background:
		return "&"
	case st.Semicolon.IsValid():
		return ";"
	}
	return "\n"
}

// stmt walks one statement and returns the directories it may leave.
func (w *walker) stmt(st *syntax.Stmt, fr frame) flow {
	if st == nil {
		return same(fr.dir)
	}
	out := w.stmtCmd(st, fr)
	switch {
	case st.Background:
		// A background command runs in a subshell.
		return same(fr.dir)
	case st.Negated:
		out.ok, out.fail = out.fail, out.ok
	}
	return out
}

// stmtCmd walks the command of a statement.
func (w *walker) stmtCmd(st *syntax.Stmt, fr frame) flow {
	out := same(fr.dir)
	redirs := make([]Redirect, 0, len(st.Redirs))
	for _, r := range st.Redirs {
		redirs = append(redirs, redirect(r, fr.src))
	}
	switch cmd := st.Cmd.(type) {
	case nil:
		if len(redirs) > 0 {
			w.emit(Segment{Redirects: redirs}, fr)
		}
	case *syntax.CallExpr:
		return w.callExpr(cmd, st, redirs, fr)
	case *syntax.DeclClause:
		argv := []string{litValue(cmd.Variant)}
		for _, a := range cmd.Args {
			argv = append(argv, assignText(a, fr.src))
		}
		w.emit(Segment{Argv: argv, Redirects: redirs}, fr)
		for _, a := range cmd.Args {
			w.substs(a, fr)
		}
	case *syntax.LetClause:
		argv := []string{"let"}
		for _, e := range cmd.Exprs {
			if word, ok := e.(*syntax.Word); ok {
				argv = append(argv, wordText(word, fr.src))
			} else {
				argv = append(argv, nodeText(e, fr.src))
			}
		}
		w.emit(Segment{Argv: argv, Redirects: redirs}, fr)
		w.substs(cmd, fr)
	default:
		inner := fr
		inner.redirs = concat(fr.redirs, redirs)
		out = w.compound(cmd, inner)
	}
	for _, r := range st.Redirs {
		w.substs(r, fr)
	}
	return out
}

// compound walks a compound command; the redirections of its statement are
// already in fr. It returns the directories the command may leave.
func (w *walker) compound(cmd syntax.Command, fr frame) flow {
	in := fr.dir
	switch c := cmd.(type) {
	case *syntax.Block:
		return w.stmts(c.Stmts, fr)
	case *syntax.Subshell:
		fr.subshell = true
		w.stmts(c.Stmts, fr)
	case *syntax.BinaryCmd:
		switch c.Op {
		case syntax.AndStmt:
			x := w.stmt(c.X, fr)
			fr.op = c.Op.String()
			fr.dir = x.ok
			y := w.stmt(c.Y, fr)
			return flow{ok: y.ok, fail: union(x.fail, y.fail)}
		case syntax.OrStmt:
			x := w.stmt(c.X, fr)
			fr.op = c.Op.String()
			fr.dir = x.fail
			y := w.stmt(c.Y, fr)
			return flow{ok: union(x.ok, y.ok), fail: y.fail}
		}
		// Each command of a pipeline runs in a subshell.
		w.stmt(c.X, fr)
		fr.op = c.Op.String()
		w.stmt(c.Y, fr)
	case *syntax.IfClause:
		out := in
		for ; c != nil; c = c.Else {
			cond := w.stmts(c.Cond, fr)
			if len(c.Cond) > 0 {
				fr.op = ";"
			}
			fr.dir = cond.ok
			out = union(out, cond.fail, w.stmts(c.Then, fr).any())
			fr.op = ";"
			fr.dir = cond.fail
		}
		return same(out)
	case *syntax.WhileClause:
		cond := w.stmts(c.Cond, fr)
		fr.op = ";"
		fr.dir = cond.any()
		return same(union(in, cond.any(), w.stmts(c.Do, fr).any()))
	case *syntax.ForClause:
		w.substs(c.Loop, fr)
		if wi, ok := c.Loop.(*syntax.WordIter); ok && wi.Name != nil {
			// The body sees the variable set to each item in turn; with
			// no items (for a; do), each positional parameter.
			var items []string
			for _, item := range wi.Items {
				items = append(items, wi.Name.Value+"="+wordText(item, fr.src))
			}
			if !wi.InPos.IsValid() && len(wi.Items) == 0 {
				items = append(items, wi.Name.Value+"=$@")
			}
			fr.assigns = concat(fr.assigns, items)
		}
		return same(union(in, w.stmts(c.Do, fr).any()))
	case *syntax.CaseClause:
		w.substs(c.Word, fr)
		out := in
		for i, item := range c.Items {
			for _, p := range item.Patterns {
				w.substs(p, fr)
			}
			if i > 0 {
				fr.op = ";"
			}
			out = union(out, w.stmts(item.Stmts, fr).any())
		}
		return same(out)
	case *syntax.FuncDecl:
		body := w.stmt(c.Body, fr).any()
		if name := litValue(c.Name); name != "" {
			if w.funcs == nil {
				w.funcs = make(map[string][]Chdir)
			}
			w.funcs[name] = body.after(in)
		}
	case *syntax.TestDecl:
		w.substs(c.Description, fr)
		w.stmt(c.Body, fr)
	case *syntax.TimeClause:
		if c.Stmt == nil {
			argv := []string{"time"}
			if c.PosixFormat {
				argv = append(argv, "-p")
			}
			w.emit(Segment{Argv: argv}, fr)
			return same(in)
		}
		fr.wrappers = concat(fr.wrappers, []string{"time"})
		return w.stmt(c.Stmt, fr)
	case *syntax.CoprocClause:
		fr.subshell = true
		w.stmt(c.Stmt, fr)
	case *syntax.ArithmCmd, *syntax.TestClause:
		w.substs(c, fr)
	}
	return same(in)
}

// callExpr walks a simple command: the command substitutions in its
// assignments, then the command itself (unwrapped), then the substitutions
// in its arguments and redirections that were not taken as a script.
func (w *walker) callExpr(c *syntax.CallExpr, st *syntax.Stmt, redirs []Redirect, fr frame) flow {
	var assigns []string
	for _, a := range c.Assigns {
		assigns = append(assigns, assignText(a, fr.src))
		w.substs(a, fr)
	}
	argv := make([]arg, len(c.Args))
	for i, word := range c.Args {
		argv[i] = arg{text: wordText(word, fr.src), word: i, lit: literalWord(word)}
	}
	in := stdinDoc(st.Redirs, fr.src)
	used := w.command(argv, assigns, redirs, in, fr)
	for i, word := range c.Args {
		if !slices.Contains(used.words, i) {
			w.substs(word, fr)
		}
	}
	for i, r := range st.Redirs {
		if used.stdin && i == in.index {
			continue
		}
		w.substs(r, fr)
	}
	return used.flow
}

// heredoc is a here-document or here-string that feeds a command's
// standard input.
type heredoc struct {
	index int    // the index of its redirection in the statement
	text  string // its body, or the here-string
}

// heredocText returns the body of a here-document as a shell reading it
// as a script would see it. Expansions in an unquoted body are kept as
// source text, to be found when the body is parsed, and its backslashes
// that quote $, `, \ and newline are removed, as the shell removes them:
// "\$HOME" in the body is "$HOME" in the document, which a shell reading
// it expands. A body whose delimiter is quoted (literal) is kept as is.
func heredocText(body *syntax.Word, literal bool, src string) string {
	if body == nil {
		return ""
	}
	var b strings.Builder
	for _, part := range body.Parts {
		if lit, ok := part.(*syntax.Lit); ok {
			if literal {
				b.WriteString(lit.Value)
			} else {
				b.WriteString(unescapeHeredoc(lit.Value))
			}
		} else {
			b.WriteString(nodeText(part, src))
		}
	}
	return b.String()
}

// stdinDoc returns the here-document or here-string that the last
// redirection of standard input supplies, or nil if standard input is not
// redirected to one.
func stdinDoc(redirs []*syntax.Redirect, src string) *heredoc {
	var doc *heredoc
	for i, r := range redirs {
		if r.N != nil && r.N.Value != "0" {
			continue
		}
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			doc = &heredoc{index: i, text: heredocText(r.Hdoc, quotedWord(r.Word), src)}
		case syntax.WordHdoc:
			doc = &heredoc{index: i, text: wordText(r.Word, src)}
		case syntax.RdrIn, syntax.RdrInOut, syntax.DplIn:
			doc = nil
		}
	}
	return doc
}

// consumed tells which parts of a command were taken as a script to parse,
// so that they are not searched again for command substitutions.
type consumed struct {
	words []int // indexes of argument words
	stdin bool  // the here-document on standard input
	flow  flow  // the directories the command may leave
}

// command reports one simple command given as words, unwrapping launchers
// and parsing any script it runs. redirs are the command's own
// redirections and in is the here-document on its standard input, if any.
func (w *walker) command(argv []arg, assigns []string, redirs []Redirect, in *heredoc, fr frame) consumed {
	u := unwrap(argv, in != nil)
	seg := Segment{
		Argv:      texts(u.argv),
		Literal:   literals(u.argv),
		Assigns:   concat(assigns, u.assigns),
		Wrappers:  u.wrappers,
		Launchers: u.launched,
		Redirects: redirs,
	}
	if len(u.argv) > 0 {
		_, seg.Func = w.funcs[u.argv[0].text]
	}
	used := consumed{flow: same(fr.dir)}
	if s := u.script; s != nil && fr.depth < maxDepth {
		text := s.text
		if s.stdin {
			text = in.text
			used.stdin = true
		}
		used.words = s.words
		inner := fr
		inner.subshell = true
		inner.wrappers = concat(fr.wrappers, u.wrappers, []string{s.label})
		inner.assigns = concat(fr.assigns, seg.Assigns)
		inner.redirs = concat(fr.redirs, redirs)
		if s.stdin {
			// The script is read from standard input, which is not
			// redirected for the commands in it.
			inner.redirs = concat(fr.redirs, redirs[:in.index], redirs[in.index+1:])
		}
		inner.depth++
		n := len(w.segs)
		w.script(text, inner)
		if len(w.segs) == n {
			// The script has no command: report the program given it.
			w.emit(seg, fr)
		}
		return used
	}
	w.emit(seg, fr)
	used.flow = w.chdir(seg, fr.assigns, u.wrappers, fr.dir)
	if ta := trapArgs(u.argv); len(ta) > 1 && fr.depth < maxDepth && !strings.HasPrefix(ta[0].text, "-") {
		// trap's first argument (after --) is a script the shell runs
		// later, on a signal or at exit.
		used.words = append(used.words, ta[0].word)
		inner := nestedList(fr)
		inner.wrappers = concat(fr.wrappers, u.wrappers, []string{"trap"})
		inner.assigns = concat(fr.assigns, seg.Assigns)
		inner.depth++
		w.script(ta[0].text, inner)
	}
	if len(u.argv) > 1 && baseName(u.argv[0].text) == "eval" && fr.depth < maxDepth {
		for _, a := range u.argv[1:] {
			used.words = append(used.words, a.word)
		}
		inner := nestedList(fr)
		inner.wrappers = concat(fr.wrappers, u.wrappers, []string{"eval"})
		inner.assigns = concat(fr.assigns, seg.Assigns)
		inner.redirs = concat(fr.redirs, redirs)
		inner.depth++
		// eval runs its script in the current shell: a cd there stays.
		used.flow = w.script(strings.Join(seg.Argv[1:], " "), inner)
	}
	return used
}

// script reports the commands of a script run by a command. A script that
// is not valid bash is split with the conservative tokenizer.
func (w *walker) script(text string, fr frame) flow {
	file, err := parseBash(text)
	if err != nil {
		return w.fallback(text, fr)
	}
	fr.src = text
	return w.stmts(file.Stmts, fr)
}

// substs reports the commands in the command and process substitutions
// found anywhere within node.
func (w *walker) substs(node syntax.Node, fr frame) {
	if isNil(node) {
		return
	}
	syntax.Walk(node, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CmdSubst:
			w.stmts(x.Stmts, nestedList(fr))
			return false
		case *syntax.ProcSubst:
			w.stmts(x.Stmts, nestedList(fr))
			return false
		}
		return true
	})
}

// isNil reports whether node is nil or a typed nil pointer.
func isNil(node syntax.Node) bool {
	switch n := node.(type) {
	case nil:
		return true
	case *syntax.Word:
		return n == nil
	case *syntax.Assign:
		return n == nil
	case *syntax.Redirect:
		return n == nil
	case *syntax.Lit:
		return n == nil
	}
	return false
}

// redirect converts a syntax redirection.
func redirect(r *syntax.Redirect, src string) Redirect {
	out := Redirect{Op: r.Op.String()}
	if r.N != nil {
		out.Fd = r.N.Value
	}
	if r.Word != nil {
		out.Target = wordText(r.Word, src)
	}
	if r.Hdoc != nil {
		out.Literal = quotedWord(r.Word)
		out.Body = heredocText(r.Hdoc, out.Literal, src)
	}
	return out
}

// quotedWord reports whether any part of word is quoted or escaped, which
// for a here-document's delimiter makes its body literal.
func quotedWord(word *syntax.Word) bool {
	if word == nil {
		return false
	}
	for _, part := range word.Parts {
		lit, ok := part.(*syntax.Lit)
		if !ok || strings.Contains(lit.Value, `\`) {
			return true
		}
	}
	return false
}

// assignText renders an assignment as NAME=value, NAME+=value,
// NAME[i]=value or NAME=(elements); a bare name or argument of declare is
// rendered alone.
func assignText(a *syntax.Assign, src string) string {
	var b strings.Builder
	if a.Name != nil {
		b.WriteString(a.Name.Value)
	}
	if a.Index != nil {
		b.WriteString("[" + nodeText(a.Index, src) + "]")
	}
	if a.Naked {
		if a.Name == nil && a.Value != nil {
			b.WriteString(wordText(a.Value, src))
		}
		return b.String()
	}
	if a.Append {
		b.WriteString("+=")
	} else {
		b.WriteString("=")
	}
	switch {
	case a.Array != nil:
		b.WriteString(nodeText(a.Array, src))
	case a.Value != nil:
		b.WriteString(wordText(a.Value, src))
	}
	return b.String()
}

// litValue returns the value of a literal, or "" for nil.
func litValue(l *syntax.Lit) string {
	if l == nil {
		return ""
	}
	return l.Value
}

// trapArgs returns trap's arguments after its name and a "--" ending its
// options, or nil for another command.
func trapArgs(argv []arg) []arg {
	if len(argv) < 2 || baseName(argv[0].text) != "trap" {
		return nil
	}
	if argv[1].text == "--" {
		return argv[2:]
	}
	return argv[1:]
}
