package sim_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/simtest"
)

// flight is a message shown over its whole trip.
const ms = time.Millisecond

func flight(sent, due time.Duration) sim.Flight {
	return sim.Flight{Sent: sent, Due: due, Shown: []sim.Interval{{From: sent, To: due}}}
}

func TestPacingMapsRealTimeToRunTime(t *testing.T) {
	end := 10 * time.Second
	// Two messages overlap from 1.002 s to 1.004 s; the shorter trip (2 ms)
	// sets the pace there.
	two := []sim.Flight{flight(1000*ms, 1004*ms), flight(1002*ms, 1004*ms)}
	hidden := flight(1000*ms, 1002*ms)
	hidden.Shown = nil
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
		{"halfway across: half the flight time", []sim.Flight{flight(1000*ms, 1002*ms)}, 0, 1500 * ms, 1, 1001 * ms},
		{"across: the whole flight time", []sim.Flight{flight(1000*ms, 1002*ms)}, 0, 2 * time.Second, 1, 1002 * ms},
		{"then the speed again", []sim.Flight{flight(1000*ms, 1002*ms)}, 0, 3 * time.Second, 1, 2002 * ms},
		{"2× halves the flight too", []sim.Flight{flight(1000*ms, 1002*ms)}, 0, time.Second, 2, 1002 * ms},
		{"from inside a flight", []sim.Flight{flight(1000*ms, 1002*ms)}, 1001 * ms, 250 * ms, 1, 1001*ms + 500*time.Microsecond},
		{"overlap: the longer alone", two, 0, 1250 * ms, 1, 1001 * ms},
		{"overlap: the shorter sets the pace", two, 0, 2 * time.Second, 1, 1003 * ms},
		{"overlap: both across", two, 0, 2500 * ms, 1, 1004 * ms},
		{"a hidden message does not slow", []sim.Flight{hidden}, 0, 2 * time.Second, 1, 2 * time.Second},
		{"a trip longer than the flight time does not slow", []sim.Flight{flight(1000*ms, 3000*ms)}, 0, 2 * time.Second, 1, 2 * time.Second},
		{"a trip of no time does not stall", []sim.Flight{flight(1000*ms, 1000*ms)}, 0, 2 * time.Second, 1, 2 * time.Second},
		{"paused speed stays put", []sim.Flight{flight(1000*ms, 1002*ms)}, 500 * ms, time.Second, 0, 500 * ms},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := sim.NewPacing(tc.flights, end, time.Second)
			got := p.Advance(tc.from, tc.wall, tc.speed)
			assert.InDelta(t, float64(tc.want), float64(got), float64(time.Microsecond), "at %v", got)
			if tc.speed > 0 && got < end {
				assert.InDelta(t, float64(tc.wall), float64(p.Wall(tc.from, got, tc.speed)), float64(time.Millisecond),
					"Wall is Advance's inverse")
			}
		})
	}
}

func TestPacingShare(t *testing.T) {
	p := sim.NewPacing([]sim.Flight{flight(1000*ms, 1004*ms), flight(1002*ms, 1004*ms)}, 10*time.Second, time.Second)
	for _, tc := range []struct {
		at   time.Duration
		want float64
	}{
		{0, 1}, {999 * ms, 1}, {1000 * ms, 0.004}, {1002 * ms, 0.002}, {1003 * ms, 0.002}, {1004 * ms, 1}, {9 * time.Second, 1},
	} {
		assert.InDelta(t, tc.want, p.Share(tc.at), 1e-12, "at %v", tc.at)
	}
	assert.Equal(t, 1.0, sim.NewPacing(nil, 0, time.Second).Share(0), "an empty run is quiet")
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

func TestPacingOfAPresetSlowsForEveryMessage(t *testing.T) {
	rec, err := sim.Record(simtest.Preset(t, "redis-happy-path", nil))
	require.NoError(t, err)
	const flightTime = 500 * ms // app.MessageFlightTime
	p := sim.NewPacing(rec.Flights(), rec.End(), flightTime)
	for _, f := range rec.Flights() {
		for _, iv := range f.Shown {
			wall := p.Wall(iv.From, iv.To, 1)
			want := time.Duration(float64(flightTime) * float64(iv.To-iv.From) / float64(f.Due-f.Sent))
			assert.GreaterOrEqual(t, wall, want-time.Millisecond, "%+v crosses the screen in %v at 1×", f, wall)
		}
	}
	quiet := p.Wall(0, rec.End(), 1)
	assert.Greater(t, quiet, rec.End(), "slowed while messages fly")
	t.Logf("%s: %v of run, %v of playback at 1×", "redis-happy-path", rec.End(), quiet)
}
