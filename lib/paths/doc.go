// Package paths holds the path helpers hook authors need to judge file
// paths an agent wants to touch: normalising, expanding ~ and $HOME,
// resolving against the agent's working directory, testing whether a path
// is inside a root, and glob matching with ** (gitignore-style patterns).
//
// They back the hookctl/path JavaScript module, the path functions of
// `when` conditions and the built-in hooks. Every function is pure and safe
// for concurrent use; none touches the filesystem except Real.
//
// The functions read paths as the system hookctl runs on does; a System
// (Unix, Windows, Darwin) reads them as that system does, to judge
// another system's paths (a test of the Windows rules on Linux). Windows
// and Darwin (macOS's default volumes) compare names regardless of case,
// Darwin regardless of Unicode normalisation too (System.Fold).
package paths
