package metricstest_test

import (
	"fmt"
	"strings"

	"github.com/hookctl/hookctl/metrics/metricstest"
)

func ExampleFamilies_Value() {
	fams, err := metricstest.Parse(strings.NewReader(`# TYPE hookctl_fires_total counter
hookctl_fires_total{event="PreToolUse",decision="deny"} 3
hookctl_fires_total{event="Stop",decision="none"} 1
`))
	if err != nil {
		panic(err)
	}
	v, ok := fams.Value("hookctl_fires_total", "event", "PreToolUse", "decision", "deny")
	fmt.Println(v, ok, fams.Series("hookctl_fires_total"))
	// Output: 3 true 2
}
