package breaker

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lockscope/lockscope/sim"
)

// Line is one caption of the story a found schedule tells: the fault, the
// lease running out, the second grant, the stale write.
type Line struct {
	At    time.Duration
	Words sim.Words
}

// Story is the replay of a found schedule: its captions and the instant
// the window puts its cursor on.
type Story struct {
	Lines []Line
	// StaleWrite is the first stale write the storage accepted.
	StaleWrite time.Duration
}

// finish runs the shrunk schedule once more with every record kept, and
// states the result: its sentence, its scenario and its story.
func (e *env) finish(res *Result, s schedule, margins []Margin) (*Result, error) {
	res.genes, res.Margins = s, margins
	if !res.Found {
		run, err := sim.New(e.base)
		if err != nil {
			return nil, err
		}
		res.Summary = run.Run()
		res.Sentence = notFound(res)
		return res, nil
	}
	res.Faults = s.faults()
	sc := e.with(s)
	run, err := sim.New(sc)
	if err != nil {
		return nil, err
	}
	res.Summary = run.Run()
	c := run.Check
	res.Sentence = foundSentence(c, s, margins)
	// Redlock has no ordered token, and Redis without fencing hands out none.
	tokens := sim.TraitsOf(sc.Mode).HasTokens(sc.Fencing)
	res.Story = story(c, s, res.Sentence, tokens)
	res.Scenario = sc
	return res, nil
}

// seconds writes a duration as seconds to the millisecond: "4.12 s".
func seconds(d time.Duration) string {
	ms := d.Round(time.Millisecond).Milliseconds()
	sign := ""
	if ms < 0 {
		sign, ms = "-", -ms
	}
	frac := strings.TrimRight(fmt.Sprintf("%03d", ms%1000), "0")
	if frac == "" {
		return fmt.Sprintf("%s%d s", sign, ms/1000)
	}
	return fmt.Sprintf("%s%d.%s s", sign, ms/1000, frac)
}

// foundSentence is "Breaks with a 4.12 s pause of client-1 starting 0.3 s
// after its grant; 4.119 s is safe."
func foundSentence(c *sim.Checker, s schedule, margins []Margin) sim.Words {
	if len(s) == 0 {
		return sim.Say("break.foundBase")
	}
	var faults sim.Words
	for i := len(s) - 1; i >= 0; i-- {
		d := describe(c, s[i])
		if i == len(s)-1 {
			faults = d
			continue
		}
		faults = sim.Say("break.then").With("a", d).With("b", faults)
	}
	if len(margins) == 0 {
		return sim.Say("break.found").With("faults", faults)
	}
	var m sim.Words
	for i := len(margins) - 1; i >= 0; i-- {
		mi := sim.Say("break.margin", "safe", seconds(margins[i].Safe))
		if len(margins) > 1 {
			mi = sim.Say("break.marginOf", "safe", seconds(margins[i].Safe), "breaks", seconds(margins[i].Breaks))
		}
		if i == len(margins)-1 {
			m = mi
			continue
		}
		m = sim.Say("break.and").With("a", mi).With("b", m)
	}
	return sim.Say("break.foundMargin").With("faults", faults).With("margin", m)
}

// describe says one fault with its instant tied to the nearest grant.
func describe(c *sim.Checker, g gene) sim.Words {
	when := whenOf(c, g)
	switch g.Kind {
	case KindPause:
		return sim.Say("break.fault.pause", "length", seconds(g.Length), "node", g.Target).With("when", when)
	case KindPartition:
		return sim.Say("break.fault.partition", "length", seconds(g.Length), "group", strings.Join(g.Group, ", ")).With("when", when)
	case KindClockJump:
		key := "break.fault.jumpForward"
		if g.By < 0 {
			key = "break.fault.jumpBack"
		}
		if g.Monotonic {
			key += "Monotonic"
		}
		return sim.Say(key, "by", seconds(abs(g.By)), "node", g.Target).With("when", when)
	case KindCrash:
		switch {
		case g.Length == 0:
			return sim.Say("break.fault.crash", "node", g.Target).With("when", when)
		case g.Persist:
			return sim.Say("break.fault.crashRestart", "node", g.Target, "length", seconds(g.Length)).With("when", when)
		}
		return sim.Say("break.fault.crashRestartEmpty", "node", g.Target, "length", seconds(g.Length)).With("when", when)
	}
	return sim.Say("break.fault.failover", "node", g.Target).With("when", when)
}

