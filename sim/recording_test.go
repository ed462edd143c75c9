package sim_test

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/simtest"
)

// heapPeak is what peakHeap saw: alloc is the most the heap held above
// where it started, garbage not yet collected included (what the process
// pays for); live is the most the last collection found still in use
// above the start (what the recording keeps).
type heapPeak struct{ alloc, live uint64 }

// peakHeap records sc within opts and returns the recording (or the
// refusal) and the largest heap seen while it ran, sampled at each
// progress report and at the end.
func peakHeap(t *testing.T, sc *sim.Scenario, opts sim.RecordOptions) (*sim.Recording, error, heapPeak) {
	t.Helper()
	runtime.GC()
	var ms runtime.MemStats
	inUse := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	sample := func() (alloc, live uint64) {
		runtime.ReadMemStats(&ms)
		metrics.Read(inUse)
		return ms.HeapAlloc, inUse[0].Value.Uint64()
	}
	base, baseLive := sample()
	var peak heapPeak
	note := func() {
		a, l := sample()
		peak.alloc, peak.live = max(peak.alloc, a-min(a, base)), max(peak.live, l-min(l, baseLive))
	}
	opts.Progress = func(_, _ time.Duration) bool {
		note()
		return true
	}
	rec, err := sim.RecordWith(sc, opts)
	note()
	return rec, err, peak
}

// A recording kept within small budgets — checkpoints thinned out, the
// trace spilled to a file — is the same run as one kept whole: the same
// trace, the same instants, the same snapshots.
func TestRecordingWithinBudgetsIsTheSameRun(t *testing.T) {
	sc := simtest.Preset(t, "redis-happy-path", func(sc *sim.Scenario) {
		sc.Duration, sc.Clients, sc.Rounds = sim.Duration(3*time.Minute), 20, 0
	})
	whole, err := sim.Record(sc)
	require.NoError(t, err)
	small, err := sim.RecordWith(sc, sim.RecordOptions{CheckpointBudget: 1 << 20, TraceBudget: 64 << 10, TraceDir: t.TempDir()})
	require.NoError(t, err)
	t.Cleanup(func() { small.Close() })

	n, spacing := small.Checkpoints()
	nWhole, spacingWhole := whole.Checkpoints()
	assert.Less(t, n, nWhole, "the small budget keeps fewer checkpoints")
	assert.Greater(t, spacing, spacingWhole, "further apart")
	assert.Positive(t, small.Events().Spilled(), "the trace went partly to the file")
	assert.Zero(t, whole.Events().Spilled())

	straight, err := sim.New(sc)
	require.NoError(t, err)
	straight.EnableTrace()
	straight.Run()
	require.Equal(t, straight.Trace(), small.Trace(), "the spilled trace reads back as the run made it")
	require.Equal(t, straight.Trace(), whole.Trace())

	times := whole.EventTimes()
	assert.Equal(t, times, small.EventTimes())
	for _, i := range []int{0, 1, len(times) / 3, len(times) / 2, len(times) - 2} {
		at := times[i]
		assert.Equal(t, whole.At(at), small.At(at), "at %v", at)
		assert.Equal(t, times[i+1], small.Next(at), "next after %v", at)
		assert.Equal(t, at, small.Prev(times[i+1]), "prev before %v", times[i+1])
		assert.Equal(t, at, small.Prev(at+time.Nanosecond), "prev before %v", at+time.Nanosecond)
	}
	assert.Equal(t, small.End(), small.Next(times[len(times)-1]))
	assert.Equal(t, time.Duration(0), small.Prev(times[0]))

	// The event log's questions.
	ev := small.Events()
	quiet := 0
	for i, e := range straight.Trace() {
		if e.Kind != sim.TraceSend && e.Kind != sim.TraceRecv && e.Kind != sim.TraceDrop {
			if quiet%997 == 0 {
				got, at := ev.QuietAt(quiet)
				assert.Equal(t, e, got)
				assert.Equal(t, i, at)
			}
			quiet++
		}
		if i%1009 == 0 {
			assert.Equal(t, e, ev.At(i))
			all, _ := ev.Before(e.At)
			assert.GreaterOrEqual(t, all, i+1)
		}
	}
	assert.Equal(t, quiet, ev.QuietLen())
}

