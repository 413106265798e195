package conditions

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/vm/runtime"

	"github.com/hookctl/hookctl/internal/fastpath"
	"github.com/hookctl/hookctl/internal/relit"
)

// The fast path: the checked and optimised syntax tree of a condition is
// turned into a tree of Go closures when every node is of a kind the
// closures know (field access, literals, comparisons, and/or/not, in,
// matches with a constant pattern, contains, startsWith, endsWith). Those
// cover the conditions hooks are written with, and run several times faster
// than the expr virtual machine because nothing is pushed on a stack and no
// instruction is decoded.
//
// The closures give up (ok=false) on anything unusual at run time: a value
// of an unexpected type, an index into something that is not a list, a
// panic. The evaluator then runs the same program on the expr virtual
// machine, so the result, or the error, is always exactly expr's.

// scope is what the closures read: the payload and the state.
type scope struct {
	env   map[string]any
	state map[string]any
	// Field paths a condition reads more than once are read once per
	// evaluation: have marks the slots of vals that hold a value.
	have uint16
	vals [maxSlots]any
	// memo holds the results of shared sub-conditions (atoms) for one
	// payload, across the evaluations of an Evaluator (see Within).
	memo   []atomResult
	memoN  int
	memoOn bool // the payload is the one Within named
}

// An atom is a sub-condition between the logical operators of a
// condition (`tool_name == "Bash"` in `tool_name == "Bash" && !(x in y)`).
// A Compiler interns atoms by their text, so conditions that repeat one
// share it; an atom two or more conditions hold (shared) has its result
// remembered by an Evaluator for the payload in hand, and the next
// condition reads it instead of evaluating it again. Atoms that read state
// are not remembered (state changes between hooks), nor are evaluations
// that gave up (those run on the virtual machine, whole).
type atom struct {
	key    string
	refs   atomic.Int32
	dyn    bool // reads state
	shared atomic.Bool
}

type atomResult struct {
	a *atom
	b bool
}

// maxMemo bounds the atoms an Evaluator remembers for one payload.
const maxMemo = 32

func (s *scope) recall(a *atom) (b, ok bool) {
	for i := range s.memoN {
		if s.memo[i].a == a {
			return s.memo[i].b, true
		}
	}
	return false, false
}

func (s *scope) remember(a *atom, b bool) {
	if s.memoN >= maxMemo {
		return
	}
	if s.memo == nil {
		s.memo = make([]atomResult, maxMemo)
	}
	s.memo[s.memoN] = atomResult{a, b}
	s.memoN++
}

const maxSlots = 16

// envName is expr's name of the whole environment.
const envName = "$env"

// fastCompiler compiles one condition.
type fastCompiler struct {
	seen  map[string]int // how often each field path occurs
	slots map[string]int // the cache slot of each path read twice or more
	// intern returns the atom of a sub-condition's text (nil: no sharing).
	intern func(key string, dyn bool) *atom
	off    fastpath.Set // the optimisations turned off
}

// countMembers counts the field paths of a tree.
func countMembers(n ast.Node, seen map[string]int) {
	ast.Find(n, func(x ast.Node) bool {
		if m, ok := x.(*ast.MemberNode); ok {
			seen[m.String()]++
		}
		return false
	})
}

type valueFn func(s *scope) (v any, ok bool)

type boolFn func(s *scope) (b bool, ok bool)

// compileFast returns the fast evaluator of a tree, or nil when a node is
// not supported.
func compileFast(n ast.Node, intern func(string, bool) *atom, off fastpath.Set) boolFn {
	c := &fastCompiler{slots: map[string]int{}, seen: map[string]int{}, intern: intern, off: off}
	countMembers(n, c.seen)
	v := c.value(n)
	if v == nil {
		return nil
	}
	return func(s *scope) (bool, bool) {
		x, ok := v(s)
		if !ok {
			return false, false
		}
		switch b := x.(type) {
		case bool:
			return b, true
		case nil:
			return false, true
		}
		return false, false
	}
}

