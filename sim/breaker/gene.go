package breaker

import (
	"math/rand/v2"
	"slices"
	"time"

	"github.com/lockscope/lockscope/sim"
)

// gene is one fault of a schedule, in the form the search varies and the
// shrink reduces; compile turns it into the scenario's faults.
type gene struct {
	Kind   sim.FaultKind
	Target string        // the node of a pause, clock jump, crash or failover
	Group  []string      // the nodes a partition cuts off from the rest
	At     time.Duration // when it starts
	Length time.Duration // pause, partition, or how long a crashed server stays down (0: never restarted)
	By     time.Duration // clock jump
	// Monotonic steps the node's monotonic clock with its wall clock
	// (Budget.Monotonic).
	Monotonic bool
	Persist   bool // a restarted server keeps its durable state
	// When ties a pause of a client to its step (sim.StepGranted or
	// sim.StepBeforeWrite) in round Round instead of the instant At.
	When  string
	Round int
}

// clone copies the gene's group, so a mutation never aliases its parent.
func (g gene) clone() gene {
	g.Group = slices.Clone(g.Group)
	return g
}

// faults is the gene as scenario faults: a crash that is restarted is two.
func (g gene) faults() []sim.Fault {
	at := sim.Duration(g.At)
	switch g.Kind {
	case KindPause:
		if g.When != "" {
			return []sim.Fault{{When: g.When, Round: g.Round, Pause: g.Target, For: sim.Duration(g.Length)}}
		}
		return []sim.Fault{{At: at, Pause: g.Target, For: sim.Duration(g.Length)}}
	case KindPartition:
		return []sim.Fault{{At: at, Partition: [][]string{slices.Clone(g.Group)}, For: sim.Duration(g.Length)}}
	case KindClockJump:
		return []sim.Fault{{At: at, ClockJump: g.Target, By: sim.Duration(g.By), Monotonic: g.Monotonic}}
	case KindCrash:
		out := []sim.Fault{{At: at, Crash: g.Target}}
		if g.Length > 0 {
			out = append(out, sim.Fault{At: sim.Duration(g.At + g.Length), Restart: g.Target, Persist: g.Persist})
		}
		return out
	case KindFailover:
		return []sim.Fault{{At: at, Failover: g.Target}}
	}
	return nil
}

// schedule is the genes of one run: the faults it injects.
type schedule []gene

func (s schedule) clone() schedule {
	out := make(schedule, len(s))
	for i, g := range s {
		out[i] = g.clone()
	}
	return out
}

// faults lists the schedule's faults in the order of their genes.
func (s schedule) faults() []sim.Fault {
	var out []sim.Fault
	for _, g := range s {
		out = append(out, g.faults()...)
	}
	return out
}

// space is what the search draws from: the scenario's nodes, the budget,
// and the instants worth aiming at.
type space struct {
	budget   Budget
	clients  []string
	servers  []string // the lock's servers
	jumps    []string // the nodes a clock jump strikes: the servers, and the clients too with Budget.Monotonic
	crashes  []string // servers and the storage node: crashes
	nodes    []string // clients, servers and the storage node: pauses and partitions
	failover []string
	// rounds is, per client, how many rounds it was granted in the run
	// without added faults (at least 1): the rounds a pause tied to its
	// step may name.
	rounds  map[string]int
	horizon time.Duration   // instants are drawn from [0, horizon)
	anchors []time.Duration // grants of the run without added faults
	work    time.Duration
}

// newRand is the generator of schedule i of a search seeded with seed: a
// schedule depends on its number alone, never on which core made it.
func newRand(seed int64, i int, salt uint64) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(seed), uint64(i)<<8|salt))
}

// randomSchedule draws one to MaxFaults genes.
func (sp *space) randomSchedule(r *rand.Rand) schedule {
	n := 1 + r.IntN(sp.budget.MaxFaults)
	out := make(schedule, n)
	for i := range out {
		out[i] = sp.randomGene(r)
	}
	return out
}

// randomInstant is uniform over the run half the time, and otherwise near
// a grant of the run without added faults: most harm is done to a holder
// at work or to a client about to be granted.
func (sp *space) randomInstant(r *rand.Rand) time.Duration {
	if len(sp.anchors) > 0 && r.IntN(2) == 0 {
		a := sp.anchors[r.IntN(len(sp.anchors))]
		lo := a - 500*time.Millisecond
		t := lo + time.Duration(r.Int64N(int64(sp.work+500*time.Millisecond)+1))
		return max(0, min(t, sp.horizon))
	}
	return time.Duration(r.Int64N(int64(sp.horizon) + 1))
}

// randomLength is uniform in (0, most], in whole milliseconds.
func randomLength(r *rand.Rand, most time.Duration) time.Duration {
	ms := max(int64(most/time.Millisecond), 1)
	return time.Duration(1+r.Int64N(ms)) * time.Millisecond
}

