package app

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/widgets"
)

// Speed is where the speed control stands: one of its named stops, each
// a way time passes that a person can picture, not a factor.
type Speed int

const (
	// SpeedStory plays at the run's own pace (sim.StoryPace: each key
	// message on show 0.3 s at least, easing down around each moment, the
	// whole run in about half a minute) and stops at each caption's
	// instant until Space or → goes on, as narrated frames do.
	SpeedStory Speed = iota
	// SpeedPaced is the run's own pace without the stops.
	SpeedPaced
	// SpeedReal is 1 s of the run every second.
	SpeedReal
	// Speed10 is 10 s of the run every second.
	Speed10
	// Speed100 is 100 s of the run every second.
	Speed100
	// SpeedFastest plays the whole run in FastestRun.
	SpeedFastest
)

// Speeds are the speed control's stops from slowest to fastest story: the
// order of its list and of the Faster and Slower keys.
var Speeds = []Speed{SpeedStory, SpeedPaced, SpeedReal, Speed10, Speed100, SpeedFastest}

// FastestRun is how long the fastest speed takes over a whole run.
const FastestRun = 3 * time.Second

// speedNames are the stops' names in the settings file.
var speedNames = []string{"story", "paced", "real", "10x", "100x", "fastest"}

// String is the stop's name in the settings file.
func (s Speed) String() string {
	if s >= 0 && int(s) < len(speedNames) {
		return speedNames[s]
	}
	return "speed(" + strconv.Itoa(int(s)) + ")"
}

// ParseSpeed reads a stop's name as String writes it.
func ParseSpeed(name string) (Speed, bool) {
	for i, n := range speedNames {
		if n == name {
			return Speed(i), true
		}
	}
	return 0, false
}

// Name is the stop as the speed control shows it, in the reader's language.
func (s Speed) Name() string { return i18n.T("speed." + s.String()) }

// Paced says the stop plays at the run's own pace (sim.Pacing).
func (s Speed) Paced() bool { return s == SpeedStory || s == SpeedPaced }

// next is the stop after s (faster) or before it.
func (s Speed) next(faster bool) Speed {
	if faster {
		return min(s+1, Speeds[len(Speeds)-1])
	}
	return max(s-1, Speeds[0])
}

// playback is how a tab plays its run: the speed, the run's pacing and
// moments (laid out once per recording), and whether it is held at a
// story stop.
type playback struct {
	speed      Speed
	storyStops bool        // a run with captions starts at SpeedStory (a preference)
	held       bool        // stopped at a caption's instant by SpeedStory
	pacing     *sim.Pacing // built on demand
	moments    []sim.Moment
}

// Speed is where the speed control stands.
func (c *Controller) Speed() Speed { return c.speed }

// SetSpeed moves the speed control.
func (c *Controller) SetSpeed(s Speed) {
	if s < Speeds[0] || s > Speeds[len(Speeds)-1] {
		return
	}
	c.speed = s
	if !s.Paced() || s == SpeedPaced {
		c.held = false
	}
}

// StoryStops reports whether a run with captions starts at SpeedStory.
func (c *Controller) StoryStops() bool { return c.storyStops }

// SetStoryStops sets the preference; a run on show at the run's own pace
// goes over to the story or away from it at once.
func (c *Controller) SetStoryStops(on bool) {
	c.storyStops = on
	c.speed = c.defaultSpeed(c.speed)
	if c.speed != SpeedStory {
		c.held = false
	}
}

// defaultSpeed is the stop a newly loaded run plays at, from the one the
// tab stood at: at the run's own pace, the story where the run has
// captions and the preference asks for it; any other stop is the user's
// choice and stays.
func (c *Controller) defaultSpeed(s Speed) Speed {
	if !s.Paced() {
		return s
	}
	if c.storyStops && c.scenario != nil && len(c.scenario.Captions) > 0 {
		return SpeedStory
	}
	return SpeedPaced
}

// pace is the run's pacing (sim.Pacing), laid out once per recording.
func (c *Controller) pace() *sim.Pacing {
	if c.pacing == nil {
		c.pacing = c.rec.Pace(sim.StoryPace)
	}
	return c.pacing
}

// Rate is how fast the run plays at the cursor, in run seconds per real
// second.
func (c *Controller) Rate() float64 {
	if c.rec == nil {
		return 1
	}
	switch c.speed {
	case SpeedStory, SpeedPaced:
		return c.pace().Rate(c.cursor)
	case SpeedReal:
		return 1
	case Speed10:
		return 10
	case Speed100:
		return 100
	}
	return max(1, c.rec.End().Seconds()/FastestRun.Seconds())
}

