package breaker

import (
	"context"
	"slices"
	"time"

	"github.com/lockscope/lockscope/sim"
)

// Margin is a fault's smallest size that still breaks the scenario and
// the largest, one millisecond less, that does not.
type Margin struct {
	Gene   int           // the fault's place in the shrunk schedule (genes, not scenario faults)
	Breaks time.Duration // the pause, partition, downtime or jump that breaks it
	Safe   time.Duration // Breaks less a millisecond: a run with it took no stale write
}

// maxPasses bounds the shrink's rounds of steps; each round that changes
// nothing ends it sooner.
const maxPasses = 10

// shrinker reduces a failing schedule one step at a time.
type shrinker struct {
	e        *env
	ctx      context.Context
	runs     int
	progress func(runs int)
}

// fails runs a candidate and reports whether it still breaks the scenario.
func (k *shrinker) fails(s schedule) (bool, error) {
	if err := k.ctx.Err(); err != nil {
		return false, err
	}
	k.runs++
	out, err := k.e.run(s)
	if k.runs%8 == 0 && k.progress != nil {
		k.progress(k.runs)
	}
	return out.unsafe, err
}

// shrink reduces a failing schedule: it drops faults, shortens pauses,
// partitions and downtimes, shrinks jumps and moves instants to rounder
// ones, until no single step keeps it failing. Every step is a run.
func (e *env) shrink(ctx context.Context, s schedule, progress func(int)) (schedule, []Margin, error) {
	k := &shrinker{e: e, ctx: ctx, progress: progress}
	s = s.clone()
	for range maxPasses {
		changed := false
		var err error
		for _, step := range []func(schedule) (schedule, bool, error){k.drop, k.narrow, k.round, k.earlierStep} {
			var ch bool
			if s, ch, err = step(s); err != nil {
				return nil, nil, err
			}
			changed = changed || ch
		}
		var ch bool
		if s, ch, err = k.minimize(s); err != nil {
			return nil, nil, err
		}
		changed = changed || ch
		if !changed {
			break
		}
	}
	margins, err := k.margins(s)
	if progress != nil {
		progress(k.runs)
	}
	return s, margins, err
}

// drop removes every fault the schedule breaks without.
func (k *shrinker) drop(s schedule) (schedule, bool, error) {
	changed := false
	for i := 0; i < len(s); {
		t := slices.Delete(s.clone(), i, i+1)
		if len(t) > 0 {
			ok, err := k.fails(t)
			if err != nil {
				return nil, false, err
			}
			if ok {
				s, changed = t, true
				continue
			}
		}
		i++
	}
	// A crashed server that need not come back is simpler as a crash alone.
	for i := range s {
		if s[i].Kind == KindCrash && s[i].Length > 0 {
			t := s.clone()
			t[i].Length, t[i].Persist = 0, false
			ok, err := k.fails(t)
			if err != nil {
				return nil, false, err
			}
			if ok {
				s, changed = t, true
			}
		}
	}
	return s, changed, nil
}

// narrow takes nodes out of a partition's group while it still breaks.
func (k *shrinker) narrow(s schedule) (schedule, bool, error) {
	changed := false
	for i := range s {
		if s[i].Kind != KindPartition {
			continue
		}
		for j := 0; j < len(s[i].Group) && len(s[i].Group) > 1; {
			t := s.clone()
			t[i].Group = slices.Delete(t[i].Group, j, j+1)
			ok, err := k.fails(t)
			if err != nil {
				return nil, false, err
			}
			if ok {
				s, changed = t, true
				continue
			}
			j++
		}
	}
	return s, changed, nil
}

