package sim_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/redis"
	"github.com/lockscope/lockscope/sim/simtest"
)

const ms = time.Millisecond

// flight is a key message shown over its whole trip.
func flight(sent, due time.Duration) sim.Flight {
	return sim.Flight{Sent: sent, Due: due, Shown: []sim.Interval{{From: sent, To: due}}, Key: true}
}

// manyFlights are n key messages of 1 ms, a second apart.
func manyFlights(n int) []sim.Flight {
	var out []sim.Flight
	for i := range n {
		at := time.Duration(i+1) * time.Second
		out = append(out, flight(at, at+ms))
	}
	return out
}

// atOne are rules whose quiet stretches play at 1× and whose key messages
// take a second each, with no easing: the pace is what the messages ask.
var atOne = sim.PaceRules{KeyDwell: time.Second, Target: time.Second, MinRate: 1, MaxRate: 1}

func TestPacingMapsRealTimeToRunTime(t *testing.T) {
	end := 10 * time.Second
	// Two messages overlap from 1.002 s to 1.004 s; the shorter trip (2 ms)
	// sets the pace there.
	two := []sim.Flight{flight(1000*ms, 1004*ms), flight(1002*ms, 1004*ms)}
	hidden := flight(1000*ms, 1002*ms)
	hidden.Shown = nil
	background := flight(1000*ms, 1002*ms)
	background.Key = false
	for _, tc := range []struct {
		name    string
		flights []sim.Flight
		from    time.Duration
		wall    time.Duration
		speed   float64
		want    time.Duration
	}{
		{"quiet run plays at the speed", nil, 0, 2 * time.Second, 1, 2 * time.Second},
		{"quiet run at half speed", nil, 0, 2 * time.Second, 0.5, time.Second},
		{"stops at the end", nil, 9 * time.Second, 5 * time.Second, 1, end},
		{"up to the message at 1×", []sim.Flight{flight(1000*ms, 1002*ms)}, 0, time.Second, 1, 1000 * ms},
		{"halfway across: half the dwell", []sim.Flight{flight(1000*ms, 1002*ms)}, 0, 1500 * ms, 1, 1001 * ms},
		{"across: the whole dwell", []sim.Flight{flight(1000*ms, 1002*ms)}, 0, 2 * time.Second, 1, 1002 * ms},
		{"then the speed again", []sim.Flight{flight(1000*ms, 1002*ms)}, 0, 3 * time.Second, 1, 2002 * ms},
		{"2× halves the dwell too", []sim.Flight{flight(1000*ms, 1002*ms)}, 0, time.Second, 2, 1002 * ms},
		{"from inside a flight", []sim.Flight{flight(1000*ms, 1002*ms)}, 1001 * ms, 250 * ms, 1, 1001*ms + 500*time.Microsecond},
		{"overlap: the longer alone", two, 0, 1250 * ms, 1, 1001 * ms},
		{"overlap: the shorter sets the pace", two, 0, 2 * time.Second, 1, 1003 * ms},
		{"overlap: both across", two, 0, 2500 * ms, 1, 1004 * ms},
		{"a hidden message does not slow", []sim.Flight{hidden}, 0, 2 * time.Second, 1, 2 * time.Second},
		{"a background message does not slow", []sim.Flight{background}, 0, 2 * time.Second, 1, 2 * time.Second},
		{"a trip longer than the dwell does not slow", []sim.Flight{flight(1000*ms, 3000*ms)}, 0, 2 * time.Second, 1, 2 * time.Second},
		{"a trip of no time does not stall", []sim.Flight{flight(1000*ms, 1000*ms)}, 0, 2 * time.Second, 1, 2 * time.Second},
		{"paused speed stays put", []sim.Flight{flight(1000*ms, 1002*ms)}, 500 * ms, time.Second, 0, 500 * ms},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := sim.NewPacing(tc.flights, nil, end, atOne)
			got := p.Advance(tc.from, tc.wall, tc.speed)
			assert.InDelta(t, float64(tc.want), float64(got), float64(time.Microsecond), "at %v", got)
			if tc.speed > 0 && got < end {
				assert.InDelta(t, float64(tc.wall), float64(p.Wall(tc.from, got, tc.speed)), float64(time.Millisecond),
					"Wall is Advance's inverse")
			}
		})
	}
}

