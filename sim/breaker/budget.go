// Package breaker searches fault schedules for the smallest one that
// corrupts the data: from a scenario it generates schedules of pauses,
// partitions, clock jumps, crashes and failovers within a budget, runs them
// on every core (deterministically from a seed: the answer does not depend
// on the number of cores), steers towards the runs that came closest to a
// stale write, stops at the first unsafe run, and shrinks that schedule
// until no single step keeps it failing. It is plain Go on top of sim: no
// Fyne, no wall clock inside a run.
package breaker

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/lockscope/lockscope/sim"
)

// The kinds of fault the search may schedule; `--faults` names them as
// the scenario file does.
const (
	KindPause     = sim.FaultPause
	KindPartition = sim.FaultPartition
	KindClockJump = sim.FaultClockJump
	KindCrash     = sim.FaultCrash
	KindFailover  = sim.FaultFailover
)

// Kinds lists every kind the search knows, in the order it reports them.
var Kinds = []sim.FaultKind{KindPause, KindPartition, KindClockJump, KindCrash, KindFailover}

// Budget bounds what the search tries; the zero value of a field means the
// mode's default (DefaultBudget).
type Budget struct {
	Kinds        []sim.FaultKind // kinds of fault a schedule may hold
	MaxFaults    int             // most faults in one schedule
	MaxPause     time.Duration   // longest pause (and longest a crashed server stays down)
	MaxJump      time.Duration   // largest clock jump, either way
	MaxPartition time.Duration   // longest partition
	// SpareStorage leaves the storage node out of every fault: the
	// question is then what the lock service lets through by itself (a
	// write held back on its way to the storage breaks any lock without
	// fencing, Redlock's too).
	SpareStorage bool
	// Monotonic makes every clock jump of the search step the node's
	// monotonic clock too (sim.Fault.Monotonic), and lets it strike the
	// clients as well as the servers: a client measures its timeouts on
	// that clock, which a wall clock's jump never moves, so only then is
	// a client's jump worth trying (kubernetes/kubernetes#125761).
	Monotonic bool
	Runs      int           // most schedules the search runs
	Time      time.Duration // most wall time the search takes; 0: no limit (the window sets one)
}

// DefaultRuns is the search's default budget of schedules.
const DefaultRuns = 10000

// DefaultBudget is the budget a mode starts from: every kind the scenario
// can take, pauses and partitions up to twice its TTL, jumps up to one TTL,
// two faults at a time — three in Redlock, where a majority of masters may
// have to misbehave together.
func DefaultBudget(sc *sim.Scenario) Budget {
	ttl := sc.TTL.D()
	b := Budget{
		Kinds:        availableKinds(sc),
		MaxFaults:    2,
		MaxPause:     2 * ttl,
		MaxJump:      ttl,
		MaxPartition: 2 * ttl,
		Runs:         DefaultRuns,
	}
	if sim.TraitsOf(sc.Mode).ClientQuorum {
		b.MaxFaults = 3
	}
	return b
}

// availableKinds are the kinds the scenario has a target for: a failover
// only where the mode allows one (Redis with a replica).
func availableKinds(sc *sim.Scenario) []sim.FaultKind {
	out := []sim.FaultKind{KindPause, KindPartition, KindClockJump, KindCrash}
	if len(failoverTargets(sc)) > 0 {
		out = append(out, KindFailover)
	}
	return out
}

// failoverTargets lists the servers a failover fault may name.
func failoverTargets(sc *sim.Scenario) []string {
	m, err := sim.LookupMode(sc.Mode)
	if err != nil {
		return nil
	}
	var out []string
	for _, n := range sc.ServerNames() {
		if m.CanFailover(sc, n) == nil {
			out = append(out, n)
		}
	}
	return out
}

// noFailover is the design's own reason a failover fault can name none of
// the scenario's servers ("failover needs a replica"), asked of its first
// server.
func noFailover(sc *sim.Scenario) error {
	m, err := sim.LookupMode(sc.Mode)
	if err != nil {
		return err
	}
	servers := sc.ServerNames()
	if len(servers) == 0 {
		return errors.New("no servers")
	}
	return m.CanFailover(sc, servers[0])
}

// withDefaults fills the zero fields from the mode's defaults.
func (b Budget) withDefaults(sc *sim.Scenario) Budget {
	d := DefaultBudget(sc)
	if len(b.Kinds) == 0 {
		b.Kinds = d.Kinds
	}
	if b.MaxFaults == 0 {
		b.MaxFaults = d.MaxFaults
	}
	if b.MaxPause == 0 {
		b.MaxPause = d.MaxPause
	}
	if b.MaxJump == 0 {
		b.MaxJump = d.MaxJump
	}
	if b.MaxPartition == 0 {
		b.MaxPartition = d.MaxPartition
	}
	if b.Runs == 0 {
		b.Runs = d.Runs
	}
	return b
}

// validate checks the budget against the scenario; the error names the
// flag the command line reads it from.
func (b Budget) validate(sc *sim.Scenario) error {
	for _, k := range b.Kinds {
		if !slices.Contains(Kinds, k) {
			return fmt.Errorf("faults: unknown kind %q (one of %s)", k, sim.JoinFaultKinds(Kinds, ", "))
		}
		if k == KindFailover && len(failoverTargets(sc)) == 0 {
			return fmt.Errorf("faults: %s mode has no failover here (%w)", sc.Mode, noFailover(sc))
		}
	}
	switch {
	case b.MaxFaults < 1 || b.MaxFaults > 10:
		return fmt.Errorf("max-faults: %d, want 1 to 10", b.MaxFaults)
	case b.MaxPause < time.Millisecond || b.MaxPause > sim.MaxDuration:
		return fmt.Errorf("max-pause: %v, want 1ms to %v", b.MaxPause, sim.MaxDuration)
	case b.MaxJump < time.Millisecond || b.MaxJump > sim.MaxDuration:
		return fmt.Errorf("max-jump: %v, want 1ms to %v", b.MaxJump, sim.MaxDuration)
	case b.MaxPartition < time.Millisecond || b.MaxPartition > sim.MaxDuration:
		return fmt.Errorf("max-partition: %v, want 1ms to %v", b.MaxPartition, sim.MaxDuration)
	case b.Runs < 1:
		return fmt.Errorf("runs: %d, want at least 1", b.Runs)
	case b.Time < 0:
		return fmt.Errorf("time: %v is negative", b.Time)
	}
	return nil
}

// ParseKinds reads a comma-separated list of kinds (`pause,clockJump`),
// in any case.
func ParseKinds(s string) ([]sim.FaultKind, error) {
	var out []sim.FaultKind
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		k, ok := sim.ParseFaultKind(name)
		if !ok || !slices.Contains(Kinds, k) {
			return nil, fmt.Errorf("unknown kind %q (one of %s)", name, sim.JoinFaultKinds(Kinds, ", "))
		}
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("want at least one kind (%s)", sim.JoinFaultKinds(Kinds, ", "))
	}
	return out, nil
}
