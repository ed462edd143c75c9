package app

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/lockscope/lockscope/sim"
)

// crowdScenario is issue 33's crowd: 200 etcd clients contending for two
// minutes.
const crowdScenario = `{"mode":"etcd","clients":200,"nodes":5,"duration":"2m","rounds":1000,"work":"1s","think":"100ms","ttl":"10s"}`

// crowdWindow is a 1024×768 window showing the crowd in the etcd tab.
func crowdWindow(b *testing.B) (*Window, *tabView) {
	b.Helper()
	a := test.NewApp()
	w := NewWindow(a)
	w.Resize(fyne.NewSize(1024, 768))
	sc, err := sim.ParseScenario([]byte(crowdScenario))
	if err != nil {
		b.Fatal(err)
	}
	if err := w.Load(sc, "200 clients"); err != nil {
		b.Fatal(err)
	}
	return w, w.tab("etcd")
}

// BenchmarkWindowSeekCrowd is BenchmarkWindowSeek for the crowd: a click
// on the timeline of 200 clients in a 1024×768 window (the crowd drawn as
// its groups, the timeline folded). The target is 50 ms.
func BenchmarkWindowSeekCrowd(b *testing.B) {
	w, v := crowdWindow(b)
	defer w.Close()
	end := v.ctl.End()
	i := 0
	for b.Loop() {
		i++
		v.seek(time.Duration(i) * 7919 * time.Millisecond % end)
	}
	b.ReportMetric(float64(len(v.ctl.Recording().Trace())), "events")
}

// BenchmarkFrameCrowd is BenchmarkFrame for the crowd: one animation
// frame while playing 200 clients in a 1024×768 window. The target is
// 16 ms.
func BenchmarkFrameCrowd(b *testing.B) {
	w, v := crowdWindow(b)
	defer w.Close()
	frames := &fakeFrames{}
	clock := time.Unix(1000, 0)
	v.clock.frames, v.clock.now = frames, func() time.Time { return clock }
	v.togglePlay()
	for b.Loop() {
		clock = clock.Add(FrameInterval)
		if !frames.Running() {
			v.ctl.Reset()
			v.togglePlay()
		}
		frames.frame()
	}
}
