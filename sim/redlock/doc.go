// Package redlock is the Redlock design: N independent Redis masters (Redis
// servers that never replicate) and clients running go-redsync's Mutex,
// which count a majority of votes and work out the lock's validity
// themselves. Its sim.Mode is the value Mode, which the list of designs
// (package designs) installs at start. Its figures and their sources are in
// redlock.go; ARCHITECTURE.md is the map of the whole program.
package redlock
