module github.com/hookctl/hookctl

go 1.26.8

require (
	github.com/expr-lang/expr v1.17.8
	github.com/panjf2000/ants/v2 v2.12.1
)

require (
	go.uber.org/goleak v1.3.0 // indirect
	golang.org/x/sync v0.11.0 // indirect
)
