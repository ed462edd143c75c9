package app

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/lockscope/lockscope/sim"
)

// SliderSpec is one scenario parameter a slider edits: how to read it from
// a scenario, how to write it back, its range and how to show its value.
// Tabs list the keys of the sliders that apply to their mode.
type SliderSpec struct {
	Key   string
	Label string
	Tip   string
	Min   float64
	Max   float64
	Step  float64
	// Value reads the parameter; ok is false when the scenario has nothing
	// for the slider to edit (the slider is then disabled).
	Value func(sc *sim.Scenario) (v float64, ok bool)
	// Apply writes the parameter into a copy of the scenario.
	Apply func(sc *sim.Scenario, v float64)
	// Format shows a value beside the slider.
	Format func(v float64) string
}

// ToggleSpec is one on/off scenario parameter.
type ToggleSpec struct {
	Key   string
	Label string
	Tip   string
	Value func(sc *sim.Scenario) bool
	Apply func(sc *sim.Scenario, on bool)
}

func seconds(d sim.Duration) float64 { return d.D().Seconds() }

func fromSeconds(v float64) sim.Duration {
	return sim.Duration(time.Duration(math.Round(v*1000)) * time.Millisecond)
}

// fmtSeconds shows a slider's seconds with no more digits than its step.
func fmtSeconds(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) + " s" }

// pauseLength is the length of the first pause fault, if any.
func pauseLength(sc *sim.Scenario) (time.Duration, bool) {
	for _, f := range sc.Faults {
		if f.Kind() == "pause" {
			return f.For.D(), true
		}
	}
	return 0, false
}

// Sliders is every slider a tab can show, by key.
var Sliders = map[string]SliderSpec{
	"ttl": {
		Key: "ttl", Label: "TTL", Min: 0.5, Max: 60, Step: 0.5,
		Tip: "Lock TTL: the PX of SET lock <value> NX PX <ttl>, counted by the Redis server's own clock. " +
			"Redisson's default lease (lockWatchdogTimeout) is 30 s.",
		Value:  func(sc *sim.Scenario) (float64, bool) { return seconds(sc.TTL), true },
		Apply:  func(sc *sim.Scenario, v float64) { sc.TTL = fromSeconds(v) },
		Format: fmtSeconds,
	},
	"work": {
		Key: "work", Label: "Work", Min: 0, Max: 90, Step: 0.5,
		Tip: "How long a client stays in its critical section before it writes to the shared storage. " +
			"It is execution time: a pause inside it lengthens it.",
		Value:  func(sc *sim.Scenario) (float64, bool) { return seconds(sc.Work), true },
		Apply:  func(sc *sim.Scenario, v float64) { sc.Work = fromSeconds(v) },
		Format: fmtSeconds,
	},
	"pause": {
		Key: "pause", Label: "Pause", Min: 0.5, Max: 60, Step: 0.5,
		Tip: "Length of the scenario's pause faults (a stop-the-world GC pause or SIGSTOP). " +
			"It edits the pauses the scenario has and adds none: when it has none the slider is off — " +
			"click a node in the cluster to add a pause at the cursor.",
		Value: func(sc *sim.Scenario) (float64, bool) {
			d, ok := pauseLength(sc)
			return d.Seconds(), ok
		},
		Apply: func(sc *sim.Scenario, v float64) {
			for i := range sc.Faults {
				if sc.Faults[i].Kind() == "pause" {
					sc.Faults[i].For = fromSeconds(v)
				}
			}
		},
		Format: fmtSeconds,
	},
	"latency": {
		Key: "latency", Label: "Latency", Min: 0, Max: 200, Step: 1,
		Tip: "One-way network latency of every message, plus the scenario's jitter. " +
			"A Redis request with no reply in 3 s (Redisson's default timeout) fails.",
		Value: func(sc *sim.Scenario) (float64, bool) { return sim.Ms(sc.Latency.D()), true },
		Apply: func(sc *sim.Scenario, v float64) {
			sc.Latency = sim.Duration(time.Duration(v * float64(time.Millisecond)))
		},
		Format: func(v float64) string { return fmt.Sprintf("%.0f ms", v) },
	},
	"clients": {
		Key: "clients", Label: "Clients", Min: 1, Max: 12, Step: 1,
		Tip:   "Clients contending for the lock: client-1 … client-N, each starting `stagger` after the previous one.",
		Value: func(sc *sim.Scenario) (float64, bool) { return float64(sc.Clients), true },
		Apply: func(sc *sim.Scenario, v float64) { sc.Clients = int(math.Round(v)) },
		Format: func(v float64) string {
			return fmt.Sprintf("%.0f", v)
		},
	},
}

// Toggles is every toggle a tab can show, by key.
var Toggles = map[string]ToggleSpec{
	"watchdog": {
		Key: "watchdog", Label: "Watchdog",
		Tip: "Redisson's lock watchdog: while the holder runs it renews the key every TTL/3 " +
			"(10 s of the default 30 s lockWatchdogTimeout) with a compare-and-PEXPIRE back to the full TTL, " +
			"and stops when a renewal returns 0. A paused holder's watchdog is paused too.",
		Value: func(sc *sim.Scenario) bool { return sc.Watchdog },
		Apply: func(sc *sim.Scenario, on bool) { sc.Watchdog = on },
	},
	"fencing": {
		Key: "fencing", Label: "Fencing",
		Tip: "Fencing token: every grant also INCRs a counter on the master and the client writes with it; " +
			"the storage refuses a write whose token is lower than the highest it has seen.",
		Value: func(sc *sim.Scenario) bool { return sc.Fencing },
		Apply: func(sc *sim.Scenario, on bool) { sc.Fencing = on },
	},
	"replica": {
		Key: "replica", Label: "Replica",
		Tip: "redis-2 replicates redis-1 asynchronously: each write is shipped after it is applied. " +
			"A failover fault (click redis-1) promotes the replica; writes not yet shipped are lost.",
		Value: func(sc *sim.Scenario) bool { return sc.Replica },
		Apply: func(sc *sim.Scenario, on bool) { sc.Replica = on },
	},
}
