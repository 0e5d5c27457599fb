//go:build unix

package main

import "github.com/discgen/discgen/tools/hostgen"

var hostileTree = hostgen.Hostile
