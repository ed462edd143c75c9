package app

import (
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
)

// BenchmarkFrame is the work of one animation frame while playing
// redis-gc-pause at 1×: rebuild the snapshot at the new cursor and move the
// widgets (the painting itself is the driver's).
func BenchmarkFrame(b *testing.B) {
	a := test.NewApp()
	w := NewWindow(a)
	defer w.Close()
	v := w.tab("redis")
	frames := &fakeFrames{}
	clock := time.Unix(1000, 0)
	v.clock.frames, v.clock.now = frames, func() time.Time { return clock }
	v.togglePlay()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		clock = clock.Add(FrameInterval)
		if !frames.Running() {
			v.ctl.Reset()
			v.togglePlay()
		}
		frames.frame()
	}
}

// BenchmarkReRecord is the work behind one slider move: record
// redis-gc-pause again and redraw.
func BenchmarkReRecord(b *testing.B) {
	a := test.NewApp()
	w := NewWindow(a)
	defer w.Close()
	v := w.tab("redis")
	ttl := v.slider("ttl")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ttl.set(float64(10 + i%2))
	}
}