// whenOf ties a fault's instant to a grant of the run: a client's own
// grant for a fault on that client, else the last grant before it (or the
// first after), else the bare instant.
func whenOf(c *sim.Checker, g gene) sim.Words {
	if g.When != "" {
		return sim.Say("break.when.step", "step", g.When, "round", strconv.Itoa(max(g.Round, 1)))
	}
	grants := c.Grants()
	own := g.Kind == KindPause && strings.HasPrefix(g.Target, "client-")
	pick := func(match func(sim.Grant) bool) (sim.Grant, bool) {
		var before, after *sim.Grant
		for i := range grants {
			if !match(grants[i]) {
				continue
			}
			if grants[i].At <= g.At {
				before = &grants[i]
			} else if after == nil {
				after = &grants[i]
			}
		}
		switch {
		case before != nil:
			return *before, true
		case after != nil:
			return *after, true
		}
		return sim.Grant{}, false
	}
	name := func(id sim.NodeID) string { return sim.ClientName(int(id)) }
	if own {
		if gr, ok := pick(func(x sim.Grant) bool { return name(x.Client) == g.Target }); ok {
			if gr.At <= g.At {
				return sim.Say("break.when.afterOwnGrant", "d", seconds(g.At-gr.At))
			}
			return sim.Say("break.when.beforeOwnGrant", "d", seconds(gr.At-g.At))
		}
	}
	if gr, ok := pick(func(sim.Grant) bool { return true }); ok {
		if gr.At <= g.At {
			return sim.Say("break.when.afterGrant", "d", seconds(g.At-gr.At), "client", name(gr.Client))
		}
		return sim.Say("break.when.beforeGrant", "d", seconds(gr.At-g.At), "client", name(gr.Client))
	}
	return sim.Say("break.when.at", "t", seconds(g.At))
}

// story is the captions of the found run: the search's sentence at the
// first fault, then the writer's lease running out, the grant to another
// client and the stale write the storage took.
func story(c *sim.Checker, s schedule, sentence sim.Words, tokens bool) Story {
	var st Story
	first := time.Duration(0)
	// When the first fault struck (a pause tied to a step has no instant
	// of its own); the marks also hold heals and the scenario's changes.
	for _, m := range c.Faults() {
		if len(s) > 0 && m.Kind != sim.FaultHeal && m.Kind != sim.FaultChange && m.Kind != sim.FaultPromote && m.Kind != sim.FaultDemote {
			first = m.At
			break
		}
	}
	st.Lines = append(st.Lines, Line{At: first, Words: sim.Say("break.cap.found").With("sentence", sentence)})
	i := slices.IndexFunc(c.Writes(), func(w sim.WriteRecord) bool { return w.Stale && w.Accepted })
	if i < 0 {
		return st
	}
	w := c.Writes()[i]
	writer := sim.ClientName(int(w.Client))
	st.StaleWrite = w.At
	for _, o := range c.Ownerships() {
		if o.Client != w.Client || o.Open || o.Span.To < w.GrantAt || o.Span.To > w.At {
			continue
		}
		key := "break.cap.lost"
		if o.Expired {
			key = "break.cap.expiry"
		}
		st.Lines = append(st.Lines, Line{At: o.Span.To, Words: sim.Say(key, "server", c.NodeName(o.Server), "client", writer)})
		break
	}
	other := ""
	issued := issuedOf(c, w)
	for _, g := range c.Grants() {
		if g.Issued > issued && g.Client != w.Client && g.At <= w.At {
			other = sim.ClientName(int(g.Client))
			words := sim.Say("break.cap.grantNoToken", "client", other, "holder", writer)
			if tokens {
				words = sim.Say("break.cap.grant", "client", other, "token", strconv.FormatInt(g.Token, 10), "holder", writer)
			}
			st.Lines = append(st.Lines, Line{At: g.At, Words: words})
			break
		}
	}
	st.Lines = append(st.Lines, Line{At: w.At, Words: sim.Say("break.cap.stale", "client", writer, "other", other)})
	slices.SortStableFunc(st.Lines, func(a, b Line) int { return cmpDur(a.At, b.At) })
	return st
}