// operand compiles an operand of a logical operator: a logical node as
// such, anything else as an atom.
func (c *fastCompiler) operand(n ast.Node) boolFn {
	if isLogical(n) || c.intern == nil {
		return c.boolean(n)
	}
	f := c.boolean(n)
	if f == nil {
		return nil
	}
	a := c.intern(n.String(), readsState(n))
	if a == nil || a.dyn {
		return f
	}
	return func(s *scope) (bool, bool) {
		if !s.memoOn || !a.shared.Load() {
			return f(s)
		}
		if b, ok := s.recall(a); ok {
			return b, true
		}
		b, ok := f(s)
		if ok {
			s.remember(a, b)
		}
		return b, ok
	}
}

func isLogical(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.BinaryNode:
		switch n.Operator {
		case "and", "&&", "or", "||":
			return true
		}
	case *ast.UnaryNode:
		return n.Operator == "not" || n.Operator == "!"
	}
	return false
}

// readsState reports whether a tree names state.
func readsState(n ast.Node) bool {
	return ast.Find(n, func(x ast.Node) bool {
		id, ok := x.(*ast.IdentifierNode)
		return ok && id.Value == StateName
	}) != nil
}

// fastBool compiles a node whose value must be a bool.
func (c *fastCompiler) boolean(n ast.Node) boolFn {
	switch n := n.(type) {
	case *ast.BoolNode:
		b := n.Value
		return func(*scope) (bool, bool) { return b, true }
	case *ast.UnaryNode:
		if n.Operator != "not" && n.Operator != "!" {
			return nil
		}
		in := c.operand(n.Node)
		if in == nil {
			return nil
		}
		return func(s *scope) (bool, bool) {
			b, ok := in(s)
			return !b, ok
		}
	case *ast.BinaryNode:
		return c.binary(n)
	}
	v := c.value(n)
	if v == nil {
		return nil
	}
	return func(s *scope) (bool, bool) {
		x, ok := v(s)
		b, isBool := x.(bool)
		return b, ok && isBool
	}
}

func (c *fastCompiler) value(n ast.Node) valueFn {
	switch n := n.(type) {
	case *ast.NilNode:
		return func(*scope) (any, bool) { return nil, true }
	case *ast.StringNode:
		var v any = n.Value
		return func(*scope) (any, bool) { return v, true }
	case *ast.IntegerNode:
		var v any = n.Value
		return func(*scope) (any, bool) { return v, true }
	case *ast.FloatNode:
		var v any = n.Value
		return func(*scope) (any, bool) { return v, true }
	case *ast.BoolNode, *ast.UnaryNode, *ast.BinaryNode:
		b := c.boolean(n)
		if b == nil {
			return nil
		}
		return func(s *scope) (any, bool) {
			x, ok := b(s)
			return x, ok
		}
	case *ast.ConstantNode:
		v := n.Value
		return func(*scope) (any, bool) { return v, true }
	case *ast.IdentifierNode:
		name := n.Value
		if name == envName {
			// The whole environment (payload and state): the virtual
			// machine's business.
			return nil
		}
		if name == StateName {
			return func(s *scope) (any, bool) {
				if s.state == nil {
					return nil, false
				}
				return s.state, true
			}
		}
		return func(s *scope) (any, bool) { return s.env[name], true }
	case *ast.ChainNode:
		return c.value(n.Node)
	case *ast.MemberNode:
		get := c.member(n)
		path := n.String()
		if get == nil || c.seen[path] < 2 || c.off.Has(fastpath.CondFieldCache) {
			return get
		}
		slot, ok := c.slots[path]
		if !ok {
			if len(c.slots) == maxSlots {
				return get
			}
			slot = len(c.slots)
			c.slots[path] = slot
		}
		bit := uint16(1) << slot
		return func(s *scope) (any, bool) {
			if s.have&bit != 0 {
				return s.vals[slot], true
			}
			v, ok := get(s)
			if ok {
				s.vals[slot], s.have = v, s.have|bit
			}
			return v, ok
		}
	}
	return nil
}

