package redlock

import (
	"time"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/redis"
)

// Vote is one master's answer to a Redlock attempt.
type Vote string

// The votes a Redlock attempt can collect from one master.
const (
	VotePending     Vote = "…"
	VoteYes         Vote = "✓"
	VoteNo          Vote = "✗"
	VoteTimeout     Vote = "⏱"
	VotePartitioned Vote = "⚡"
)

// Attempt is one client's attempt across the N masters.
type Attempt struct {
	Client  string
	Number  int
	Started time.Duration // true time of the first send
	Votes   []Vote
	Elapsed time.Duration // on the client's clock; 0 while still collecting
	Drift   time.Duration
	TTL     time.Duration
	// Wait is how long a silent master holds the try (func Wait).
	Wait     time.Duration
	Validity time.Duration
	Done     bool
	Success  bool
	// Phase is where the client is now: acquiring, unlocking, retrying,
	// holding, extending, writing, released, lost, gave up.
	Phase Phase
	// Left is the validity still left on the client's own clock while it
	// holds the lock, so the widget can shrink the bar.
	Left time.Duration
	// Renewals counts watchdog extensions that reached a majority.
	Renewals int
	// Note says in words why the attempt failed or how the hold ended.
	Note string
	// NoteWords is Note as a translation key and its figures.
	NoteWords sim.Words
}

// View is the Redlock vote tally and the masters' keys.
type View struct {
	Quorum   int
	Masters  []redis.ServerView
	Attempts []Attempt // the current or last attempt of each client
	// Sequential is true when attempts ask the masters one after another
	// (the spec's pseudo-code) instead of all at once (redsync).
	Sequential bool
}

// Redlock over N independent Redis masters, as go-redsync/redsync v4 runs
// it (Mutex.lockContext, ExtendContext, UnlockContext) and as the Redlock
// spec (redis.io/docs/manual/patterns/distributed-locks) describes it:
//
//   - One random value per Lock call, reused by all its tries (redsync's
//     genValueFunc is called once, before the loop).
//   - A try: start = the client's monotonic clock; SET key value NX PX ttl on
//     every master, all at once under one deadline of ttl·timeoutFactor
//     (redsync), or, with `sequential`, one master after another, each with
//     that timeout (the spec's pseudo-code). A master votes when it answers
//     OK in time. go-redis honours that deadline only with `contextTimeout`
//     (Options.ContextTimeoutEnabled); without it a silent master holds the
//     try for go-redis's read timeout (func Wait).
//   - elapsed = now − start on the same clock; drift = ttl·driftFactor +
//     2 ms; validity = ttl − elapsed − drift. The try succeeds iff votes ≥
//     N/2+1 and validity > 0. redsync computes until = now + ttl − elapsed −
//     ttl·driftFactor and requires now.Before(until): the same test, but
//     without the spec's (and redlock-rb's) 2 ms term, which LockScope keeps.
//   - A failed try unlocks (compare-and-delete) on all N masters, waits for
//     their answers or the same deadline, then sleeps a random delay (redsync:
//     rand in [50 ms, 250 ms)) and tries again, `tries` times in all.
//   - The holder believes it holds the lock until its validity runs out on
//     its own monotonic clock or until it releases.

func (redlockMode) View(s *sim.Sim, snap *sim.Snapshot) {
	servers := s.Servers()
	v := &View{Quorum: Quorum(len(servers)), Sequential: Sequential.Of(s.Scenario)}
	for _, id := range servers {
		m := s.Nodes[id].Proc.(*redlockMaster)
		snap.Nodes[id].Role = m.Role
		v.Masters = append(v.Masters, m.View(s, id))
	}
	for i := range s.Nodes {
		c, ok := s.Nodes[i].Proc.(*redlockClient)
		if !ok {
			continue
		}
		a := c.att
		a.Client = s.Nodes[i].Name
		a.Votes = append([]Vote(nil), c.att.Votes...)
		a.Phase = c.phase
		if c.State == sim.StateHolding {
			a.Left = c.until - s.Nodes[i].Clock.Mono(s.Now())
		}
		v.Attempts = append(v.Attempts, a)
		a.NoteWords = a.NoteWords.Clone()
		snap.Nodes[i].Detail, snap.Nodes[i].DetailWords = c.detail(a)
	}
	snap.Design = v
}

// DesignName says the view is Redlock's.
func (*View) DesignName() string { return redlockMode{}.Name() }

// ViewOf is the snapshot's Redlock's part; nil in another design's
// snapshot.
func ViewOf(s *sim.Snapshot) *View {
	v, _ := sim.DesignOf[*View](s)
	return v
}
