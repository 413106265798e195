// Package suggest finds the "did you mean" for a misspelt name.
package suggest

import "strings"

// Closest returns the candidate nearest to name, ignoring case, within an
// edit distance of 3; ties go to the smaller name. It returns "" when none
// is that close.
func Closest(name string, candidates []string) string {
	return Within(name, candidates, 3)
}

// Within returns the candidate nearest to name, ignoring case, within an
// edit distance of limit; ties go to the smaller name. It returns "" when
// none is that close.
func Within(name string, candidates []string, limit int) string {
	best, bestD := "", limit+1
	ln := strings.ToLower(name)
	for _, c := range candidates {
		if d := distance(ln, strings.ToLower(c)); d < bestD || d == bestD && c < best {
			best, bestD = c, d
		}
	}
	return best
}

// distance is the Levenshtein distance between a and b.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