// fastMember compiles a field access (a.b, a["b"], a[0]). A nil object
// yields nil only for optional (nil-safe) access, as expr does inside a
// chain.
func (c *fastCompiler) member(n *ast.MemberNode) valueFn {
	obj := c.value(n.Node)
	if obj == nil {
		return nil
	}
	optional := n.Optional
	switch p := n.Property.(type) {
	case *ast.StringNode:
		key := p.Value
		return func(s *scope) (any, bool) {
			o, ok := obj(s)
			if !ok {
				return nil, false
			}
			switch m := o.(type) {
			case map[string]any:
				return m[key], true
			case nil:
				return nil, optional
			}
			return nil, false
		}
	case *ast.IntegerNode:
		idx := p.Value
		return func(s *scope) (any, bool) {
			o, ok := obj(s)
			if !ok {
				return nil, false
			}
			switch l := o.(type) {
			case []any:
				i := idx
				if i < 0 {
					i += len(l)
				}
				if i < 0 || i >= len(l) {
					return nil, false
				}
				return l[i], true
			case nil:
				return nil, optional
			}
			return nil, false
		}
	}
	return nil
}

func (c *fastCompiler) binary(n *ast.BinaryNode) boolFn {
	switch n.Operator {
	case "and", "&&", "or", "||":
		l, r := c.operand(n.Left), c.operand(n.Right)
		if l == nil || r == nil {
			return nil
		}
		if n.Operator == "and" || n.Operator == "&&" {
			return func(s *scope) (bool, bool) {
				a, ok := l(s)
				if !ok || !a {
					return false, ok
				}
				return r(s)
			}
		}
		return func(s *scope) (bool, bool) {
			a, ok := l(s)
			if !ok || a {
				return a, ok
			}
			return r(s)
		}
	case "matches":
		lit, isLit := n.Right.(*ast.StringNode)
		l := c.value(n.Left)
		if !isLit || l == nil {
			return nil
		}
		var match func(string) bool
		if !c.off.Has(fastpath.CondLiterals) {
			match = literalMatcher(lit.Value)
		}
		if match == nil {
			re, err := regexp.Compile(lit.Value)
			if err != nil {
				return nil
			}
			match = re.MatchString
			if !c.off.Has(fastpath.CondPrefilter) {
				match = relit.Matcher(re)
			}
		}
		return func(s *scope) (bool, bool) {
			a, ok := l(s)
			if !ok {
				return false, false
			}
			switch x := a.(type) {
			case string:
				return match(x), true
			case nil:
				return false, true
			}
			return false, false
		}
	case "contains", "startsWith", "endsWith":
		l, r := c.value(n.Left), c.value(n.Right)
		if l == nil || r == nil {
			return nil
		}
		var f func(string, string) bool
		switch n.Operator {
		case "contains":
			f = strings.Contains
		case "startsWith":
			f = strings.HasPrefix
		default:
			f = strings.HasSuffix
		}
		return func(s *scope) (bool, bool) {
			a, ok1 := l(s)
			b, ok2 := r(s)
			if !ok1 || !ok2 {
				return false, false
			}
			as, aok := a.(string)
			bs, bok := b.(string)
			if aok && bok {
				return f(as, bs), true
			}
			if a == nil || b == nil {
				return false, true
			}
			return false, false
		}
	case "==", "!=":
		l, r := c.value(n.Left), c.value(n.Right)
		if l == nil || r == nil {
			return nil
		}
		neg := n.Operator == "!="
		return func(s *scope) (bool, bool) {
			a, ok1 := l(s)
			b, ok2 := r(s)
			if !ok1 || !ok2 {
				return false, false
			}
			if as, ok := a.(string); ok {
				if bs, ok := b.(string); ok {
					return (as == bs) != neg, true
				}
			}
			eq, ok := safeEqual(a, b)
			return eq != neg, ok
		}
	case "<", ">", "<=", ">=":
		l, r := c.value(n.Left), c.value(n.Right)
		if l == nil || r == nil {
			return nil
		}
		op := n.Operator
		return func(s *scope) (bool, bool) {
			a, ok1 := l(s)
			b, ok2 := r(s)
			if !ok1 || !ok2 {
				return false, false
			}
			return compareNumbers(op, a, b)
		}
	case "in":
		l := c.value(n.Left)
		if l == nil {
			return nil
		}
		if c, ok := n.Right.(*ast.ConstantNode); ok {
			if set, ok := c.Value.(map[string]struct{}); ok {
				return func(s *scope) (bool, bool) {
					a, ok := l(s)
					if !ok {
						return false, false
					}
					if str, isStr := a.(string); isStr {
						_, in := set[str]
						return in, true
					}
					return safeIn(a, set)
				}
			}
		}
		r := c.value(n.Right)
		if r == nil {
			return nil
		}
		return func(s *scope) (bool, bool) {
			a, ok1 := l(s)
			b, ok2 := r(s)
			if !ok1 || !ok2 {
				return false, false
			}
			return safeIn(a, b)
		}
	}
	return nil
}