func TestPacingRate(t *testing.T) {
	p := sim.NewPacing([]sim.Flight{flight(1000*ms, 1004*ms), flight(1002*ms, 1004*ms)}, nil, 10*time.Second, atOne)
	for _, tc := range []struct {
		at   time.Duration
		want float64
	}{
		{0, 1}, {999 * ms, 1}, {1000 * ms, 0.004}, {1002 * ms, 0.002}, {1003 * ms, 0.002}, {1004 * ms, 1}, {9 * time.Second, 1},
	} {
		assert.InDelta(t, tc.want, p.Rate(tc.at), 1e-12, "at %v", tc.at)
	}
	assert.Equal(t, 1.0, sim.NewPacing(nil, nil, 0, atOne).Rate(0), "an empty run is quiet")
}

// TestQuietRateMakesTheTarget: the quiet stretches share what the target
// leaves, within the bounds.
func TestQuietRateMakesTheTarget(t *testing.T) {
	rules := sim.PaceRules{KeyDwell: time.Second, Target: 20 * time.Second, MinRate: 0.01, MaxRate: 1000}
	for _, tc := range []struct {
		name    string
		end     time.Duration
		flights []sim.Flight
		want    time.Duration // the whole playback
		quiet   float64
	}{
		{"a quiet run is the target", 100 * time.Second, nil, 20 * time.Second, 5},
		{"a short run plays slowed down", 2 * time.Second, nil, 20 * time.Second, 0.1},
		{"a message takes its second, the rest share 19 s", 100 * time.Second, []sim.Flight{flight(time.Second, time.Second+2*ms)},
			20 * time.Second, (100 - 0.002) / 19},
		{"a run of days is held to the fastest pace", 1000 * time.Hour, nil, time.Hour, 1000},
		{"a run of moments is held to the slowest", time.Millisecond, nil, 100 * ms, 0.01},
		{"key messages past the target: the rest at the fastest", 100 * time.Second, manyFlights(30), 0, 1000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := sim.NewPacing(tc.flights, nil, tc.end, rules)
			sum := p.Summary()
			assert.InDelta(t, tc.quiet, sum.QuietRate, tc.quiet*1e-9)
			if tc.want > 0 {
				assert.InDelta(t, tc.want.Seconds(), sum.Seconds, 1e-6)
			}
			assert.InDelta(t, sum.Seconds, p.Wall(0, tc.end, 1).Seconds(), 1e-9)
			assert.Equal(t, len(tc.flights), sum.KeyMessages)
			if len(tc.flights) > 0 {
				assert.InDelta(t, 1, sum.MinKeyMessageSeconds, 1e-6, "each key message its dwell")
			}
		})
	}
}

// TestPlaybackEasesDownAroundAMoment: at a moment the pace is MomentRate,
// each ring out EaseStep times faster, up to the quiet rate.
func TestPlaybackEasesDownAroundAMoment(t *testing.T) {
	rules := sim.PaceRules{Target: 10 * time.Second, MomentRate: 0.25, EaseStep: 4, EaseRing: 200 * ms, EaseRings: 5, MinRate: 10, MaxRate: 10}
	at := 50 * time.Second
	p := sim.NewPacing(nil, []sim.Moment{{At: at, Kind: sim.MomentExpiry}}, 100*time.Second, rules)
	assert.Equal(t, 0.25, p.Rate(at))
	assert.Equal(t, 0.25, p.Rate(at-49*ms), "the first ring: 0.25 × 200 ms of run either side")
	assert.Equal(t, 1.0, p.Rate(at+51*ms))
	assert.Equal(t, 4.0, p.Rate(at-300*ms), "the third ring starts 50 + 200 ms away")
	assert.Equal(t, 10.0, p.Rate(at-5*time.Second), "far off: the quiet rate")
	prev := 0.0
	for d := time.Duration(0); d < 5*time.Second; d += 10 * ms {
		r := p.Rate(at + d)
		require.GreaterOrEqual(t, r, prev, "the pace only rises away from the moment (at +%v)", d)
		prev = r
	}
	// Each ring below the quiet rate lasts 200 ms of real time either side.
	assert.InDelta(t, 0.4, p.Wall(at-50*ms, at+50*ms, 1).Seconds(), 1e-6)
	assert.InDelta(t, 0.4, p.Wall(at+50*ms, at+250*ms, 1).Seconds()*2, 1e-6)
}

