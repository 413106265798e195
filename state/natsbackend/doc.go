// Package natsbackend opens package state's NATS backend with package
// natsstate: state.WithNATS(natsbackend.Opener()). It is apart from
// package state so that a program keeping its state in memory or in a
// file does not link the NATS client.
package natsbackend
