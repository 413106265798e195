package daemonserver

import "testing"

func peerCredOf(testing.TB) peerUID { return soPeerCred }
