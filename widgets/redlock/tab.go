package redlock

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	redlocksim "github.com/lockscope/lockscope/sim/redlock"
	"github.com/lockscope/lockscope/widgets"
	"github.com/lockscope/lockscope/widgets/designtab"
)

// redlockProtocol is Redlock as the scenario runs it — go-redsync's Mutex
// over N independent masters — in two or three short lines: the vote
// tally above it already shows the quorum and the validity arithmetic.
func redlockProtocol(sc *sim.Scenario) []string {
	ttl, n := sc.TTL.D(), redlocksim.Nodes.Of(sc)
	timeout := widgets.ShortTime(redlocksim.Timeout(ttl))
	if wait := redlocksim.Wait(ttl, redlocksim.ContextTimeout.Of(sc)); wait != redlocksim.Timeout(ttl) {
		timeout += i18n.F("redlock.proto.silent", "wait", widgets.ShortTime(wait))
	}
	how := i18n.F("redlock.proto.parallel", "n", n, "timeout", timeout)
	if redlocksim.Sequential.Of(sc) {
		how = i18n.F("redlock.proto.sequential", "n", n, "timeout", timeout)
	}
	d := sc.RetryDelay.D()
	lo, hi := widgets.ShortTime(d/3), widgets.ShortTime(d*5/3)
	if d*5/3 < time.Second {
		lo = strings.TrimSuffix(lo, " ms")
	}
	tries := i18n.T("redlock.proto.untilEnd")
	if sc.Tries > 0 {
		tries = i18n.F("redlock.proto.tries", "n", sc.Tries)
	}
	out := []string{i18n.F("redlock.proto.acquire", "px", ttl.Milliseconds(), "how", how, "lo", lo, "hi", hi, "tries", tries)}
	if redlocksim.Watchdog.Of(sc) {
		out = append(out, i18n.F("redlock.proto.extend", "every", widgets.ShortTime(ttl/3), "n", n))
	}
	return append(out, i18n.T("redlock.proto.noToken"))
}

// Tab is the Redlock tab: its state picture, the preset it opens
// with, its sliders and toggles (the shared ones in designtab with its rules
// for them, its own below) and its protocol lines.
// It is the design's window side, a value: the list of designs (package
// designs) installs it with designtab.Register at start.
var Tab = designtab.ModeTab{
	Mode:       "redlock",
	Title:      "Redlock",
	StateTitle: "state.redlock",
	Preset:     "redlock-clock-jump",
	NewState:   func() designtab.StateView { return NewVoteTally() },
	Sliders: []string{"ttl", "work", "pause", "latency", "clients",
		redlocksim.Nodes.Key, redlocksim.DriftFactor.Key, "clockDrift", redlocksim.ReadTimeout.Key},
	Toggles: []string{redlocksim.Watchdog.Key, "fencing", redlocksim.Sequential.Key, redlocksim.ContextTimeout.Key},
	SliderRules: map[string]func(*designtab.SliderSpec){
		"ttl": func(s *designtab.SliderSpec) { s.Words = "redlockTTL" },
		// A try waits ttl × 0.05 for the votes: a slow link is worth
		// seeing up to a second.
		"latency": func(s *designtab.SliderSpec) { s.Words, s.Max = "redlockLatency", 1000 },
		redlocksim.Nodes.Key: func(s *designtab.SliderSpec) {
			s.Words, s.Label, s.Min, s.Max = "redlockNodes", "Masters", 1, redlocksim.MaxNodes
		},
		redlocksim.DriftFactor.Key: func(s *designtab.SliderSpec) {
			s.Words, s.Label, s.Min, s.Max, s.Step = "redlockDriftFactor", "Drift factor", 0, 0.1, 0.001
			s.Apply = func(sc *sim.Scenario, v float64) { redlocksim.DriftFactor.Set(sc, math.Round(v*1000)/1000) }
			s.Format = func(v float64) string { return strconv.FormatFloat(math.Round(v*1000)/1000, 'f', -1, 64) }
		},
		"clockDrift": func(s *designtab.SliderSpec) { s.Words = "redlockClockDrift" },
		redlocksim.ReadTimeout.Key: func(s *designtab.SliderSpec) {
			s.Words, s.Label, s.Min, s.Max = "readTimeout", "Read timeout", 1, 10
		},
	},
	ToggleRules: map[string]func(*designtab.ToggleSpec){
		redlocksim.Watchdog.Key: func(t *designtab.ToggleSpec) { t.Words, t.Label = "redlockWatchdog", "Watchdog" },
		"fencing":               func(t *designtab.ToggleSpec) { t.Words = "redlockFencing" },
		redlocksim.Sequential.Key: func(t *designtab.ToggleSpec) {
			t.Words, t.Label = "redlockSequential", "Sequential"
		},
		redlocksim.ContextTimeout.Key: func(t *designtab.ToggleSpec) {
			t.Words, t.Label = "redlockContextTimeout", "Context timeout"
		},
	},
	Formerly: map[string]string{"redlockTTL": "ttl", "redlockLatency": "latency", "redlockNodes": "nodes",
		"redlockClockDrift": "clockDrift", "redlockWatchdog": "watchdog", "redlockFencing": "fencing",
		"redlockDriftFactor": "driftFactor", "redlockSequential": "sequential", "redlockContextTimeout": "contextTimeout"},
	Protocol: redlockProtocol,
}