// Advance moves a playing cursor by real time elapsed, at the speed; it
// stops at the end of the run, and at the story's speed at the first
// caption after the cursor (held there until Play or Step).
func (c *Controller) Advance(elapsed time.Duration) {
	if !c.playing || c.rec == nil {
		return
	}
	var next time.Duration
	if c.speed.Paced() {
		next = c.pace().Advance(c.cursor, elapsed, 1)
	} else {
		next = c.cursor + time.Duration(float64(elapsed)*c.Rate())
	}
	if c.speed == SpeedStory {
		if at, ok := c.storyStopIn(c.cursor, next); ok {
			c.cursor, c.playing, c.held = at, false, true
			return
		}
	}
	c.cursor = min(next, c.rec.End())
	if c.cursor >= c.rec.End() {
		c.playing = false
	}
}

// storyStopIn is the first caption's instant in (from, to].
func (c *Controller) storyStopIn(from, to time.Duration) (time.Duration, bool) {
	best, found := time.Duration(0), false
	for _, cp := range c.scenario.Captions {
		if at := cp.At.D(); at > from && at <= to && at <= c.rec.End() && (!found || at < best) {
			best, found = at, true
		}
	}
	return best, found
}

// AtStoryStop reports whether playback is held at a caption's instant:
// Space or → goes on.
func (c *Controller) AtStoryStop() bool { return c.held }

// Moments are the run's moments of interest the jump keys go between:
// grants, expiries, faults and their ends, stale writes, violations.
func (c *Controller) Moments() []sim.Moment {
	if c.moments == nil && c.rec != nil {
		c.moments = []sim.Moment{}
		for _, m := range c.rec.Moments() {
			if m.Kind != sim.MomentCaption && m.Kind != sim.MomentChange {
				c.moments = append(c.moments, m)
			}
		}
	}
	return c.moments
}

// JumpMoment pauses and moves the cursor to the next moment of interest
// after it (forward) or the last one before it, and says which; it
// reports false where there is none.
func (c *Controller) JumpMoment(forward bool) bool {
	if c.rec == nil {
		return false
	}
	ms := c.Moments()
	var to []sim.Moment
	for _, m := range ms {
		if forward && m.At > c.cursor || !forward && m.At < c.cursor {
			if forward && len(to) > 0 && m.At != to[0].At {
				break
			}
			if !forward && len(to) > 0 && m.At != to[0].At {
				to = to[:0]
			}
			to = append(to, m)
		}
	}
	if len(to) == 0 {
		c.note = i18n.T("status.noMoment")
		return false
	}
	c.playing, c.held = false, false
	c.cursor = to[0].At
	var what []string
	for _, m := range to {
		if w := i18n.T("moment." + m.Kind.String()); !contains(what, w) {
			what = append(what, w)
		}
	}
	c.note = i18n.F("status.moment", "what", strings.Join(what, i18n.T("moment.and")), "t", widgets.FormatTime(c.cursor))
	return true
}

// PaceWords says how fast a run's time passes at rate (run seconds per
// real second) the way a person would: "real time", "10 s of the run
// every second", "10 ms of the run every 1.5 s".
func PaceWords(rate float64) string {
	switch {
	case rate <= 0 || math.IsNaN(rate) || math.IsInf(rate, 0):
		return i18n.T("pace.stopped")
	case math.Abs(rate-1) < 0.005:
		return i18n.T("pace.real")
	case rate > 1:
		return i18n.F("pace.faster", "run", runLength(rate))
	}
	// Slower than real time: the largest round stretch of the run that
	// takes at most 10 s to pass.
	run := 1.0
	for _, u := range []float64{1, 0.1, 0.01, 0.001, 1e-4, 1e-5} {
		run = u
		if u/rate <= 10 {
			break
		}
	}
	return i18n.F("pace.slower", "run", runLength(run), "real", runLength(run/rate))
}

// runLength writes a length of seconds with two significant digits in
// the unit that reads best.
func runLength(sec float64) string {
	switch {
	case sec < 1e-3:
		return twoDigits(sec*1e6) + " µs"
	case sec < 1:
		return twoDigits(sec*1e3) + " ms"
	case sec < 60:
		return twoDigits(sec) + " s"
	case sec < 3600:
		return i18n.F("pace.minutes", "n", twoDigits(sec/60))
	}
	return i18n.F("pace.hours", "n", twoDigits(sec/3600))
}

// twoDigits writes x with two significant digits, no exponent.
func twoDigits(x float64) string {
	if x >= 10 {
		return strconv.FormatFloat(math.Round(x), 'f', -1, 64)
	}
	return strconv.FormatFloat(x, 'g', 2, 64)
}
