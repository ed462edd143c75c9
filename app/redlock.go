package app

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/lockscope/lockscope/sim"
)

// redlockProtocol is Redlock as the scenario runs it — go-redsync's Mutex
// over N independent masters — in two or three short lines: the vote
// tally above it already shows the quorum and the validity arithmetic.
func redlockProtocol(sc *sim.Scenario) []string {
	ttl, n := sc.TTL.D(), sc.Nodes
	timeout := shortTime(sim.RedlockTimeout(ttl))
	how := fmt.Sprintf("on all %d masters at once, ≤ %s", n, timeout)
	if sc.Sequential {
		how = fmt.Sprintf("on the %d masters in turn, ≤ %s each", n, timeout)
	}
	d := sc.RetryDelay.D()
	lo, hi := shortTime(d/3), shortTime(d*5/3)
	if d*5/3 < time.Second {
		lo = strings.TrimSuffix(lo, " ms")
	}
	tries := ", until the end"
	if sc.Tries > 0 {
		tries = ", " + strconv.Itoa(sc.Tries) + " tries"
	}
	out := []string{fmt.Sprintf("SET NX PX %d %s; else unlock all, retry in %s–%s%s",
		ttl.Milliseconds(), how, lo, hi, tries)}
	if sc.Watchdog {
		out = append(out, fmt.Sprintf("extend: every %s (ttl/3) PEXPIRE on all %d if still ours; kept on a majority within the validity",
			shortTime(ttl/3), n))
	}
	return append(out, "no fencing token: the lock values are random, not ordered (Kleppmann)")
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
		return err.Error()
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
