// Package hclfmt rewrites hookctl configuration files (*.hcl, *_test.hcl)
// in a canonical layout: the layout of `terraform fmt`, as
// github.com/hashicorp/hcl/v2/hclwrite.Format gives it (two-space
// indentation by nesting, one space around operators, the `=` of
// neighbouring attributes aligned, trailing comments aligned), with what
// hclwrite leaves to its caller done here:
//
//   - the body of every heredoc (<<JS ... JS, <<-JS ... JS) is kept byte for
//     byte, its closing marker included: the JavaScript, TypeScript or shell
//     inside it is not re-indented, and the spaces inside its ${ ... }
//     interpolations are not touched either;
//   - the file ends with one line break (none for an empty file), in the
//     style of its first line break (\n or \r\n);
//   - a file that does not parse is refused with its syntax errors and
//     never rewritten.
//
// Formatting changes only white space outside heredocs: comments, blank
// lines between blocks and the order of everything are kept. It is
// idempotent: formatting the result again changes nothing.
package hclfmt
