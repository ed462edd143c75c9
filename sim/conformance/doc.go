// Package conformance checks the simulated servers of package sim against
// the real ones.
package conformance
