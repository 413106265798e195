//go:build !unix

package main

func rawCallSetup(string) {}