// literalMatcher turns a pattern that is a plain literal, or a literal
// anchored at the start or end, into a string function, which is several
// times faster than running the regexp.
func literalMatcher(pattern string) func(string) bool {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil
	}
	re = re.Simplify()
	lit := func(r *syntax.Regexp) (string, bool) {
		if r.Op != syntax.OpLiteral || r.Flags&syntax.FoldCase != 0 {
			return "", false
		}
		if slices.Contains(r.Rune, utf8.RuneError) {
			// The regexp reads each invalid byte of the subject as
			// U+FFFD; a substring search would not.
			return "", false
		}
		return string(r.Rune), true
	}
	if s, ok := lit(re); ok {
		return func(x string) bool { return strings.Contains(x, s) }
	}
	if re.Op != syntax.OpConcat || len(re.Sub) != 2 {
		return nil
	}
	if re.Sub[0].Op == syntax.OpBeginText {
		if s, ok := lit(re.Sub[1]); ok {
			return func(x string) bool { return strings.HasPrefix(x, s) }
		}
	}
	if re.Sub[1].Op == syntax.OpEndText {
		if s, ok := lit(re.Sub[0]); ok {
			return func(x string) bool { return strings.HasSuffix(x, s) }
		}
	}
	return nil
}

func safeEqual(a, b any) (eq bool, ok bool) {
	defer func() {
		if recover() != nil {
			eq, ok = false, false
		}
	}()
	return runtime.Equal(a, b), true
}

func safeIn(a, b any) (in bool, ok bool) {
	defer func() {
		if recover() != nil {
			in, ok = false, false
		}
	}()
	return runtime.In(a, b), true
}

// compareNumbers orders ints and floats like expr does; anything else goes
// to the virtual machine.
func compareNumbers(op string, a, b any) (bool, bool) {
	if i, ok := a.(int); ok {
		if j, ok := b.(int); ok {
			switch op {
			case "<":
				return i < j, true
			case ">":
				return i > j, true
			case "<=":
				return i <= j, true
			}
			return i >= j, true
		}
	}
	x, ok1 := toFloat(a)
	y, ok2 := toFloat(b)
	if !ok1 || !ok2 {
		return false, false
	}
	switch op {
	case "<":
		return x < y, true
	case ">":
		return x > y, true
	case "<=":
		return x <= y, true
	}
	return x >= y, true
}

func toFloat(v any) (float64, bool) {
	switch n := v.(type) {
	case int:
		if n > 1<<53 || n < -(1<<53) {
			return 0, false
		}
		return float64(n), true
	case float64:
		return n, true
	case int64:
		if n > 1<<53 || n < -(1<<53) {
			return 0, false
		}
		return float64(n), true
	}
	return 0, false
}
