package sim

import (
	"slices"
	"time"
)

// The fields a sweep (package sim/sweep) can vary, and how a scenario
// stands on them: they are the scenario's and its designs' options', so
// the core keeps them.

// SweepFields are the fields a sweep can vary: those every design has,
// then the registered designs' options with an Axis. `pause` is the
// length of a pause injected into the first holder: by default after its
// last check, just before it sends its write (PauseBeforeWrite), or
// halfway through its work (PauseMidWork).
func SweepFields() []string {
	out := slices.Clone(sweepSharedOrder)
	for _, k := range optionKeysListed() {
		if k.axis {
			out = append(out, k.key)
		}
	}
	return out
}

// sweepField is a field every design has that a sweep can vary: the kind
// of its values, where a scenario stands on it and how to set it, in the
// sweep's unit (milliseconds for a length of time).
type sweepField struct {
	kind OptionKind
	get  func(sc *Scenario) (float64, bool)
	set  func(sc *Scenario, v float64) // nil for the pause, which is a fault
}

// sweepSharedOrder and sweepShared are the fields every design has that
// a sweep can vary.
var (
	sweepSharedOrder = []string{"ttl", "work", "pause", "clockDrift", "latency", "clients"}
	sweepShared      = map[string]sweepField{
		"ttl": {OptionDuration, func(sc *Scenario) (float64, bool) { return Ms(sc.TTL.D()), true },
			func(sc *Scenario, v float64) { sc.TTL = msDuration(v) }},
		"work": {OptionDuration, func(sc *Scenario) (float64, bool) { return Ms(sc.Work.D()), true },
			func(sc *Scenario, v float64) { sc.Work = msDuration(v) }},
		"pause": {OptionDuration, func(sc *Scenario) (float64, bool) {
			d, ok := sc.PauseLength()
			return Ms(d), ok
		}, nil},
		"clockDrift": {OptionFloat, func(sc *Scenario) (float64, bool) { return sc.ClockDrift, true },
			func(sc *Scenario, v float64) { sc.ClockDrift = v }},
		"latency": {OptionDuration, func(sc *Scenario) (float64, bool) { return Ms(sc.Latency.D()), true },
			func(sc *Scenario, v float64) { sc.Latency = msDuration(v) }},
		"clients": {OptionInt, func(sc *Scenario) (float64, bool) { return float64(sc.Clients), true },
			func(sc *Scenario, v float64) { sc.Clients = int(v) }},
	}
)

// msDuration is v milliseconds.
func msDuration(v float64) Duration { return Duration(v * float64(time.Millisecond)) }

// PauseLength is the length of the scenario's first pause, if it has one.
func (sc *Scenario) PauseLength() (time.Duration, bool) {
	for _, f := range sc.Faults {
		if f.Kind() == FaultPause {
			return f.For.D(), true
		}
	}
	return 0, false
}

// SweepKind is the kind of a swept field's values (SweepFields), 0 for a
// field no sweep can vary.
func SweepKind(field string) OptionKind {
	if f, ok := sweepShared[field]; ok {
		return f.kind
	}
	if k, ok := optionKeys[field]; ok && k.axis {
		return k.kind
	}
	return 0
}

// Axis is one swept field and the values it takes, in the field's unit:

// SetSweepField sets one of SweepFields (but pause, which is a fault) to v
// in the field's sweep unit: milliseconds for durations. An option sc's
// design does not declare is set as another design's is (Option.Elsewhere).
func SetSweepField(sc *Scenario, field string, v float64) {
	if f, ok := sweepShared[field]; ok {
		if f.set != nil {
			f.set(sc, v)
		}
		return
	}
	if k, ok := optionKeys[field]; ok && k.axis {
		sc.Options.putKey(sc, field, k.kind.fromSweep(v))
	}
}
