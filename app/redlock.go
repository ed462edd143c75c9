package app

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
)

// redlockProtocol is Redlock as the scenario runs it — go-redsync's Mutex
// over N independent masters — in two or three short lines: the vote
// tally above it already shows the quorum and the validity arithmetic.
func redlockProtocol(sc *sim.Scenario) []string {
	ttl, n := sc.TTL.D(), sc.Nodes
	timeout := shortTime(sim.RedlockTimeout(ttl))
	if wait := sim.RedlockWait(ttl, sc.ContextTimeout); wait != sim.RedlockTimeout(ttl) {
		timeout += i18n.F("redlock.proto.silent", "wait", shortTime(wait))
	}
	how := i18n.F("redlock.proto.parallel", "n", n, "timeout", timeout)
	if sc.Sequential {
		how = i18n.F("redlock.proto.sequential", "n", n, "timeout", timeout)
	}
	d := sc.RetryDelay.D()
	lo, hi := shortTime(d/3), shortTime(d*5/3)
	if d*5/3 < time.Second {
		lo = strings.TrimSuffix(lo, " ms")
	}
	tries := i18n.T("redlock.proto.untilEnd")
	if sc.Tries > 0 {
		tries = i18n.F("redlock.proto.tries", "n", sc.Tries)
	}
	out := []string{i18n.F("redlock.proto.acquire", "px", ttl.Milliseconds(), "how", how, "lo", lo, "hi", hi, "tries", tries)}
	if sc.Watchdog {
		out = append(out, i18n.F("redlock.proto.extend", "every", shortTime(ttl/3), "n", n))
	}
	return append(out, i18n.T("redlock.proto.noToken"))
}

// refusal says why the scenario's mode refuses a change the toggle would
// make (the mode's own validation error), "" when it takes it.
func refusal(sc *sim.Scenario, change func(sc *sim.Scenario)) string {
	m, err := sim.LookupMode(sc.Mode)
	if err != nil || m.Validate(sc) != nil {
		return ""
	}
	c := sc.Clone()
	change(c)
	if err := m.Validate(c); err != nil {
		return errorText(err)
	}
	return ""
}

// clockDriftFormat shows a clock-rate bound as a percentage.
func clockDriftFormat(v float64) string {
	if v == 0 {
		return "0"
	}
	return "±" + strconv.FormatFloat(v*100, 'f', -1, 64) + " %"
}

// redlockMs is a slider's milliseconds.
func redlockMs(v float64) string { return fmt.Sprintf("%.0f ms", v) }

// fromMs turns a slider's milliseconds into a scenario duration.
func fromMs(v float64) sim.Duration {
	return sim.Duration(time.Duration(v * float64(time.Millisecond)))
}