// issuedOf is when the lock service issued the grant write w belongs to
// (sim.Grant.Issued): the checker orders grants by it.
func issuedOf(c *sim.Checker, w sim.WriteRecord) time.Duration {
	for _, g := range c.Grants() {
		if g.Client == w.Client && g.At == w.GrantAt {
			return g.Issued
		}
	}
	return w.GrantAt
}

// notFound says what was searched, never that the scenario is safe: the
// number of schedules, the most faults in one, and each kind tried with
// its limit.
func notFound(r *Result) sim.Words {
	b := r.Budget
	var kinds sim.Words
	for i := len(b.Kinds) - 1; i >= 0; i-- {
		k := limitOf(b, b.Kinds[i])
		if i == len(b.Kinds)-1 {
			kinds = k
			continue
		}
		kinds = sim.Say("break.comma").With("a", k).With("b", kinds)
	}
	key := "break.notFound"
	if b.MaxFaults == 1 {
		key = "break.notFoundOne"
	}
	return sim.Say(key, "faults", strconv.Itoa(b.MaxFaults)).With("kinds", kinds).With("schedules", Count(NounSchedules, r.Runs))
}

// The nouns Count says.
const (
	NounSchedules = "schedules" // fault schedules the search ran
	NounRuns      = "runs"      // runs the shrink made
)

// Count says n schedules or n runs, the noun in the number n takes
// ("1 schedule", "3 000 schedules"), grouped by thousands.
func Count(noun string, n int) sim.Words {
	key := "break.count." + noun
	if n == 1 {
		key += ".one"
	}
	return sim.Say(key, "n", sim.GroupThousands(n))
}

// limitOf is a kind of fault with the budget's bound on it: "pauses ≤ 20 s".
func limitOf(b Budget, kind sim.FaultKind) sim.Words {
	switch kind {
	case KindPause, KindCrash:
		return sim.Say("break.limit."+kind.String(), "d", seconds(b.MaxPause))
	case KindPartition:
		return sim.Say("break.limit."+kind.String(), "d", seconds(b.MaxPartition))
	case KindClockJump:
		if b.Monotonic {
			return sim.Say("break.limit.clockJumpMonotonic", "d", seconds(b.MaxJump))
		}
		return sim.Say("break.limit."+kind.String(), "d", seconds(b.MaxJump))
	}
	return sim.Say("break.kind." + kind.String())
}

// Captioned is the found scenario with the story as its captions, each in
// English and Chinese as say renders it; nil when nothing was found.
func (r *Result) Captioned(say func(sim.Words) (en, zh string)) *sim.Scenario {
	if r.Scenario == nil {
		return nil
	}
	sc := r.Scenario.Clone()
	sc.Captions = nil
	for _, l := range r.Story.Lines {
		en, zh := say(l.Words)
		// To the microsecond: the file stays readable, and a grant and a
		// write in the same millisecond keep their own captions.
		sc.Captions = append(sc.Captions, sim.Caption{At: sim.Duration(l.At.Truncate(time.Microsecond)), Text: en, Zh: zh})
	}
	return sc
}