// TestEasingGivesWayToTheKeyMessages: where the key messages and the
// eased moments would pass Longest, the easing shrinks, never the dwell.
func TestEasingGivesWayToTheKeyMessages(t *testing.T) {
	var flights []sim.Flight
	var moments []sim.Moment
	for i := range 40 {
		at := time.Duration(i) * time.Second
		flights = append(flights, flight(at, at+2*ms))
		moments = append(moments, sim.Moment{At: at + 500*ms, Kind: sim.MomentGrant})
	}
	rules := sim.StoryPace
	rules.KeyDwell = time.Second
	rules.Longest = 50 * time.Second
	sum := sim.NewPacing(flights, moments, 40*time.Second, rules).Summary()
	assert.LessOrEqual(t, sum.Seconds, 50.0)
	assert.GreaterOrEqual(t, sum.MinKeyMessageSeconds, 0.999)
	eased := sim.NewPacing(flights[:5], moments[:5], 40*time.Second, rules).Summary()
	assert.Less(t, eased.Seconds, 50.0)
	rules.Longest = 0
	full := sim.NewPacing(flights, moments, 40*time.Second, rules).Summary()
	assert.Greater(t, full.Seconds, 50.0, "without Longest the whole easing stays")
}

// TestEveryPresetTellsItsStoryInAMinute is the contract of DESIGN.md's
// "playback": at the window's pace every preset plays in 20 to 60 s, its
// key messages each on show for 0.3 s at least.
func TestEveryPresetTellsItsStoryInAMinute(t *testing.T) {
	for _, name := range simtest.PresetNames() {
		t.Run(name, func(t *testing.T) {
			rec, err := sim.Record(simtest.Preset(t, name, nil))
			require.NoError(t, err)
			sum := rec.Pace(sim.StoryPace).Summary()
			assert.GreaterOrEqual(t, sum.Seconds, 20.0)
			assert.LessOrEqual(t, sum.Seconds, 60.0)
			assert.GreaterOrEqual(t, sum.KeyMessages, 1)
			assert.GreaterOrEqual(t, sum.MinKeyMessageSeconds, 0.3)
			t.Logf("%s: %v of run in %.1f s, %d key messages, the shortest on show %.3f s, quiet at %.3g×",
				name, rec.End(), sum.Seconds, sum.KeyMessages, sum.MinKeyMessageSeconds, sum.QuietRate)
		})
	}
}

