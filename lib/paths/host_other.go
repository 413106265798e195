//go:build !darwin && !windows

package paths

// hostRules are the rules of the system hookctl runs on.
const hostRules = Unix
