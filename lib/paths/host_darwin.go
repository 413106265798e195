//go:build darwin

package paths

// hostRules are the rules of the system hookctl runs on: macOS's default
// volumes ignore case and Unicode normalisation.
const hostRules = Darwin
