package conditions

// EvalVM evaluates p on the expr virtual machine only, bypassing the fast
// path, for the tests that check both paths agree.
func (e *Evaluator) EvalVM(p *Program, payload map[string]any, state map[string]any) (bool, error) {
	return e.evalVM(p, payload, state)
}
