package app

import (
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"github.com/lockscope/lockscope/sim"
)

// BenchmarkWindowSeek is a click on the timeline of a 10-minute,
// 20-client run: rebuild the instant from the checkpoints, redraw the
// cluster, key, timeline cursor and metrics, and move the event log.
// The time-travel target is 50 ms.
func BenchmarkWindowSeek(b *testing.B) {
	a := test.NewApp()
	w := NewWindow(a)
	defer w.Close()
	sc, err := Preset("redis-happy-path")
	if err != nil {
		b.Fatal(err)
	}
	sc.Duration, sc.Clients, sc.Rounds = sim.Duration(10*time.Minute), 20, 0
	if err := w.Load(sc, "10 min, 20 clients"); err != nil {
		b.Fatal(err)
	}
	v := w.tab("redis")
	end := v.ctl.End()
	i := 0
	for b.Loop() {
		i++
		v.seek(time.Duration(i) * 7919 * time.Millisecond % end)
	}
	b.ReportMetric(float64(len(v.ctl.Recording().Trace())), "events")
}