// TestWhichMessagesAreKey: the first try and its answer are key, the
// waiter's later tries and their answers are not, and the try that wins
// is; heartbeats and pings are not.
func TestWhichMessagesAreKey(t *testing.T) {
	rec, err := sim.Record(simtest.Preset(t, "redis-gc-pause", nil))
	require.NoError(t, err)
	waiter := rec.Scenario.ClientNames()[1]
	var tries []sim.Flight
	var id sim.NodeID = -1
	for _, f := range rec.Flights() {
		if f.Op == redis.OpLock && rec.At(f.Sent).Nodes[f.From].Name == waiter {
			tries = append(tries, f)
			id = f.From
		}
	}
	require.Greater(t, len(tries), 3, "client-2 tries again and again while client-1 holds")
	assert.True(t, tries[0].Key, "the first try")
	assert.False(t, tries[1].Key, "a repeated try")
	assert.True(t, tries[len(tries)-1].Key, "the try that is granted")
	answers := map[bool]int{}
	granted := tries[len(tries)-1].Due
	for _, f := range rec.Flights() {
		if f.To == id && f.Sent <= granted {
			answers[f.Key]++
		}
	}
	assert.Equal(t, 2, answers[true], "the answers to the first and the winning try")
	assert.Greater(t, answers[false], 2)

	// Redlock: every vote of a try that won after failed ones is key.
	rl, err := sim.Record(simtest.Preset(t, "redlock-happy-path", nil))
	require.NoError(t, err)
	tl := rl.Timeline()
	checked := 0
	for _, g := range tl.Grants {
		var last time.Duration = -1
		var votes []sim.Flight
		for _, f := range rl.Flights() {
			if f.From == g.Client && f.Op.String() == "SET" && f.Sent <= g.At {
				if f.Sent != last {
					last, votes = f.Sent, nil
				}
				votes = append(votes, f)
			}
		}
		if last <= g.Asked {
			continue // won at its first try
		}
		checked++
		require.Len(t, votes, 5, "a try asks all five masters at once")
		for _, v := range votes {
			assert.True(t, v.Key, "the winning try's vote to %d at %v", v.To, v.Sent)
		}
	}
	require.Positive(t, checked, "a client won after failed tries")

	for _, tc := range []struct {
		preset string
		ops    []string // the ops' names
	}{
		{"etcd-happy-path", []string{"MsgHeartbeat", "MsgHeartbeatResp"}},
		{"zk-happy-path", []string{"PING", "PONG"}},
	} {
		rec, err := sim.Record(simtest.Preset(t, tc.preset, nil))
		require.NoError(t, err)
		seen := map[string]int{}
		key := 0
		for _, f := range rec.Flights() {
			for _, op := range tc.ops {
				if f.Op.String() == op {
					seen[op]++
					assert.False(t, f.Key, "%s %s at %v", tc.preset, op, f.Sent)
				}
			}
			if f.Key {
				key++
			}
		}
		for _, op := range tc.ops {
			assert.Positive(t, seen[op], "%s sends %s", tc.preset, op)
		}
		assert.Positive(t, key)
	}
}

// TestMomentsOfAPause: the story of redis-gc-pause turns on its captions,
// the grants, the pause and its end, the expiry and the overlap.
func TestMomentsOfAPause(t *testing.T) {
	rec, err := sim.Record(simtest.Preset(t, "redis-gc-pause", nil))
	require.NoError(t, err)
	kinds := map[sim.MomentKind][]time.Duration{}
	ms := rec.Moments()
	for i, m := range ms {
		kinds[m.Kind] = append(kinds[m.Kind], m.At)
		if i > 0 {
			require.LessOrEqual(t, ms[i-1].At, m.At, "in time order")
		}
	}
	tl := rec.Timeline()
	require.Len(t, kinds[sim.MomentCaption], len(rec.Scenario.Captions))
	require.Len(t, kinds[sim.MomentGrant], len(tl.Grants))
	require.Len(t, kinds[sim.MomentFault], 1)
	require.Len(t, kinds[sim.MomentFaultEnd], 1, "the pause's end")
	f := rec.Scenario.Faults[0]
	assert.Equal(t, kinds[sim.MomentFault][0]+f.For.D(), kinds[sim.MomentFaultEnd][0])
	require.NotEmpty(t, kinds[sim.MomentExpiry])
	assert.Equal(t, len(tl.Overlaps), len(kinds[sim.MomentViolation]))
	assert.Equal(t, "expiry", sim.MomentExpiry.String())
}

