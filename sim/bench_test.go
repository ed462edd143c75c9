package sim_test

import (
	"container/heap"
	"testing"
	"time"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/simtest"
)

// BenchmarkRun runs each preset to its end without a trace and reports
// simulated events per second.
func BenchmarkRun(b *testing.B) {
	for _, name := range simtest.PresetNames() {
		sc, err := simtest.Load(name)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			events := 0
			for b.Loop() {
				s, _ := sim.New(sc)
				s.Run()
				events += s.Steps()
			}
			b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

// BenchmarkSeek rebuilds instants of a 10-minute, 20-client run, the case
// the time-travel slider must keep under 50 ms.
func BenchmarkSeek(b *testing.B) {
	sc, _ := simtest.Load("redis-happy-path")
	sc.Duration, sc.Clients, sc.Rounds = sim.Duration(10*time.Minute), 20, 0
	rec, err := sim.Record(sc)
	if err != nil {
		b.Fatal(err)
	}
	i := 0
	for b.Loop() {
		i++
		rec.At(time.Duration(i) * 7919 * time.Millisecond % rec.End())
	}
}

type bareEvent struct {
	at  time.Duration
	seq uint64
}

type bareQueue []bareEvent

func (q bareQueue) Len() int { return len(q) }
func (q bareQueue) Less(i, j int) bool {
	return q[i].at < q[j].at || q[i].at == q[j].at && q[i].seq < q[j].seq
}
func (q bareQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *bareQueue) Push(x any)   { *q = append(*q, x.(bareEvent)) }
func (q *bareQueue) Pop() any {
	old := *q
	e := old[len(old)-1]
	*q = old[:len(old)-1]
	return e
}

// BenchmarkEngine compares the simulator's event rate with a bare
// container/heap push/pop loop handling the same number of events.
func BenchmarkEngine(b *testing.B) {
	sc, _ := simtest.Load("redis-happy-path")
	sc.Duration, sc.Rounds = sim.Duration(60*time.Second), 0
	probe, _ := sim.New(sc)
	probe.Run()
	n := probe.Steps()
	b.Run("sim", func(b *testing.B) {
		for b.Loop() {
			s, _ := sim.New(sc)
			s.Run()
		}
		b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "events/s")
	})
	b.Run("bare-heap", func(b *testing.B) {
		for b.Loop() {
			q := make(bareQueue, 0, 64)
			var seq uint64
			for i := 0; i < 8; i++ {
				seq++
				heap.Push(&q, bareEvent{at: time.Duration(i), seq: seq})
			}
			for i := 0; i < n; i++ {
				e := heap.Pop(&q).(bareEvent)
				seq++
				heap.Push(&q, bareEvent{at: e.at + time.Duration(seq%7+1)*time.Millisecond, seq: seq})
			}
		}
		b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "events/s")
	})
}
