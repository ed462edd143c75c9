package breaker

import (
	"context"
	"testing"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/simtest"
)

// BenchmarkScheduleRuns runs random schedules of each mode's happy path
// within the mode's default budget on every core, as the search does, and
// reports schedules run a second of wall time (runs/s) and of CPU time
// summed over the cores (runs/cpu-s, Linux).
func BenchmarkScheduleRuns(b *testing.B) {
	for _, name := range []string{"redis-happy-path", "redlock-happy-path", "zk-happy-path", "etcd-happy-path"} {
		b.Run(name, func(b *testing.B) {
			sc, err := simtest.Load(name)
			if err != nil {
				b.Fatal(err)
			}
			e, _, err := newEnv(sc, DefaultBudget(sc))
			if err != nil {
				b.Fatal(err)
			}
			batch := make([]schedule, batchSize)
			runs := 0
			cpu0, cpuOK := processCPU()
			for b.Loop() {
				for j := range batch {
					batch[j] = e.space.randomSchedule(newRand(1, runs+j, 0))
				}
				if _, err := e.runAll(context.Background(), batch, 0); err != nil {
					b.Fatal(err)
				}
				runs += len(batch)
			}
			b.ReportMetric(float64(runs)/b.Elapsed().Seconds(), "runs/s")
			if cpu1, ok := processCPU(); ok && cpuOK && cpu1 > cpu0 {
				b.ReportMetric(float64(runs)/(cpu1-cpu0).Seconds(), "runs/cpu-s")
			}
		})
	}
}

// BenchmarkBreak times a whole search and shrink on every core (ns/op,
// wall; cpu-ms/op summed over the cores, Linux): redis-happy-path with the
// default budget, redlock-happy-path with clock jumps only.
func BenchmarkBreak(b *testing.B) {
	for _, tc := range []struct {
		name   string
		budget Budget
	}{
		{"redis-happy-path", Budget{}},
		{"redlock-happy-path", Budget{Kinds: []sim.FaultKind{KindClockJump}}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			sc, err := simtest.Load(tc.name)
			if err != nil {
				b.Fatal(err)
			}
			cpu0, cpuOK := processCPU()
			n := 0
			for b.Loop() {
				n++
				r, err := Search(context.Background(), sc, Options{Budget: tc.budget, Seed: 1})
				if err != nil || !r.Found {
					b.Fatal("not found", err)
				}
				b.ReportMetric(float64(r.Runs), "schedules")
				b.ReportMetric(float64(r.ShrinkRuns), "shrink-runs")
			}
			if cpu1, ok := processCPU(); ok && cpuOK && n > 0 {
				b.ReportMetric(float64((cpu1-cpu0).Milliseconds())/float64(n), "cpu-ms/op")
			}
		})
	}
}
