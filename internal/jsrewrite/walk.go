package jsrewrite

import "reflect"

// Walk walks a goja AST (a *ast.Program or any node) in source order,
// calling visit for every node on the way in (enter true; returning false
// skips the node's children) and on the way out.
func Walk(root any, visit func(n any, enter bool) bool) {
	w := walker{fields: map[reflect.Type][]int{}, seen: map[uintptr]bool{}}
	w.walk(reflect.ValueOf(root), visit)
}
