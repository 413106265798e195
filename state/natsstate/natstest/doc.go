// Package natstest runs in-process nats-servers with JetStream for tests:
// one on 127.0.0.1, its store in a directory of the test's, that can be
// stopped and started again on the same port with the same store (an
// outage), alone or as a node of a cluster. The package is meant for
// tests only.
package natstest