// The largest scenario the validator accepts in each mode goes through
// the recorder without exhausting memory: it is recorded within the
// budgets or refused after its first events, with one error naming the
// limit and the duration that would fit.
func TestLargestAcceptedScenariosStayWithinMemory(t *testing.T) {
	const limit = 1 << 30 // heap growth allowed while recording, bytes
	for _, tc := range []struct{ mode, doc string }{
		{"redis", `{"mode":"redis","clients":200,"duration":"24h","rounds":0,"work":"1ms","think":"0s","fencing":true,"watchdog":true,"replica":true}`},
		{"redlock", `{"mode":"redlock","clients":200,"nodes":9,"duration":"24h","rounds":0,"work":"1ms","think":"0s"}`},
		{"zookeeper", `{"mode":"zookeeper","clients":200,"nodes":7,"duration":"24h","rounds":0,"work":"1ms","think":"0s","herd":true}`},
		{"etcd", `{"mode":"etcd","clients":200,"nodes":7,"duration":"24h","rounds":0,"work":"1ms","think":"0s","herd":true}`},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			sc, err := sim.ParseScenario([]byte(tc.doc))
			require.NoError(t, err)
			require.NoError(t, sc.Validate(), "the validator accepts it")
			rec, err, peak := peakHeap(t, sc, sim.RecordOptions{TraceDir: t.TempDir()})
			t.Logf("%s: peak heap growth %d MiB (%d MiB live), err %v", tc.mode, peak.alloc>>20, peak.live>>20, err)
			assert.LessOrEqual(t, peak.alloc, uint64(limit))
			if err == nil {
				rec.Close()
				return
			}
			var fe *sim.FieldError
			require.True(t, errors.As(err, &fe), "%v", err)
			assert.Equal(t, "record.tooBig", fe.Words.Key)
			assert.Contains(t, err.Error(), "duration: 24h0m0s of this scenario is about")
		})
	}
}

// The six-hour etcd file of issue 17 is refused after its first events,
// with the duration that would fit.
func TestSixHourEtcdIsRefusedUpFront(t *testing.T) {
	sc, err := sim.ParseScenario([]byte(`{"mode":"etcd","clients":200,"nodes":7,"duration":"6h","rounds":100000,"work":"1s","think":"100ms","ttl":"10s"}`))
	require.NoError(t, err)
	steps := 0
	_, err = sim.RecordWith(sc, sim.RecordOptions{Progress: func(at, _ time.Duration) bool { steps++; return true }})
	var fe *sim.FieldError
	require.True(t, errors.As(err, &fe), "%v", err)
	assert.Equal(t, "record.tooBig", fe.Words.Key)
	assert.Contains(t, err.Error(), "shorten duration to 4h")
	assert.Less(t, steps, 10, "refused within its first 200k events")
}

// The largest recording of that file's shape that fits (longEtcd, about
// 10 million events) is kept within the budgets. It takes about 20 s of
// CPU, so it runs only when asked:
// LOCKSCOPE_LONG=1 go test ./sim -run TestLongEtcdRecording -v
func TestLongEtcdRecording(t *testing.T) {
	if os.Getenv("LOCKSCOPE_LONG") == "" {
		t.Skip("set LOCKSCOPE_LONG=1 to record the long etcd run")
	}
	sc, err := sim.ParseScenario([]byte(`{"mode":"etcd","clients":200,"nodes":7,"duration":"3h14m","rounds":100000,"work":"1s","think":"100ms","ttl":"10s"}`))
	require.NoError(t, err)
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(1 << 30))
	rec, err, peak := peakHeap(t, sc, sim.RecordOptions{TraceDir: t.TempDir()})
	require.NoError(t, err)
	defer rec.Close()
	n, spacing := rec.Checkpoints()
	fmt.Printf("long etcd: %d events, %d checkpoints %d apart, %d MiB of trace spilled, peak heap growth %d MiB, %d MiB of it live\n",
		rec.Events().Len(), n, spacing, rec.Events().Spilled()>>20, peak.alloc>>20, peak.live>>20)
	// What the recording keeps: checkpoints (256 MiB budget), the trace in
	// memory (96 MiB), the flights for pacing (64 MiB at most) and the run
	// itself. The heap's peak is larger by the garbage a collection has not
	// yet taken (up to as much again with GOGC=100); the program's memory
	// limit (1 GiB, set here as cmd/lockscope sets it) makes the collector
	// take it sooner.
	assert.LessOrEqual(t, peak.live, uint64(640<<20))
	assert.LessOrEqual(t, peak.alloc, uint64(1<<30))
}

// The servers whose state grows with the run (a raft or Zab log) say what a
// checkpoint of them holds (sim.Sized), wherever their design lives: a
// recording that could not see them would space its checkpoints as if they
// were free and accept runs that cannot fit.
func TestServersWithALogSayTheirFootprint(t *testing.T) {
	for _, tc := range []struct {
		mode  string
		sized bool
	}{
		{"redis", false},
		{"redlock", false},
		{"zookeeper", true},
		{"etcd", true},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			sc, err := sim.ParseScenario([]byte(`{"mode":"` + tc.mode + `"}`))
			require.NoError(t, err)
			s, err := sim.New(sc)
			require.NoError(t, err)
			servers := s.Servers()
			require.NotEmpty(t, servers)
			for _, id := range servers {
				f, ok := s.Nodes[id].Proc.(sim.Sized)
				require.Equal(t, tc.sized, ok, "%s", s.Nodes[id].Name)
				if ok {
					assert.Positive(t, f.Footprint(), "%s", s.Nodes[id].Name)
				}
			}
		})
	}
}