func (sp *space) randomGene(r *rand.Rand) gene {
	g := gene{Kind: sp.budget.Kinds[r.IntN(len(sp.budget.Kinds))], At: sp.randomInstant(r)}
	switch g.Kind {
	case KindPause:
		g.Target = sp.nodes[r.IntN(len(sp.nodes))]
		g.Length = randomLength(r, sp.budget.MaxPause)
		if sp.isClient(g.Target) && r.IntN(2) == 0 {
			sp.tieToStep(r, &g)
		}
	case KindPartition:
		g.Group = sp.randomGroup(r)
		g.Length = randomLength(r, sp.budget.MaxPartition)
	case KindClockJump:
		g.Target = sp.jumps[r.IntN(len(sp.jumps))]
		g.By = randomLength(r, sp.budget.MaxJump)
		if r.IntN(4) == 0 {
			g.By = -g.By
		}
		g.Monotonic = sp.budget.Monotonic
	case KindCrash:
		g.Target = sp.crashes[r.IntN(len(sp.crashes))]
		if r.IntN(3) > 0 {
			g.Length = randomLength(r, sp.budget.MaxPause)
			g.Persist = r.IntN(2) == 0
		}
	case KindFailover:
		g.Target = sp.failover[r.IntN(len(sp.failover))]
	}
	return g
}

// isClient reports whether the node is one of the scenario's clients.
func (sp *space) isClient(n string) bool { return slices.Contains(sp.clients, n) }

// tieToStep makes g, a pause of a client, strike at one of the client's
// steps in one of its rounds instead of at an instant: right after a
// grant, or between its last check and its write, where a holder's pause
// does the most harm.
func (sp *space) tieToStep(r *rand.Rand, g *gene) {
	g.When = sim.FaultSteps[r.IntN(len(sim.FaultSteps))]
	g.Round = 1 + r.IntN(max(sp.rounds[g.Target], 1))
	g.At = 0
}

// randomGroup is a non-empty proper subset of the nodes, in node order.
func (sp *space) randomGroup(r *rand.Rand) []string {
	for {
		var g []string
		for _, n := range sp.nodes {
			if r.IntN(2) == 0 {
				g = append(g, n)
			}
		}
		if len(g) > 0 && len(g) < len(sp.nodes) {
			return g
		}
	}
}

// mutate changes a parent schedule a little: moves an instant, stretches
// or shrinks a length, swaps a target, adds, drops or replaces a gene, or
// repeats a gene on another node (a majority of Redlock masters has to
// misbehave together).
func (sp *space) mutate(r *rand.Rand, parent schedule) schedule {
	s := parent.clone()
	for range 1 + r.IntN(2) {
		i := r.IntN(len(s))
		g := &s[i]
		switch r.IntN(7) {
		case 0:
			if g.When != "" { // another step or round, or an instant
				switch r.IntN(3) {
				case 0:
					sp.tieToStep(r, g)
				case 1:
					g.Round = max(1, g.Round+1-2*r.IntN(2))
				default:
					g.When, g.Round, g.At = "", 0, sp.randomInstant(r)
				}
				break
			}
			if sp.isClient(g.Target) && g.Kind == KindPause && r.IntN(4) == 0 {
				sp.tieToStep(r, g)
				break
			}
			scales := []time.Duration{10 * time.Millisecond, 100 * time.Millisecond, time.Second}
			d := time.Duration(r.NormFloat64() * float64(scales[r.IntN(len(scales))]))
			g.At = max(0, min(g.At+d, sp.horizon))
		case 1:
			f := 0.5 + r.Float64()
			switch g.Kind {
			case KindPause, KindCrash:
				g.Length = clampLength(time.Duration(float64(g.Length)*f), sp.budget.MaxPause)
			case KindPartition:
				g.Length = clampLength(time.Duration(float64(g.Length)*f), sp.budget.MaxPartition)
			case KindClockJump:
				by := clampLength(time.Duration(float64(abs(g.By))*f), sp.budget.MaxJump)
				if g.By < 0 {
					by = -by
				}
				g.By = by
			}
		case 2:
			if len(s) < sp.budget.MaxFaults {
				s = append(s, sp.randomGene(r))
			}
		case 3:
			if len(s) > 1 {
				s = slices.Delete(s, i, i+1)
			}
		case 4:
			s[i] = sp.randomGene(r)
		case 5:
			switch g.Kind {
			case KindPause:
				if g.When != "" { // a step is a client's
					g.Target = sp.clients[r.IntN(len(sp.clients))]
					break
				}
				g.Target = sp.nodes[r.IntN(len(sp.nodes))]
			case KindClockJump:
				g.Target = sp.jumps[r.IntN(len(sp.jumps))]
			case KindCrash:
				g.Target = sp.crashes[r.IntN(len(sp.crashes))]
			case KindPartition:
				g.Group = sp.randomGroup(r)
			}
		case 6:
			if len(s) < sp.budget.MaxFaults && g.Target != "" {
				c := g.clone()
				c.Target = sp.otherTarget(r, *g)
				s = append(s, c)
			}
		}
	}
	return s
}

// otherTarget is a node of the gene's kind other than its own, or its own
// when there is no other.
func (sp *space) otherTarget(r *rand.Rand, g gene) string {
	pool := sp.servers
	switch {
	case g.Kind == KindPause && g.When != "":
		pool = sp.clients
	case g.Kind == KindPause:
		pool = sp.nodes
	case g.Kind == KindCrash:
		pool = sp.crashes
	case g.Kind == KindFailover:
		pool = sp.failover
	case g.Kind == KindClockJump:
		pool = sp.jumps
	}
	if len(pool) < 2 {
		return g.Target
	}
	for {
		if t := pool[r.IntN(len(pool))]; t != g.Target {
			return t
		}
	}
}

// clampLength keeps a length within (0, most], in whole milliseconds; a
// crash's zero (never restarted) stays zero.
func clampLength(d, most time.Duration) time.Duration {
	if d <= 0 {
		return 0
	}
	return max(time.Millisecond, min(d.Round(time.Millisecond), most))
}

func abs(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}
