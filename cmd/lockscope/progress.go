package main

import (
	"fmt"
	"io"
	"time"

	"github.com/lockscope/lockscope/sim"
)

// progressAfter is how long a run goes quietly before it reports on
// stderr; progressEvery how often it reports after that.
const (
	progressAfter = 500 * time.Millisecond
	progressEvery = time.Second
)

// progress reports a long run's simulated time on stderr, one line at a
// time, so a run of hours shows it is working; a short run says nothing.
type progress struct {
	w           io.Writer
	start, last time.Time
	said        bool
}

func newProgress(w io.Writer) *progress { return &progress{w: w, start: time.Now()} }

// report is a RecordOptions.Progress: it never cancels.
func (p *progress) report(at, end time.Duration) bool {
	now := time.Now()
	if now.Sub(p.start) < progressAfter || now.Sub(p.last) < progressEvery {
		return true
	}
	p.last, p.said = now, true
	pct := 0.0
	if end > 0 {
		pct = 100 * float64(at) / float64(end)
	}
	fmt.Fprintf(p.w, "simulating: %s of %s (%.0f%%), %s so far\n",
		at.Truncate(time.Second), end, pct, now.Sub(p.start).Truncate(100*time.Millisecond))
	return true
}

// done ends the report with the time the run took, if it said anything.
func (p *progress) done() {
	if p.said {
		fmt.Fprintf(p.w, "simulated in %s\n", time.Since(p.start).Truncate(100*time.Millisecond))
	}
}

// runWithProgress runs s to its end, reporting on w while it is long.
func runWithProgress(s *sim.Sim, w io.Writer) sim.Summary {
	p := newProgress(w)
	for s.Step() {
		if s.Steps()%20_000 == 0 {
			p.report(s.Now(), s.End())
		}
	}
	p.done()
	return s.Check.Summary(s.End())
}