// round moves each instant to the roundest one nearby that still breaks:
// whole seconds first, then tenths, then hundredths.
func (k *shrinker) round(s schedule) (schedule, bool, error) {
	changed := false
	for i := range s {
		for _, unit := range []time.Duration{time.Second, 100 * time.Millisecond, 10 * time.Millisecond} {
			at := s[i].At
			if at%unit == 0 {
				break
			}
			moved := false
			for _, to := range []time.Duration{at.Truncate(unit), at.Truncate(unit) + unit} {
				if to > k.e.space.horizon {
					continue
				}
				t := s.clone()
				t[i].At = to
				ok, err := k.fails(t)
				if err != nil {
					return nil, false, err
				}
				if ok {
					s, changed, moved = t, true, true
					break
				}
			}
			if moved {
				break
			}
		}
	}
	return s, changed, nil
}

// earlierStep moves each pause tied to a client's step to the earliest
// round, then the earliest step of its round (granted before
// before-write), that still breaks: round 1 first, then one round less.
func (k *shrinker) earlierStep(s schedule) (schedule, bool, error) {
	changed := false
	try := func(i int, edit func(*gene)) (bool, error) {
		t := s.clone()
		edit(&t[i])
		ok, err := k.fails(t)
		if ok {
			s, changed = t, true
		}
		return ok, err
	}
	for i := range s {
		if s[i].When == "" {
			continue
		}
		for _, round := range []int{1, s[i].Round - 1} {
			if round < 1 || round >= s[i].Round {
				continue
			}
			if ok, err := try(i, func(g *gene) { g.Round = round }); err != nil {
				return nil, false, err
			} else if ok {
				break
			}
		}
		if first := sim.FaultSteps[0]; s[i].When != first {
			if _, err := try(i, func(g *gene) { g.When = first }); err != nil {
				return nil, false, err
			}
		}
	}
	return s, changed, nil
}

// size is the gene's length or jump, the figure minimize reduces.
func size(g gene) time.Duration {
	if g.Kind == KindClockJump {
		return abs(g.By)
	}
	return g.Length
}

func withSize(g gene, d time.Duration) gene {
	if g.Kind == KindClockJump {
		if g.By < 0 {
			d = -d
		}
		g.By = d
		return g
	}
	g.Length = d
	return g
}

// minimize finds, for each fault with a size, the least size that still
// breaks, to the millisecond, by bisection between a size that breaks and
// one that does not (a size of 0 is the fault dropped, which drop tried).
func (k *shrinker) minimize(s schedule) (schedule, bool, error) {
	changed := false
	for i := range s {
		hi := size(s[i])
		if hi <= time.Millisecond || s[i].Kind == KindFailover {
			continue
		}
		lo := time.Duration(0)
		for hi-lo > time.Millisecond {
			mid := (lo + (hi-lo)/2).Round(time.Millisecond)
			if mid <= lo || mid >= hi {
				break
			}
			t := s.clone()
			t[i] = withSize(t[i], mid)
			ok, err := k.fails(t)
			if err != nil {
				return nil, false, err
			}
			if ok {
				hi = mid
			} else {
				lo = mid
			}
		}
		if hi != size(s[i]) {
			s[i] = withSize(s[i], hi)
			changed = true
		}
	}
	return s, changed, nil
}

// margins checks, for each fault with a size, that a millisecond less is
// safe; a fault whose size can shrink further is minimized again first.
func (k *shrinker) margins(s schedule) ([]Margin, error) {
	var out []Margin
	for i, g := range s {
		d := size(g)
		if g.Kind == KindFailover || d == 0 {
			continue
		}
		if d <= time.Millisecond {
			if g.Kind == KindCrash {
				continue // downtime 0 is a crash never restarted, not a safe run
			}
			out = append(out, Margin{Gene: i, Breaks: d, Safe: 0})
			continue
		}
		t := s.clone()
		t[i] = withSize(t[i], d-time.Millisecond)
		ok, err := k.fails(t)
		if err != nil {
			return nil, err
		}
		if !ok {
			out = append(out, Margin{Gene: i, Breaks: d, Safe: d - time.Millisecond})
		}
	}
	return out, nil
}
