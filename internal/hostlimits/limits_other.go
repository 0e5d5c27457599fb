//go:build !linux

package hostlimits

func read() Limits {
	return Limits{TasksInUse: -1, OwnThreads: -1, OpenFiles: openFiles()}
}

func readMemory() Limits { return Limits{TasksInUse: -1, OwnThreads: -1} }