// TestFlightsAreWhatTheClusterShows checks the flights against the
// snapshots the cluster view draws, in runs with partitions and crashes:
// a message is among Snapshot.InFlight exactly while one of its shown
// stretches holds the instant.
func TestFlightsAreWhatTheClusterShows(t *testing.T) {
	for _, name := range []string{"redis-happy-path", "redis-failover", "redlock-majority-down", "redlock-restart-no-persist", "zk-minority-partition", "etcd-leader-crash"} {
		t.Run(name, func(t *testing.T) {
			rec, err := sim.Record(simtest.Preset(t, name, nil))
			require.NoError(t, err)
			flights := rec.Flights()
			require.NotEmpty(t, flights)
			rng := rand.New(rand.NewPCG(1, 2))
			hidden := 0
			for range 60 {
				at := time.Duration(rng.Int64N(int64(rec.End())))
				if rng.IntN(2) == 0 { // half the instants inside some flight
					f := flights[rng.IntN(len(flights))]
					at = f.Sent + time.Duration(rng.Int64N(int64(f.Due-f.Sent)+1))
				}
				snap := rec.At(at)
				type key struct {
					from, to  int
					sent, due time.Duration
				}
				drawn := map[key]int{}
				for _, m := range snap.InFlight {
					drawn[key{m.From, m.To, m.SentAt, m.DeliverAt}]++
				}
				for _, f := range flights {
					if f.Sent > at || f.Due <= at && f.Due < rec.End() {
						continue
					}
					k := key{int(f.From), int(f.To), f.Sent, f.Due}
					on := false
					for _, iv := range f.Shown {
						on = on || iv.From <= at && at < iv.To
					}
					if on {
						require.Positive(t, drawn[k], "at %v the cluster should draw %+v", at, f)
						drawn[k]--
					} else if f.Due > at {
						hidden++
					}
				}
				for k, n := range drawn {
					require.Zero(t, n, "at %v the cluster draws %+v, which no shown flight accounts for", at, k)
				}
			}
			t.Logf("%d flights, %d seen hidden", len(flights), hidden)
		})
	}
}

// BenchmarkPacingLargest paces the largest input a recording can give:
// maxFlights (2^20) key messages over three hours and 200 clients' worth
// of moments (a grant, an expiry and a fault every few seconds each).
func BenchmarkPacingLargest(b *testing.B) {
	const n = 1 << 20
	end := 3 * time.Hour
	rng := rand.New(rand.NewPCG(1, 2))
	flights := make([]sim.Flight, n)
	for i := range flights {
		sent := end * time.Duration(i) / n
		flights[i] = flight(sent, sent+time.Duration(1+rng.IntN(5))*ms)
		flights[i].Key = rng.IntN(3) > 0
	}
	moments := make([]sim.Moment, 0, 200_000)
	for range cap(moments) {
		moments = append(moments, sim.Moment{At: time.Duration(rng.Int64N(int64(end))), Kind: sim.MomentGrant})
	}
	b.ResetTimer()
	for b.Loop() {
		sim.NewPacing(flights, moments, end, sim.StoryPace)
	}
}

// TestACrowdPlaysInAboutTenMinutes: where the key messages alone would
// take longer than StoryPace.Most, each is on show for less, in
// proportion, and the run takes about Most.
func TestACrowdPlaysInAboutTenMinutes(t *testing.T) {
	crowd := manyFlights(3000) // 3000 s of key messages at 1 s each
	rules := sim.StoryPace
	rules.KeyDwell = time.Second
	sum := sim.NewPacing(crowd, nil, 3001*time.Second, rules).Summary()
	assert.InDelta(t, rules.Most.Seconds(), sum.Seconds, 2)
	assert.InDelta(t, 0.2, sum.MinKeyMessageSeconds, 0.01, "600 s over 3000 messages")
	rules.Most = 0
	assert.Greater(t, sim.NewPacing(crowd, nil, 3001*time.Second, rules).Summary().Seconds, 3000.0, "unbounded")
}
