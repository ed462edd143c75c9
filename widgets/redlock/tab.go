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
	ttl, n := sc.TTL.D(), sc.Nodes
	timeout := widgets.ShortTime(redlocksim.RedlockTimeout(ttl))
	if wait := redlocksim.RedlockWait(ttl, sc.ContextTimeout); wait != redlocksim.RedlockTimeout(ttl) {
		timeout += i18n.F("redlock.proto.silent", "wait", widgets.ShortTime(wait))
	}
	how := i18n.F("redlock.proto.parallel", "n", n, "timeout", timeout)
	if sc.Sequential {
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
	if sc.Watchdog {
		out = append(out, i18n.F("redlock.proto.extend", "every", widgets.ShortTime(ttl/3), "n", n))
	}
	return append(out, i18n.T("redlock.proto.noToken"))
}

// redlockModeTab is the Redlock tab: its state picture, the preset it opens with,
// its sliders and toggles (the shared ones in designtab, its own below)
// and its protocol lines.
var redlockModeTab = designtab.ModeTab{
	Mode:       "redlock",
	Title:      "Redlock",
	StateTitle: "state.redlock",
	Preset:     "redlock-clock-jump",
	NewState:   func() designtab.StateView { return NewVoteTally() },
	Sliders: []string{"redlockTTL", "work", "pause", "redlockLatency", "clients",
		"redlockNodes", "redlockDriftFactor", "redlockClockDrift"},
	Toggles:  []string{"redlockWatchdog", "redlockFencing", "redlockSequential", "redlockContextTimeout"},
	Protocol: redlockProtocol,
}

// redlockSliders and redlockToggles are the controls only the Redlock tab shows.
var redlockSliders = map[string]designtab.SliderSpec{
	"redlockTTL": {
		Key: "redlockTTL", Label: "TTL", Min: 0.5, Max: 60, Step: 0.01, Log: true,
		Tip:    "slider.redlockTTL.tip",
		Value:  func(sc *sim.Scenario) (float64, bool) { return designtab.Seconds(sc.TTL), true },
		Apply:  func(sc *sim.Scenario, v float64) { sc.TTL = designtab.FromSeconds(v) },
		Format: designtab.FormatSeconds,
	},
	"redlockLatency": {
		Key: "redlockLatency", Label: "Latency", Min: 0, Max: 1000, Step: 1,
		Tip:    "slider.redlockLatency.tip",
		Value:  func(sc *sim.Scenario) (float64, bool) { return sim.Ms(sc.Latency.D()), true },
		Apply:  func(sc *sim.Scenario, v float64) { sc.Latency = designtab.FromMs(v) },
		Format: designtab.FormatMs,
	},
	"redlockNodes": {
		Key: "redlockNodes", Label: "Masters", Min: 1, Max: redlocksim.RedlockMaxNodes, Step: 1,
		Tip:    "slider.redlockNodes.tip",
		Value:  func(sc *sim.Scenario) (float64, bool) { return float64(sc.Nodes), true },
		Apply:  func(sc *sim.Scenario, v float64) { sc.Nodes = int(math.Round(v)) },
		Format: designtab.FormatCount,
	},
	"redlockDriftFactor": {
		Key: "redlockDriftFactor", Label: "Drift factor", Min: 0, Max: 0.1, Step: 0.001,
		Tip:    "slider.redlockDriftFactor.tip",
		Value:  func(sc *sim.Scenario) (float64, bool) { return sc.DriftFactor, true },
		Apply:  func(sc *sim.Scenario, v float64) { sc.DriftFactor = math.Round(v*1000) / 1000 },
		Format: func(v float64) string { return strconv.FormatFloat(math.Round(v*1000)/1000, 'f', -1, 64) },
	},
	"redlockClockDrift": {
		Key: "redlockClockDrift", Label: "Clock drift", Min: 0, Max: 0.1, Step: 0.001,
		Tip:    "slider.redlockClockDrift.tip",
		Value:  func(sc *sim.Scenario) (float64, bool) { return sc.ClockDrift, true },
		Apply:  func(sc *sim.Scenario, v float64) { sc.ClockDrift = math.Round(v*1000) / 1000 },
		Format: designtab.FormatClockDrift,
	},
}

var redlockToggles = map[string]designtab.ToggleSpec{
	"redlockWatchdog": {
		Key: "redlockWatchdog", Label: "Watchdog",
		Tip:   "toggle.redlockWatchdog.tip",
		Value: func(sc *sim.Scenario) bool { return sc.Watchdog },
		Apply: func(sc *sim.Scenario, on bool) { sc.Watchdog = on },
	},
	"redlockFencing": {
		Key: "redlockFencing", Label: "Fencing",
		Tip:   "toggle.redlockFencing.tip",
		Value: func(sc *sim.Scenario) bool { return sc.Fencing },
		Apply: func(sc *sim.Scenario, on bool) { sc.Fencing = on },
		Disabled: func(sc *sim.Scenario) string {
			return designtab.Refusal(sc, func(c *sim.Scenario) { c.Fencing = true })
		},
	},
	"redlockSequential": {
		Key: "redlockSequential", Label: "Sequential",
		Tip:   "toggle.redlockSequential.tip",
		Value: func(sc *sim.Scenario) bool { return sc.Sequential },
		Apply: func(sc *sim.Scenario, on bool) { sc.Sequential = on },
	},
	"redlockContextTimeout": {
		Key: "redlockContextTimeout", Label: "Context timeout",
		Tip:   "toggle.redlockContextTimeout.tip",
		Value: func(sc *sim.Scenario) bool { return sc.ContextTimeout },
		Apply: func(sc *sim.Scenario, on bool) { sc.ContextTimeout = on },
	},
}

func init() { designtab.Register(redlockModeTab, redlockSliders, redlockToggles) }
